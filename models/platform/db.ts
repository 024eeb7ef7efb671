/**
 * The database connection of an instance, pointed at MONGODB_URI or at the embedded engine in
 * DATA_DIR: mongoose's default connection for the process's default context, a connection of its
 * own for any other Quire in the process (see model.ts: collections follow the caller's context).
 *
 * In embedded mode the engine also listens on a unix socket inside DATA_DIR, so the admin CLI can
 * reach a running server's engine (the engine holds an exclusive lock on its directory).
 */
import fs from 'node:fs';
import net from 'node:net';
import mongoose from 'mongoose';
import {
  type EmbeddedMongo,
  type EmbeddedMongoOptions,
  engineSocketPath,
  socketUriFor,
  startEmbeddedMongo,
} from '../embedded';
import { currentContext, isDefaultContext } from './context';
import type { Logger } from './log';
import { contextModels, useConnection } from './model';
import { noteUntracedRead } from './requestClient';

export const DB_NAME = 'quire';

/** Unix socket paths are limited to ~107 bytes; past that we skip the socket and say so. */
const MAX_SOCKET_PATH = 100;

/** Whether the engine's unix socket path for `dataDir` is short enough to listen on. */
export function engineSocketFits(dataDir: string): boolean {
  return engineSocketPath(dataDir).length <= MAX_SOCKET_PATH;
}

export interface Database {
  mode: 'embedded' | 'mongodb';
  /** How this process reached the data: its own engine, a running server's engine, or MongoDB. */
  via: 'own-engine' | 'engine-socket' | 'mongodb';
  connection: mongoose.Connection;
  /** Answers a ping within the timeout. */
  ping(timeoutMs?: number): Promise<boolean>;
  /**
   * False while the driver knows there is no server to write to (the database host gone, a
   * replica set without a primary): requests are then refused at once with a 503 instead of
   * waiting out mongoose's buffering. Failures the driver meets first show as errors instead
   * (`isDatabaseUnreachable`, also a 503).
   */
  reachable(): boolean;
  /** Closes the connection and, if this process runs the engine, flushes and stops it. */
  close(): Promise<void>;
}

export { engineSocketPath };

/** The database named in a MongoDB URI's path, if any. */
function databaseInUri(uri: string): string {
  const match = /^mongodb(?:\+srv)?:\/\/[^/?]+\/([^?]*)/.exec(uri);
  return match ? decodeURIComponent(match[1]) : '';
}

/** True when something accepts connections on the socket (a running server's engine). */
export function socketAnswers(socketPath: string, timeoutMs = 1000): Promise<boolean> {
  if (!fs.existsSync(socketPath)) return Promise.resolve(false);
  return new Promise((resolve) => {
    const socket = net.createConnection(socketPath);
    const done = (answer: boolean) => {
      socket.destroy();
      resolve(answer);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/*
 * Inside `connection.transaction(fn)` every operation joins the transaction without being handed
 * the session: an all-or-nothing import can call the ordinary use-case functions (savePage,
 * saveCatalog, insertItem). Outside a transaction nothing changes. Code that must stay outside
 * one (id counters) passes `session: null`.
 */
mongoose.set('transactionAsyncLocalStorage', true);

/** Driver errors that mean "the database could not be reached", not "the request was wrong". */
const UNREACHABLE = new Set([
  'MongoNetworkError',
  'MongoNetworkTimeoutError',
  'MongoServerSelectionError',
  'MongooseServerSelectionError',
  'MongoNotConnectedError',
  'MongoTopologyClosedError',
  'MongoPoolClearedError',
  'MongoServerClosedError',
]);

/** Socket errors of a connection its peer ended or reset. */
const SOCKET_GONE = new Set(['EPIPE', 'ECONNRESET']);
/** A stack frame in the MongoDB driver's connection layer. */
const DRIVER_FRAME = /[\\/]mongodb[\\/]lib[\\/]cmap[\\/]/;

/**
 * Whether a failure is the database being out of reach (its host restarting, the network cut):
 * the API answers those with 503 + Retry-After (10505), a client's cue to try again, rather than
 * an internal error.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  for (let e = error, depth = 0; e instanceof Error && depth < 4; depth++) {
    if (UNREACHABLE.has(e.name)) return true;
    // Node's own socket error, let through by the driver's connection unwrapped, when the host
    // ended the connection just as a command was written (a database host killed mid-request).
    if (SOCKET_GONE.has(String((e as { code?: unknown }).code)) && DRIVER_FRAME.test(e.stack ?? ''))
      return true;
    // Mongoose's own wording when a command waited for a connection that never came back.
    if (e.name === 'MongooseError' && /buffering timed out/.test(e.message)) return true;
    // The driver's bulk writes (insertMany) wrap the error that stopped them as `errorResponse`.
    const { cause, errorResponse } = e as { cause?: unknown; errorResponse?: unknown };
    e = cause ?? (errorResponse instanceof Error ? errorResponse : undefined);
  }
  return false;
}

async function connect(uri: string, dbName: string, remote = false): Promise<mongoose.Connection> {
  // A database on another host (MONGODB_URI) is polled every 2 s instead of the driver's 10 s, so
  // requests flow again within about 2 s of a restarted database host answering; the cost is one
  // `hello` every 2 s per process.
  const options = {
    dbName,
    autoIndex: true,
    serverSelectionTimeoutMS: 15000,
    ...(remote ? { heartbeatFrequencyMS: 2000 } : {}),
  };
  if (isDefaultContext(currentContext())) {
    await mongoose.connect(uri, options);
    return traced(mongoose.connection);
  }
  const own = await mongoose.createConnection(uri, options).asPromise();
  useConnection(own);
  return traced(own);
}

const tracedConnections = new WeakSet<mongoose.Connection>();

/**
 * Every operation on the connection is a read the request's read trace cannot follow
 * (requestClient.ts): an answer that went to the database is never reused from the answer cache.
 * Mongoose emits `operation-start` synchronously in the caller's async context.
 */
function traced(connection: mongoose.Connection): mongoose.Connection {
  if (!tracedConnections.has(connection)) {
    tracedConnections.add(connection);
    connection.on('operation-start', noteUntracedRead);
  }
  return connection;
}

function makeDatabase(
  connection: mongoose.Connection,
  mode: Database['mode'],
  via: Database['via'],
  stopEngine: () => Promise<void>,
): Database {
  const isDefault = connection === mongoose.connection;
  let closing: Promise<void> | undefined;
  return {
    mode,
    via,
    connection,
    reachable: () => connection.readyState === mongoose.ConnectionStates.connected,
    async ping(timeoutMs = 2000) {
      const db = connection.db;
      if (connection.readyState !== 1 || !db) return false;
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), timeoutMs);
      });
      const ping = db
        .admin()
        .ping()
        .then(() => true)
        .catch(() => false);
      const answer = await Promise.race([ping, timeout]);
      clearTimeout(timer);
      return answer;
    },
    close() {
      closing ??= (async () => {
        if (isDefault) await mongoose.disconnect();
        else await connection.close();
        await stopEngine();
      })();
      return closing;
    },
  };
}

export interface OpenOptions {
  mongodbUri: string;
  dataDir: string;
  logger: Logger;
  /**
   * `serve`: this process owns the embedded engine and opens its socket for the CLI (the server).
   * `tool`: use a running server's engine through its socket when it answers, else open the
   * directory directly (the CLI).
   */
  role: 'serve' | 'tool';
  /**
   * A worker process other than the lead (server/cluster/): the engine runs in the lead and this is its
   * connection string (its unix socket); the worker never opens the directory itself.
   */
  engineUri?: string;
  /**
   * How the `serve` role starts its own engine (default: on this thread, startEmbeddedMongo).
   * The cluster's lead worker runs it in a thread of its own (server/cluster/engineThread.ts).
   */
  startEngine?: (options: EmbeddedMongoOptions) => Promise<EngineHandle>;
}

/** A running engine as the process sees it: where to connect, what recovery fixed, how to stop. */
export type EngineHandle = Pick<EmbeddedMongo, 'uri' | 'socketUri' | 'repairs' | 'stop'>;

export async function openDatabase(options: OpenOptions): Promise<Database> {
  const { mongodbUri, dataDir, logger, role } = options;

  if (mongodbUri) {
    const connection = await connect(mongodbUri, databaseInUri(mongodbUri) || DB_NAME, true);
    return makeDatabase(connection, 'mongodb', 'mongodb', async () => {});
  }

  if (options.engineUri) {
    const connection = await connect(options.engineUri, DB_NAME);
    return makeDatabase(connection, 'embedded', 'engine-socket', async () => {});
  }

  const socketPath = engineSocketPath(dataDir);
  if (role === 'tool' && (await socketAnswers(socketPath))) {
    const connection = await connect(socketUriFor(socketPath), DB_NAME);
    return makeDatabase(connection, 'embedded', 'engine-socket', async () => {});
  }

  fs.mkdirSync(dataDir, { recursive: true });
  let listenSocket: string | undefined;
  if (role === 'serve') {
    if (engineSocketFits(dataDir)) listenSocket = socketPath;
    else
      logger.warn(
        { dataDir },
        'DATA_DIR path too long for a unix socket: the CLI cannot reach the engine while the server runs',
      );
  }
  const engine = await (options.startEngine ?? startEmbeddedMongo)({
    dataDir,
    host: '127.0.0.1',
    port: 0,
    ...(listenSocket ? { socketPath: listenSocket } : {}),
  });
  for (const repair of engine.repairs)
    logger.warn({ repair }, 'embedded database recovered from an unclean stop');
  let connection: mongoose.Connection;
  try {
    connection = await connect(engine.socketUri ?? engine.uri, DB_NAME);
  } catch (error) {
    await engine.stop();
    throw error;
  }
  return makeDatabase(connection, 'embedded', 'own-engine', () => engine.stop());
}

/**
 * Creates the collections and indexes of every model compiled so far. Mongoose starts this on its
 * own when a model is compiled; awaiting it means unique indexes exist before the first write.
 */
export async function ensureIndexes(): Promise<void> {
  await Promise.all(contextModels().map((model) => model.init()));
}
