/**
 * Scale-out for page documents (REDIS_URL set): Hocuspocus's own Redis extension relays Yjs and
 * awareness updates between the processes that have a document loaded, and takes a Redis lock
 * around each store so two processes never write the same draft at once.
 */
import { Redis as RedisExtension } from '@hocuspocus/extension-redis';
import IORedis from 'ioredis';
import type { Logger } from '../../models/platform';

const PREFIX = 'quire:collab';

export interface CollabRedis {
  extension: RedisExtension;
}

export function createCollabRedis(url: string, logger: Logger): CollabRedis {
  const log = logger.child({ service: 'collab-redis' });
  const createClient = () => {
    const client = new IORedis(url, { lazyConnect: false });
    // Without a listener ioredis prints every reconnect failure; the log says it once per error.
    client.on('error', (error: Error) =>
      log.warn({ err: error.message }, 'redis connection error'),
    );
    return client;
  };
  const extension = new RedisExtension({
    createClient,
    prefix: PREFIX,
    // A store writes one draft document; give it room beyond the extension's 1 s default.
    lockTimeout: 5000,
    // Lets last-moment updates from other processes arrive before a document unloads.
    disconnectDelay: 1000,
  });
  return { extension };
}
