/**
 * One Quire process: HTTP server (API + web app), realtime on the same port, the database
 * (embedded engine or MongoDB), and the first-start admin. Used by `npm start` (scripts/start.ts)
 * and by the test helpers, so tests run exactly what production runs.
 *
 * Roles (ROLE): `all` runs everything; `api` serves the API and web app without sockets;
 * `realtime` serves Socket.IO and Hocuspocus (plus /healthz) without the API. Model-level
 * listeners (notifications, attachments) run in every role, since any role can write — the
 * collaborative editor saves pages from a realtime process. With REDIS_URL the domain-event bus
 * is relayed through Redis (models/platform/eventBusRedis.ts), which is what lets the roles run apart.
 *
 * Start order: Redis (when set) → listen (health answers 503 while starting) → open the database
 * → indexes → first admin → ready. Stop order: not ready → stop accepting → drop sockets → let
 * in-flight requests finish (bounded) → close the event relay → close the database (the engine
 * flushes its journal).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app';
import type { ControllerRegistry } from '../api/registry';
import { createAppState, type AppState } from '../api/state';
import { ensureFirstAdmin, usernameClashes } from '../models/accounts';
import {
  type Config,
  ensureIndexes,
  openDatabase,
  type Database,
  startRedisEventRelay,
  type RedisEventRelay,
  contextForNewInstance,
  emitInContext,
  releaseContext,
  runInContext,
  type QuireContext,
  createLogger,
  type Logger,
  setTimeZone,
  configureUpdateFeed,
} from '../models/platform';
import { attachRealtime, type RealtimeService } from '../realtime';
import { startRecyclePurge } from '../models/pages';
import { startComments } from '../models/comments';
import { startAttachments } from '../models/files';
import { startNotifications } from '../models/notices';
import { WEB_DIST } from './paths';
import { createRealtimeOnlyApp } from './realtimeApp';

/** In-flight requests get this long to finish on shutdown before their connections are cut. */
const DRAIN_TIMEOUT_MS = 10_000;

export interface StartOptions {
  logger?: Logger;
  /** Console messages for the operator (the URL, a generated admin password). Default: stdout. */
  print?: (text: string) => void;
  registry?: ControllerRegistry;
  webDistDir?: string;
  /** The instance's name in its context (default: its data directory). */
  name?: string;
}

export interface RunningQuire {
  /** The instance's context: run code that must see this Quire's data inside `run`. */
  context: QuireContext;
  run<T>(work: () => T): T;
  url: string;
  port: number;
  server: http.Server;
  state: AppState;
  database: Database;
  logger: Logger;
  stop(): Promise<void>;
}

function publicUrl(host: string, port: number): string {
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

function listen(server: http.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function closeServer(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    const cutOff = setTimeout(() => server.closeAllConnections(), DRAIN_TIMEOUT_MS);
    // Keep-alive sockets go idle as their last response ends; close them as they do.
    const sweep = setInterval(() => server.closeIdleConnections(), 100);
    server.close(() => {
      clearTimeout(cutOff);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/**
 * Starts one Quire in a context of its own (the process default for the first instance): its
 * servers, timers and listeners are created inside it, so everything they run later sees it.
 */
export async function startQuire(
  config: Config,
  options: StartOptions = {},
): Promise<RunningQuire> {
  const context = contextForNewInstance(options.name ?? config.dataDir);
  try {
    return await runInContext(context, () => startInContext(context, config, options));
  } catch (error) {
    releaseContext(context);
    throw error;
  }
}

async function startInContext(
  context: QuireContext,
  config: Config,
  options: StartOptions,
): Promise<RunningQuire> {
  const events = context.bus;
  const logger = options.logger ?? createLogger({ level: config.logLevel });
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  context.reportEventError = (error, name) =>
    logger.error({ err: error, event: name }, 'event listener failed');

  const state = createAppState();
  setTimeZone(config.appTimezone);
  configureUpdateFeed(config.updateFeedUrl);
  const servesApi = config.role !== 'realtime';
  const servesRealtime = config.role !== 'api';
  const app = servesApi
    ? createApp({
        config,
        logger,
        state,
        webDistDir: options.webDistDir ?? WEB_DIST,
        registry: options.registry,
      })
    : createRealtimeOnlyApp(logger, state);
  const server = http.createServer(app);
  // WebSocket upgrades and socket data arrive outside the instance's async context.
  emitInContext(server, context);
  server.on('connection', (socket) => emitInContext(socket, context));

  // Redis comes first: a process that cannot reach it must not serve (its events would be lost).
  let relay: RedisEventRelay | undefined;
  let realtime: Pick<RealtimeService, 'close'> = { close: async () => {} };
  try {
    if (config.redisUrl)
      relay = await startRedisEventRelay({ bus: events, redisUrl: config.redisUrl, logger });
    if (servesRealtime) {
      const service = attachRealtime(server, { config, logger, events });
      realtime = service;
      await service.ready;
    }
    await listen(server, config.port, config.host);
  } catch (error) {
    await realtime.close();
    await relay?.close();
    server.close();
    throw error;
  }
  const port = (server.address() as AddressInfo).port;

  let database: Database;
  try {
    database = await openDatabase({
      mongodbUri: config.mongodbUri,
      dataDir: config.dataDir,
      logger,
      role: 'serve',
    });
  } catch (error) {
    await realtime.close();
    await closeServer(server);
    await relay?.close();
    throw error;
  }

  let stopAttachments: () => void;
  try {
    await ensureIndexes();
    // Usernames are unique case-insensitively now; older clashes are reported, never merged.
    for (const names of await usernameClashes())
      logger.warn(
        { usernames: names },
        'accounts whose usernames differ only in letter case: each logs in only with its exact spelling; rename all but one',
      );
    if (servesApi) await ensureFirstAdmin({ adminPassword: config.adminPassword, print });
    stopAttachments = await startAttachments({ dataDir: config.dataDir });
  } catch (error) {
    await realtime.close();
    await closeServer(server);
    await relay?.close();
    await database.close();
    throw error;
  }

  const stopPurge = startRecyclePurge({
    onError: (error) => logger.error({ err: error }, 'recycle purge failed'),
  });
  const stopNotifications = startNotifications({
    onError: (error, event) => logger.error({ err: error, event }, 'notification failed'),
  });
  const stopComments = startComments({
    onError: (error) => logger.error({ err: error }, 'comment clean-up failed'),
  });
  state.database = database;
  state.phase = 'ready';
  const url = publicUrl(config.host, port);
  logger.info({ port, database: database.mode, role: config.role }, 'ready');
  print(`Quire is ready at ${url}${config.role === 'all' ? '' : ` (role: ${config.role})`}`);

  let stopping: Promise<void> | undefined;
  return {
    context,
    run: (work) => runInContext(context, work),
    url,
    port,
    server,
    state,
    database,
    logger,
    stop() {
      stopping ??= (async () => {
        state.phase = 'stopping';
        stopPurge();
        stopAttachments();
        stopNotifications();
        stopComments();
        const closed = closeServer(server);
        await realtime.close();
        await closed;
        await relay?.close();
        await database.close();
        logger.info('stopped');
        releaseContext(context);
      })();
      return stopping;
    },
  };
}
