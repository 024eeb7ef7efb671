/**
 * One Quire process: HTTP server (API + web app), realtime on the same port, the database
 * (embedded engine or MongoDB), and the first-start admin. Used by `npm start` (server/start.mjs)
 * and by the test helpers, so tests run exactly what production runs.
 *
 * Roles (ROLE): `all` runs everything; `api` serves the API and web app without sockets;
 * `realtime` serves Socket.IO and Hocuspocus (plus /healthz) without the API. Model-level
 * listeners (notifications, attachments) run in every role, since any role can write — the
 * collaborative editor saves pages from a realtime process. With REDIS_URL the domain-event bus
 * is relayed through Redis (models/platform/eventBusRedis.ts), which is what lets the roles run apart.
 *
 * As a worker (WORKERS > 1, server/cluster/worker.ts) it does not listen: the primary hands it
 * connections (`server.emit('connection')`), its database is the engine the lead worker (slot 0)
 * runs — the lead opens it as a single process does, the others reach it over its unix socket —,
 * the event bus is relayed through the primary unless Redis does it, and
 * the jobs that must run once per deployment run in the lead worker (slot 0) only: the first
 * admin, the hourly recycle-bin purge and the username-clash report. Event listeners that write
 * (reminders, comment clean-up) run in every worker, each for its own requests' events.
 *
 * Start order: Redis (when set) → listen (health answers 503 while starting) → open the database
 * → migrations (a backup first when a step is pending; the lead only) → indexes → first admin →
 * ready. Stop order (SIGTERM, a rolling restart): not ready (health
 * 503) → stop accepting, keep-alive answers `Connection: close` → sockets get `server_shutdown`
 * and their transports close (they reconnect elsewhere), collab editors get close 1012 and every
 * live document is stored → in-flight requests finish (all bounded by SHUTDOWN_GRACE_MS) → event
 * listeners and the webhook queue stop → close the event relay → close the database (the engine
 * flushes its journal).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createApiServer } from '../api/app';
import type { AnswerCache } from '../api/answerCache';
import type { ControllerRegistry } from '../api/registry';
import { createAppState, type AppState } from '../api/state';
import { ensureFirstAdmin, usernameClashes } from '../models/accounts';
import {
  type Config,
  ensureIndexes,
  openDatabase,
  type Database,
  type EngineHandle,
  startRedisEventRelay,
  startIpcEventRelay,
  contextForNewInstance,
  emitInContext,
  releaseContext,
  runInContext,
  type QuireContext,
  createLogger,
  type Logger,
  setTimeZone,
  configureAddressPolicy,
  configureUpdateFeed,
  checkSchemaVersion,
  migrateAtStart,
  localStorageFor,
} from '../models/platform';
import { attachRealtime, type RealtimeService } from '../realtime';
import { startRecyclePurge } from '../models/pages';
import { startComments } from '../models/comments';
import { startAttachments } from '../models/files';
import { startNotifications } from '../models/notices';
import { startKanbanRelay } from '../models/kanban';
import { startParamLearning } from '../models/workbench';
import { startWebhooks } from '../models/webhooks';
import { startContractScheduler } from '../models/contracts';
import type { EmbeddedMongoOptions } from '../models/embedded';
import { MIGRATIONS, quireVersion } from './migrations';
import { WEB_DIST } from './paths';
import { createRealtimeOnlyApp } from './realtimeApp';

export interface StartOptions {
  logger?: Logger;
  /** Console messages for the operator (the URL, a generated admin password). Default: stdout. */
  print?: (text: string) => void;
  registry?: ControllerRegistry;
  webDistDir?: string;
  /** The instance's name in its context (default: its data directory). */
  name?: string;
  /** Run as one worker of several (server/cluster/): no listening; the lead runs the engine. */
  worker?: WorkerOptions;
}

export interface WorkerOptions {
  /** 0 … WORKERS-1; slot 0 is the lead (once-per-deployment jobs, the `/collab` documents). */
  slot: number;
  /** The port the primary listens on (for the URL and the log). */
  port: number;
  /** The lead worker's engine, for the others (empty for the lead and with MONGODB_URI). */
  engineUri?: string;
  /** How the lead starts its engine (server/cluster/engineThread.ts: in a thread of its own). */
  startEngine?: (options: EmbeddedMongoOptions) => Promise<EngineHandle>;
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
  /** The API's reused answers (api/answerCache.ts); absent in the realtime role. */
  answers?: AnswerCache;
  stop(options?: StopOptions): Promise<void>;
}

export interface StopOptions {
  /** Awaited after the drain, before the database closes (a lead worker waits for the others). */
  beforeDatabaseClose?: Promise<void>;
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

/**
 * Every connection the server took, whether it accepted it or a primary handed it over (the
 * server's own count only knows the former, so `close()` alone would not wait for a worker's).
 */
function trackConnections(server: http.Server): Set<Socket> {
  const open = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  return open;
}

/**
 * Responses still to be sent: once the server stops, each says `Connection: close`, so a client's
 * keep-alive connection ends with the answer it was waiting for instead of carrying the next
 * request to a process about to go.
 */
function trackResponses(server: http.Server): { closeKeepAlive(): void } {
  const pending = new Set<http.ServerResponse>();
  let stopping = false;
  server.on('request', (_request: http.IncomingMessage, response: http.ServerResponse) => {
    // The app's listener runs first and may have answered already (/healthz, a 503 of the
    // admission): such an answer cannot be marked any more.
    if (stopping) {
      if (!response.headersSent) response.setHeader('Connection', 'close');
    } else {
      pending.add(response);
      response.once('close', () => pending.delete(response));
    }
  });
  return {
    closeKeepAlive() {
      stopping = true;
      for (const response of pending)
        if (!response.headersSent) response.setHeader('Connection', 'close');
      pending.clear();
    },
  };
}

/**
 * Stops accepting, lets the requests in flight finish (their keep-alive connections close as they
 * do) and cuts whatever is left after `graceMs` (SHUTDOWN_GRACE_MS).
 */
function closeServer(server: http.Server, open: Set<Socket>, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    const cutOff = setTimeout(() => {
      server.closeAllConnections();
      for (const socket of open) socket.destroy();
    }, graceMs);
    // Keep-alive sockets go idle as their last response ends; close them as they do.
    const sweep = setInterval(() => {
      server.closeIdleConnections();
      if (closed && open.size === 0) done();
    }, 100);
    let closed = false;
    const done = () => {
      clearTimeout(cutOff);
      clearInterval(sweep);
      resolve();
    };
    server.close(() => {
      closed = true;
      if (open.size === 0) done();
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
  const baseLogger = options.logger ?? createLogger({ level: config.logLevel });
  // A worker's every line says which worker wrote it.
  const logger = options.worker ? baseLogger.child({ worker: options.worker.slot }) : baseLogger;
  const print = options.print ?? ((text: string) => process.stdout.write(`${text}\n`));
  context.reportEventError = (error, name) =>
    logger.error({ err: error, event: name }, 'event listener failed');

  const state = createAppState();
  setTimeZone(config.appTimezone);
  configureUpdateFeed(config.updateFeedUrl);
  configureAddressPolicy(config.allowPrivateHosts);
  const servesApi = config.role !== 'realtime';
  const servesRealtime = config.role !== 'api';
  const api = servesApi
    ? createApiServer({
        config,
        logger,
        state,
        webDistDir: options.webDistDir ?? WEB_DIST,
        registry: options.registry,
      })
    : null;
  const server = http.createServer(api ? api.listener : createRealtimeOnlyApp(logger, state));
  // WebSocket upgrades and socket data arrive outside the instance's async context.
  emitInContext(server, context);
  server.on('connection', (socket) => emitInContext(socket, context));
  const open = trackConnections(server);
  const responses = trackResponses(server);
  const worker = options.worker;
  const lead = !worker || worker.slot === 0;

  // Redis comes first: a process that cannot reach it must not serve (its events would be lost).
  let relay: { close(): unknown } | undefined;
  let realtime: Pick<RealtimeService, 'close'> = { close: async () => {} };
  try {
    if (config.redisUrl)
      relay = await startRedisEventRelay({ bus: events, redisUrl: config.redisUrl, logger });
    else if (worker) relay = startIpcEventRelay({ bus: events, logger });
    if (servesRealtime) {
      const service = attachRealtime(server, {
        config,
        logger,
        events,
        ...(worker ? { worker: { slot: worker.slot } } : {}),
      });
      realtime = service;
      await service.ready;
    }
    if (!worker) await listen(server, config.port, config.host);
    // A worker's server never listens (the primary does), but its connection bookkeeping —
    // header and request timeouts, closing idle keep-alive connections on stop — starts on
    // 'listening'.
    else server.emit('listening');
  } catch (error) {
    await realtime.close();
    await relay?.close();
    server.close();
    throw error;
  }
  const port = worker ? worker.port : (server.address() as AddressInfo).port;

  let database: Database;
  try {
    database = await openDatabase({
      mongodbUri: config.mongodbUri,
      dataDir: config.dataDir,
      logger,
      role: 'serve',
      engineUri: worker?.engineUri,
      startEngine: worker?.startEngine,
    });
  } catch (error) {
    await realtime.close();
    await closeServer(server, open, config.shutdownGraceMs);
    await relay?.close();
    throw error;
  }

  let stopAttachments: () => void;
  try {
    // Before the indexes: a step may reshape what a new index needs. The lead worker starts
    // before the others, so they find the database migrated; they only refuse a newer one.
    const db = database.connection.db!;
    if (lead) {
      const migrated = await migrateAtStart({
        db,
        client: database.connection.getClient(),
        steps: MIGRATIONS,
        dataDir: config.dataDir,
        filesRoot: localStorageFor(config.dataDir).root,
        quireVersion: quireVersion(),
        logger,
      });
      if (migrated.ran.length)
        print(
          `Migrated the database from schema version ${migrated.from} to ${migrated.to} ` +
            `(backup taken first: ${migrated.backup}).`,
        );
    } else await checkSchemaVersion(db, MIGRATIONS, quireVersion());
    await ensureIndexes();
    // Usernames are unique case-insensitively now; older clashes are reported, never merged.
    if (lead)
      for (const names of await usernameClashes())
        logger.warn(
          { usernames: names },
          'accounts whose usernames differ only in letter case: each logs in only with its exact spelling; rename all but one',
        );
    // The lead worker starts before the others (server/cluster/primary.ts), so one admin.
    if (servesApi && lead) await ensureFirstAdmin({ adminPassword: config.adminPassword, print });
    stopAttachments = await startAttachments({ dataDir: config.dataDir });
  } catch (error) {
    await realtime.close();
    await closeServer(server, open, config.shutdownGraceMs);
    await relay?.close();
    await database.close();
    throw error;
  }

  const stopPurge = lead
    ? startRecyclePurge({
        onError: (error) => logger.error({ err: error }, 'recycle purge failed'),
      })
    : () => {};
  const stopNotifications = startNotifications({
    onError: (error, event) => logger.error({ err: error, event }, 'notification failed'),
  });
  const stopParamLearning = startParamLearning({
    onError: (error) => logger.error({ err: error }, 'parameter library learning failed'),
  });
  const stopKanbanRelay = startKanbanRelay({
    onError: (error) => logger.error({ err: error }, 'kanban relay failed'),
  });
  const stopComments = startComments({
    onError: (error) => logger.error({ err: error }, 'comment clean-up failed'),
  });
  const stopWebhooks = startWebhooks({
    retrySchedule: config.webhookRetrySchedule,
    disableAfter: config.webhookDisableAfter,
    timeoutMs: config.webhookTimeoutMs,
    onError: (error) => logger.error({ err: error }, 'webhook delivery failed'),
  });
  // Followed API contracts are fetched once per deployment: by the lead worker.
  const stopContracts = lead
    ? startContractScheduler({
        pollMs: config.contractPollSeconds * 1000,
        onError: (error) => logger.error({ err: error }, 'API contract check failed'),
      })
    : async () => {};
  state.database = database;
  state.phase = 'ready';
  const url = publicUrl(config.host, port);
  logger.info({ port, database: database.mode, role: config.role, worker: worker?.slot }, 'ready');
  // A worker's primary says it once for all of them.
  if (!worker)
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
    answers: api?.answers,
    stop(options = {}) {
      stopping ??= (async () => {
        // Health answers 503 from here: a load balancer stops sending new work.
        state.phase = 'stopping';
        stopPurge();
        // Requests in flight finish (with `Connection: close`) while the sockets are told to
        // reconnect elsewhere and the live documents are stored …
        responses.closeKeepAlive();
        const realtimeClosed = realtime.close();
        const closed = closeServer(server, open, config.shutdownGraceMs);
        await realtimeClosed;
        await closed;
        // … and only then do the listeners and queues stop, so the events of those last
        // requests (a webhook, a notification) are still taken; queued deliveries stay stored.
        stopAttachments();
        stopNotifications();
        stopParamLearning();
        stopComments();
        stopKanbanRelay();
        await stopWebhooks();
        await stopContracts();
        await options.beforeDatabaseClose;
        await relay?.close();
        await database.close();
        logger.info('stopped');
        releaseContext(context);
      })();
      return stopping;
    },
  };
}
