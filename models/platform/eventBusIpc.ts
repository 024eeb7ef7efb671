/**
 * Relays the domain-event bus between the worker processes of one machine (WORKERS > 1, no
 * REDIS_URL) over the IPC channel each worker has to the cluster primary: a worker sends every
 * event its models publish to the primary, which forwards it to every other worker
 * (server/cluster/primary.ts). The same contract as the Redis relay (eventBusRedis.ts):
 *
 * - Out first: one `localOnly`, `synchronous` listener per event sends it once, inside
 *   `publish`, before the publishing worker's own listeners run — a notice to a thousand sockets
 *   reaches the other workers while this one writes to its own, not after; it never sees relayed
 *   events, so nothing echoes back.
 * - In: an event from another worker is published on the local bus marked `remote`, so
 *   `localOnly` listeners (those that write: reminders, comment clean-up) skip it and each write
 *   happens once, in the publishing worker.
 *
 * Ordering and the window: one worker's events reach another in the order they were published
 * (one pipe to the primary, one from it). An event is sent before the request that caused it
 * answers, and the primary forwards it before it hands that worker any connection accepted
 * later, so a client's *new* connection to another worker sees it; a request on a connection
 * that was already open to another worker may run before the event arrives there, a window of
 * one IPC hop through the primary (well under a millisecond on an idle machine, longer under
 * load). Delivery is to the workers running at that moment: a worker that starts later reads
 * state from the database, not from past events.
 *
 * The window is closed for the API's answers: each event carries a number, the primary answers
 * `event-ack` with it once it has handed the event to every other worker's pipe, and the worker
 * registers that wait with `bus.track`, so an API call answers only after its events sit in the
 * other workers' pipes, ahead of any request the client sends next (the read model's revocations
 * hold on the next request in every worker). An ack that never comes (primary gone) stops being
 * waited for after ACK_TIMEOUT_MS.
 */
import type { DomainEvents, EventBus, EventName } from './events';
import { RELAYED } from './eventBusRedis';
import type { Logger } from './log';

/** The IPC message of one relayed event (worker ↔ primary). */
export interface IpcEventMessage {
  quire: 'event';
  name: EventName;
  payload: unknown;
  /** The sender's number for this event, answered by the primary's `event-ack`. */
  ack?: number;
}

/** Primary → the publishing worker: its event `ack` has been handed to every other worker. */
export interface IpcEventAck {
  quire: 'event-ack';
  ack: number;
}

/** Longest an API answer waits for the primary's ack of its events. */
export const ACK_TIMEOUT_MS = 1000;

function isIpcEventAck(message: unknown): message is IpcEventAck {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { quire?: unknown }).quire === 'event-ack'
  );
}

export function isIpcEventMessage(message: unknown): message is IpcEventMessage {
  return (
    typeof message === 'object' &&
    message !== null &&
    (message as { quire?: unknown }).quire === 'event'
  );
}

export interface IpcEventRelay {
  close(): void;
}

export function startIpcEventRelay(options: { bus: EventBus; logger: Logger }): IpcEventRelay {
  const { bus } = options;
  const log = options.logger.child({ component: 'event-relay' });
  if (!process.send) throw new Error('the IPC event relay runs in a worker process only');
  let closed = false;
  let lastAck = 0;
  const awaitingAck = new Map<number, () => void>();

  const onMessage = (message: unknown) => {
    if (isIpcEventAck(message)) {
      awaitingAck.get(message.ack)?.();
      return;
    }
    if (closed || !isIpcEventMessage(message) || !(message.name in RELAYED)) return;
    const payload = message.payload;
    if (typeof payload !== 'object' || payload === null) return;
    bus.publish(message.name, payload as DomainEvents[typeof message.name], { remote: true });
  };
  process.on('message', onMessage);

  const unsubscribers = (Object.keys(RELAYED) as EventName[]).map((name) =>
    bus.subscribe(
      name,
      (payload) => {
        if (closed || !process.connected) return;
        const ack = ++lastAck;
        const message: IpcEventMessage = { quire: 'event', name, payload, ack };
        bus.track(
          new Promise<void>((resolve) => {
            const timer = setTimeout(done, ACK_TIMEOUT_MS);
            function done() {
              clearTimeout(timer);
              awaitingAck.delete(ack);
              resolve();
            }
            awaitingAck.set(ack, done);
            try {
              process.send!(message, undefined, {}, (error: Error | null) => {
                if (!error) return;
                log.warn({ err: error, event: name }, 'event not relayed');
                done();
              });
            } catch (error) {
              log.warn({ err: error, event: name }, 'event not relayed');
              done();
            }
          }),
        );
      },
      { localOnly: true, synchronous: true },
    ),
  );

  return {
    close() {
      if (closed) return;
      closed = true;
      process.off('message', onMessage);
      for (const unsubscribe of unsubscribers) unsubscribe();
      for (const done of [...awaitingAck.values()]) done();
    },
  };
}
