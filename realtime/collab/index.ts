/**
 * Live page documents: Hocuspocus (Yjs) at /collab on the main HTTP server, next to Socket.IO.
 *
 * Only upgrade requests for COLLAB_PATH are taken (a `ws` server in noServer mode); every other
 * upgrade, `/socket.io` included, is left to its own listener. Each concern is one small
 * extension: authentication (who may open a page, read-write or read-only), persistence (the
 * page's live shared draft), awareness (nobody speaks for someone else), the lock bridge (who may
 * write while a lock is held), the editor's save command (saveCommand.ts) and the live bridge
 * (server-side saves into open documents, AI agents' among them, shown in presence while they
 * write: agentPresence.ts). With
 * REDIS_URL, Hocuspocus's Redis extension joins the processes.
 */
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { Hocuspocus } from '@hocuspocus/server';
import { WebSocketServer } from 'ws';
import type { Config, EventBus, Logger } from '../../models/platform';
import { deleteDrafts, registerLiveDocs } from '../../models/pages';
import { COLLAB_PATH } from '../collabProtocol';
import { agentPresence } from './agentPresence';
import { authentication, watchAccess } from './authentication';
import { awarenessGuard } from './awareness';
import { liveBridge } from './liveBridge';
import { lockBridge } from './lockBridge';
import { DEBOUNCE_MS, MAX_DEBOUNCE_MS, persistence } from './persistence';
import { createCollabRedis } from './redis';
import { createRuntime } from './runtime';
import { keepCommand } from './keepCommand';
import { saveCommand } from './saveCommand';

export interface CollabDeps {
  config: Pick<Config, 'redisUrl'> & Partial<Pick<Config, 'shutdownGraceMs'>>;
  logger: Logger;
  events: EventBus;
  /** Set in a worker process (several processes, even without Redis). */
  worker?: { slot: number };
}

export interface CollabService {
  hocuspocus: Hocuspocus;
  /**
   * Stops taking connections, closes the open ones, writes every pending draft and lets go of
   * Redis. Call before the database closes.
   */
  close(): Promise<void>;
}

/** Largest WebSocket message accepted (a first sync of a large page is one message). */
const MAX_MESSAGE_BYTES = 32 * 1024 * 1024;
/** How long close() waits for drafts to be written before giving up on them (SHUTDOWN_GRACE_MS). */
const CLOSE_TIMEOUT_MS = 10_000;
/** WebSocket close code 1012, "service restart": come back, a moment later. */
const SERVICE_RESTART = 1012;
/** How long the editors get to answer the close frame before their sockets are cut. */
const CLOSE_HANDSHAKE_MS = 1000;

function isCollabRequest(request: IncomingMessage): boolean {
  const url = request.url ?? '';
  const path = url.split('?')[0];
  return path === COLLAB_PATH || path === `${COLLAB_PATH}/`;
}

export function attachCollab(httpServer: HttpServer, deps: CollabDeps): CollabService {
  const logger = deps.logger.child({ service: 'collab' });
  const redis = deps.config.redisUrl ? createCollabRedis(deps.config.redisUrl, logger) : null;
  const runtime = createRuntime({
    events: deps.events,
    logger,
    redis,
    multiProcess: Boolean(redis || deps.worker),
  });
  const locks = lockBridge(runtime);
  const live = liveBridge(runtime);
  const agents = agentPresence(runtime);

  const hocuspocus = new Hocuspocus({
    name: 'quire-collab',
    quiet: true,
    debounce: DEBOUNCE_MS,
    maxDebounce: MAX_DEBOUNCE_MS,
    // Keep-alive ping; a client that misses one is dropped.
    timeout: 30_000,
    extensions: [
      ...(redis ? [redis.extension] : []),
      authentication(),
      awarenessGuard(),
      persistence(runtime),
      locks.extension,
      saveCommand(runtime),
      keepCommand(runtime),
    ],
  });
  runtime.hocuspocus = hocuspocus;

  const stopAccess = watchAccess(runtime);
  const stopPurge = deps.events.subscribe('page.purged', async (event) => {
    try {
      await deleteDrafts(event.pageIds);
    } catch (error) {
      logger.error({ err: error }, 'deleting the drafts of purged pages failed');
    }
  });
  registerLiveDocs(live.port);

  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_MESSAGE_BYTES });
  let closing = false;
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (!isCollabRequest(request)) return;
    if (closing) {
      socket.destroy();
      return;
    }
    wss.handleUpgrade(request, socket, head, (ws) => {
      ws.on('error', (error) => logger.debug({ err: error.message }, 'collab socket error'));
      hocuspocus.handleConnection(ws, request);
    });
  };
  httpServer.on('upgrade', onUpgrade);

  let closed: Promise<void> | undefined;
  return {
    hocuspocus,
    close() {
      closed ??= (async () => {
        closing = true;
        httpServer.off('upgrade', onUpgrade);
        registerLiveDocs(null);
        stopAccess();
        stopPurge();
        locks.stop();
        live.stop();
        agents.stop();
        // Closing the sockets makes Hocuspocus store each document whose last editor left.
        // 1012 (service restart) tells the editors to reconnect, which reaches a process that
        // is still up; one that does not answer the close in time is cut.
        for (const ws of wss.clients) ws.close(SERVICE_RESTART, 'server-shutdown');
        const closeBy = Date.now() + CLOSE_HANDSHAKE_MS;
        while (wss.clients.size > 0 && Date.now() < closeBy)
          await new Promise((resolve) => setTimeout(resolve, 25));
        for (const ws of wss.clients) ws.terminate();
        const deadline = Date.now() + (deps.config.shutdownGraceMs ?? CLOSE_TIMEOUT_MS);
        while (hocuspocus.getDocumentsCount() > 0 && Date.now() < deadline) {
          for (const document of hocuspocus.documents.values())
            hocuspocus.debouncer.executeNow(`onStoreDocument-${document.name}`);
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
        if (hocuspocus.getDocumentsCount() > 0)
          logger.warn(
            { documents: hocuspocus.getDocumentsCount() },
            'closing with drafts not written',
          );
        runtime.pages.clear();
        await new Promise<void>((resolve) => wss.close(() => resolve()));
        await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
      })();
      return closed;
    },
  };
}
