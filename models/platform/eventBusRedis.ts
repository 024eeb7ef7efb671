/**
 * Relays the domain-event bus (models/events.ts) between Quire processes through Redis pub/sub,
 * so that an event published in an API process reaches the realtime listeners of every process.
 *
 * - Local bus: models keep publishing on the in-process bus; its listeners run as before.
 * - Out: the relay listens to every event on the local bus and publishes it once to the channel,
 *   tagged with this process's random id — first, inside `publish` (a synchronous listener), so
 *   other processes push to their sockets while this one pushes to its own.
 * - In: a message from another process is published on the local bus only, marked `remote` (so
 *   `localOnly` listeners — those that write, like reminders — skip it, and the relay's own
 *   outgoing listener, which is `localOnly`, never sends it back out). Messages tagged with this
 *   process's own id (Redis delivers a publisher's messages to its own subscription too) are
 *   dropped. So every process sees each event exactly once and nothing echoes.
 *
 * Delivery is Redis pub/sub's: at most once, to processes connected at that moment. Listeners
 * treat events as hints to re-read state (nothing is lost for good: clients resynchronise on
 * reconnect), so that is enough.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { DomainEvents, EventBus, EventName } from './events';
import type { Logger } from './log';

/** The channel every Quire process of one deployment shares. */
export const EVENT_CHANNEL = 'quire:events';

/**
 * Every domain event name. A `Record` over the catalogue, so adding an event to models/events.ts
 * without listing it here fails the type-check instead of silently not being relayed.
 */
export const RELAYED: Record<EventName, true> = {
  'user.created': true,
  'user.changed': true,
  'item.changed': true,
  'membership.changed': true,
  'page.saved': true,
  'sheet.changed': true,
  'kanban.changed': true,
  'page.deleted': true,
  'page.restored': true,
  'page.purged': true,
  'subscriptions.changed': true,
  'attachment.changed': true,
  'share.changed': true,
  'menu.changed': true,
  'reads.changed': true,
  'lock.changed': true,
  'comment.changed': true,
  'suggestion.changed': true,
  'notice.created': true,
  'unread.changed': true,
  'import.progress': true,
  'flow.progress': true,
  'session.revoked': true,
  'settings.changed': true,
  'data.replaced': true,
  'contract.changed': true,
};

interface Envelope {
  /** The publishing process. */
  from: string;
  name: EventName;
  payload: unknown;
}

export interface RedisEventRelay {
  /** This process's id in the envelopes (for logs and tests). */
  readonly processId: string;
  /** Stops relaying and closes both Redis connections. */
  close(): Promise<void>;
}

export interface RedisRelayOptions {
  bus: EventBus;
  redisUrl: string;
  logger: Logger;
  /** How long start-up waits for Redis before failing. */
  connectTimeoutMs?: number;
}

/** Opens a Redis connection and waits until it is ready (or fails within the timeout). */
export async function connectRedis(
  url: string,
  name: string,
  logger: Logger,
  timeoutMs = 10_000,
): Promise<Redis> {
  // ioredis loads where REDIS_URL is set, not in every process.
  const { Redis: RedisClient } = await import('ioredis');
  const client = new RedisClient(url, {
    lazyConnect: true,
    connectionName: name,
    maxRetriesPerRequest: null,
  });
  // ioredis reconnects on its own; errors between reconnects are logged, never thrown.
  client.on('error', (error: Error) =>
    logger.warn({ err: error, redis: name }, 'redis connection error'),
  );
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`Redis did not answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]);
  } catch (error) {
    client.disconnect();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return client;
}

export async function startRedisEventRelay(options: RedisRelayOptions): Promise<RedisEventRelay> {
  const { bus, redisUrl, logger } = options;
  const processId = randomUUID();
  const log = logger.child({ component: 'event-relay' });
  const publisher = await connectRedis(redisUrl, 'quire-events-pub', log, options.connectTimeoutMs);
  let subscriber: Redis;
  try {
    subscriber = await connectRedis(redisUrl, 'quire-events-sub', log, options.connectTimeoutMs);
    await subscriber.subscribe(EVENT_CHANNEL);
  } catch (error) {
    publisher.disconnect();
    throw error;
  }

  let closed = false;

  subscriber.on('message', (channel: string, text: string) => {
    if (channel !== EVENT_CHANNEL || closed) return;
    let envelope: Envelope;
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      log.warn('unreadable event on the relay channel');
      return;
    }
    if (envelope.from === processId || !(envelope.name in RELAYED)) return;
    const payload = envelope.payload;
    if (typeof payload !== 'object' || payload === null) return;
    bus.publish(envelope.name, payload as DomainEvents[typeof envelope.name], { remote: true });
  });

  const unsubscribers = (Object.keys(RELAYED) as EventName[]).map((name) =>
    bus.subscribe(
      name,
      (payload) => {
        if (closed) return;
        const envelope: Envelope = { from: processId, name, payload };
        // Redis answers a PUBLISH once the message is in every subscriber's connection: the
        // API waits for that (bus.delivered) before answering the write.
        bus.track(
          Promise.resolve()
            .then(() => publisher.publish(EVENT_CHANNEL, JSON.stringify(envelope)))
            .catch((error: unknown) => log.warn({ err: error, event: name }, 'event not relayed')),
        );
      },
      // Queued inside `publish`, ahead of this process's own listeners and their pushes.
      { localOnly: true, synchronous: true },
    ),
  );

  return {
    processId,
    async close() {
      if (closed) return;
      closed = true;
      for (const unsubscribe of unsubscribers) unsubscribe();
      await Promise.allSettled([subscriber.quit(), publisher.quit()]);
    },
  };
}
