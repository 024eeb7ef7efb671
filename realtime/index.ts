/**
 * The realtime service on the process's HTTP server: Socket.IO at /socket.io (authenticated
 * sockets, user/item/page rooms, presence, domain events pushed to rooms, the lock grace) and
 * Hocuspocus at /collab (realtime/collab/: live page documents).
 *
 * With REDIS_URL, Socket.IO uses the Redis adapter, so room broadcasts (presence) and
 * `fetchSockets()` (presence lists, "does this user still have a socket?") span every process.
 * Domain events reach every process through models/platform/eventBusRedis.ts (started by server/quire.ts,
 * which every role needs), and each process pushes them to its own sockets (realtime/fanout.ts).
 *
 * As one of several worker processes (WORKERS > 1, server/cluster/) without Redis, Socket.IO
 * uses the Node cluster adapter (the primary relays between workers), and every engine.io
 * session id starts with the worker's slot (`w2-…`), which is how the primary sends a session's
 * later HTTP requests back to the worker that holds it (sessionIds.ts).
 *
 * The two share only the HTTP server and these deps: `attachCollab(httpServer, deps)`
 * (realtime/collab/index.ts) takes only `/collab` upgrades, Socket.IO only `/socket.io`. The
 * process entry wires this one service, in every role that serves realtime. Among worker
 * processes only the lead (slot 0) gets `/collab` connections (server/cluster/route.ts), so only
 * it loads Hocuspocus and Yjs; the others learn of documents through relayed events.
 */
import type { Server as HttpServer } from 'node:http';
import { createAdapter as createClusterAdapter } from '@socket.io/cluster-adapter';
import type { Redis } from 'ioredis';
import { Server as SocketServer } from 'socket.io';
import { type Config, connectRedis, type EventBus, type Logger } from '../models/platform';
import type { CollabService } from './collab';
import { startFanout } from './fanout';
import { createLockExpiry } from './lockExpiry';
import { createLockGrace } from './lockGrace';
import { createPresence } from './presence';
import { sessionIdFor } from './sessionIds';
import { setupSockets } from './sockets';
import type { QuireServer } from './types';

export interface RealtimeDeps {
  config: Config;
  logger: Logger;
  events: EventBus;
  /** Set in a worker process: its slot (see server/cluster/). */
  worker?: { slot: number };
}

export interface RealtimeService {
  io: QuireServer;
  /**
   * Resolves once the service can serve (with REDIS_URL: the adapter's Redis connections are up);
   * rejects when they cannot be made. The process awaits it before listening.
   */
  ready: Promise<void>;
  /**
   * Tells every socket to reconnect elsewhere and closes it (synchronously: call it before
   * closing the HTTP server), then stores the live documents and stops timers and Redis. Does
   * not close the HTTP server.
   */
  close(): Promise<void>;
}

/** How long a cross-process `fetchSockets()` waits for the other processes' answers. */
const ADAPTER_REQUEST_TIMEOUT_MS = 3000;

export function attachRealtime(httpServer: HttpServer, deps: RealtimeDeps): RealtimeService {
  const log = deps.logger.child({ service: 'realtime' });
  const io: QuireServer = new SocketServer(httpServer, { path: '/socket.io', serveClient: false });

  const presence = createPresence(io, log);
  const lockGrace = createLockGrace(io, deps.config.lockGraceSeconds * 1000, log);
  const lockExpiry = createLockExpiry(io, log);
  setupSockets(io, { logger: log, presence, lockGrace, lockExpiry });
  const stopFanout = startFanout({ io, events: deps.events, presence, lockExpiry, logger: log });
  const stopAgents = deps.events.subscribe('page.saved', async (event) => {
    if (event.agent && !event.created)
      presence.agentWrote(event.pageId, { ...event.agent, uid: event.byUid });
  });
  // Loaded before the process listens (it awaits `ready`), where documents can open at all.
  const ownsDocuments = !deps.worker || deps.worker.slot === 0;
  const collab: Promise<CollabService | undefined> = ownsDocuments
    ? import('./collab').then(({ attachCollab }) => attachCollab(httpServer, deps))
    : Promise.resolve(undefined);

  const worker = deps.worker;
  if (worker) {
    io.engine.generateId = () => sessionIdFor(worker.slot);
    if (!deps.config.redisUrl) io.adapter(createClusterAdapter());
  }

  const redisClients: Redis[] = [];
  const ready = (async () => {
    await collab;
    if (!deps.config.redisUrl) return;
    const pub = await connectRedis(deps.config.redisUrl, 'quire-socketio-pub', log);
    redisClients.push(pub);
    const sub = await connectRedis(deps.config.redisUrl, 'quire-socketio-sub', log);
    redisClients.push(sub);
    const { createAdapter } = await import('@socket.io/redis-adapter');
    io.adapter(createAdapter(pub, sub, { requestsTimeout: ADAPTER_REQUEST_TIMEOUT_MS }));
  })();
  // The owner awaits `ready`; this only keeps an unobserved failure from crashing the process.
  ready.catch(() => {});

  let closing: Promise<void> | undefined;
  return {
    io,
    ready,
    close() {
      closing ??= (async () => {
        // Synchronously, before the caller closes the HTTP server (whose 'close' makes engine.io
        // drop every socket without a word — at once in a worker, whose server never listened).
        // The lock grace and presence stop first: these sockets leaving is no one going away.
        lockGrace.close();
        lockExpiry.close();
        presence.close();
        // A rolling restart: this process's sockets are told so, then their transports are
        // closed rather than disconnected — a client sees "transport close" and reconnects by
        // itself (through the load balancer, to a process that is still up), where a
        // `disconnect()` would tell it to stay away. `local`: other processes' sockets stay.
        log.info({ sockets: io.of('/').sockets.size }, 'stopping: sockets told to reconnect');
        io.local.emit('server_shutdown', { reconnect: true });
        // Not io.close(): that would close the HTTP server, which belongs to the process entry.
        io.engine.close();
        // Then the documents: their drafts are written while the database is still there.
        await (await collab.catch(() => undefined))?.close();
        stopFanout();
        stopAgents();
        await ready.catch(() => {});
        await io.of('/').adapter.close();
        await Promise.allSettled(redisClients.map((client) => client.quit()));
      })();
      return closing;
    },
  };
}
