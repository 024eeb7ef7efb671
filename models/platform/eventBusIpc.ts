/**
 * Relays the domain-event bus between the worker processes of one machine (WORKERS > 1, no
 * REDIS_URL) over the IPC channel each worker has to the cluster primary: a worker sends every
 * event its models publish to the primary, which forwards it to every other worker
 * (scripts/cluster/primary.ts). The same contract as the Redis relay (eventBusRedis.ts):
 *
 * - Local first: listeners of the publishing worker run as before.
 * - Out: one `localOnly` listener per event sends it once; it never sees relayed events, so
 *   nothing echoes back.
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
 */
import type { DomainEvents, EventBus, EventName } from './events';
import { RELAYED } from './eventBusRedis';
import type { Logger } from './log';

/** The IPC message of one relayed event (worker ↔ primary). */
export interface IpcEventMessage {
  quire: 'event';
  name: EventName;
  payload: unknown;
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

  const onMessage = (message: unknown) => {
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
        const message: IpcEventMessage = { quire: 'event', name, payload };
        process.send!(message, undefined, {}, (error: Error | null) => {
          if (error) log.warn({ err: error, event: name }, 'event not relayed');
        });
      },
      { localOnly: true },
    ),
  );

  return {
    close() {
      if (closed) return;
      closed = true;
      process.off('message', onMessage);
      for (const unsubscribe of unsubscribers) unsubscribe();
    },
  };
}
