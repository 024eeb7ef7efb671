/** What the primary and its workers say to each other over IPC (besides the adapter's own). */
import type { IpcEventMessage } from '../../models/platform';

/** Primary → worker: a new connection (its handle rides along) and the bytes already read. */
export interface ConnectionMessage {
  quire: 'connection';
  /** Base64 of the first chunk the primary read to route it. */
  head: string;
}

export type PrimaryMessage = ConnectionMessage | IpcEventMessage;

/** Worker → primary. */
export type WorkerMessage = { quire: 'ready' } | IpcEventMessage;
