/** What the primary and its workers say to each other over IPC (besides the adapter's own). */
import type { IpcEventAck, IpcEventMessage } from '../../models/platform';

/** Primary → worker: a new connection (its handle rides along) and the bytes already read. */
export interface ConnectionMessage {
  quire: 'connection';
  /** Base64 of the first chunk the primary read to route it. */
  head: string;
}

/**
 * Primary → worker: every worker is serving (sent to all once they are, and to a replacement
 * once it is): start-up is over, its garbage can go.
 */
export interface StartedMessage {
  quire: 'started';
}

/**
 * Primary → lead worker, on stop: `drain` starts its stop at the same time as the others' (its
 * sockets are told, its requests finish, its documents are stored) but keeps the engine open
 * until `others-stopped`: the other workers' last requests are still writing through it.
 */
export interface DrainMessage {
  quire: 'drain' | 'others-stopped';
}

export type PrimaryMessage =
  ConnectionMessage | StartedMessage | DrainMessage | IpcEventMessage | IpcEventAck;

/** Worker → primary. */
export type WorkerMessage = { quire: 'ready' } | IpcEventMessage;
