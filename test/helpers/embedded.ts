/**
 * Starts the embedded MongoDB-wire engine on a fresh temporary data directory for a test file,
 * and removes everything again afterwards. One engine per test file (beforeAll), not per test:
 * starting an engine costs far more than the tests that use it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from '@jest/globals';
import mongoose, { type Connection } from 'mongoose';
import { MongoClient, type Collection, type Db } from 'mongodb';
import { startEmbeddedMongo } from '../../models/embedded';

/**
 * A free-form test document. `_id` may be any BSON value the test picks; it is spelled as a union
 * (not `any`) because the driver's typings turn an `any` _id into ObjectId.
 */
export type AnyDoc = { _id?: string | number | boolean | object | null; [field: string]: any };

export interface TestEngine {
  /** TCP URI of the running engine (changes on restart: port 0 picks a new port). */
  readonly uri: string;
  /** Driver URI for the unix socket, when started with `{ socket: true }`. */
  readonly socketUri: string | undefined;
  readonly dataDir: string;
  /** Clean stop, then a new engine on the same data directory (for restart/durability checks). */
  restart(): Promise<void>;
  /** Stops the engine (if running) and deletes its data directory. */
  stop(): Promise<void>;
}

export interface TestEngineOptions {
  /** Also listen on a unix socket inside the data directory. */
  socket?: boolean;
}

/** The driver's URI form for a unix socket: the path, percent-encoded, as the host. */
export function unixSocketUri(socketPath: string): string {
  return `mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`;
}

export async function startTestEngine(options: TestEngineOptions = {}): Promise<TestEngine> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-engine-'));
  // Unix socket paths are limited to ~107 bytes; mkdtemp under /tmp keeps this one short.
  const socketPath = options.socket ? path.join(dataDir, 'engine.sock') : undefined;
  const open = () =>
    startEmbeddedMongo({
      dataDir,
      host: '127.0.0.1',
      port: 0,
      ...(socketPath ? { socketPath } : {}),
    });

  let running: { uri: string; stop(): Promise<void> } | undefined = await open();
  let uri = running.uri;

  return {
    get uri() {
      return uri;
    },
    socketUri: socketPath ? unixSocketUri(socketPath) : undefined,
    dataDir,
    async restart() {
      await running?.stop();
      running = undefined;
      running = await open();
      uri = running.uri;
    },
    async stop() {
      await running?.stop();
      running = undefined;
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** One engine test file's engine, raw driver client, database and mongoose connection. */
export interface EngineSuite {
  engine: TestEngine;
  client: MongoClient;
  /** The file's own database (`dbName`). */
  db: Db;
  /** A mongoose connection to the same database. */
  conn: Connection;
  /** A collection of the file's database. */
  collection(name: string): Collection<AnyDoc>;
}

/**
 * Registers an engine test file's hooks: an engine, a driver client and a mongoose connection on
 * `dbName` before the tests, all closed and the data deleted after them. The fields are filled in
 * by beforeAll: read them inside tests and hooks.
 */
export function engineSuite(dbName: string): EngineSuite {
  const suite = {
    collection: (name: string) => suite.db.collection<AnyDoc>(name),
  } as EngineSuite;
  beforeAll(async () => {
    suite.engine = await startTestEngine();
    suite.client = await MongoClient.connect(suite.engine.uri);
    suite.db = suite.client.db(dbName);
    suite.conn = await mongoose.createConnection(suite.engine.uri, { dbName }).asPromise();
  });
  afterAll(async () => {
    await suite.conn?.close();
    await suite.client?.close();
    await suite.engine?.stop();
  });
  return suite;
}

/**
 * Re-runs `check` until it stops throwing or the deadline passes (then rethrows its last error).
 * For behaviour that happens "soon" (TTL expiry): poll with a deadline, never sleep-and-assert.
 */
export async function eventually<T>(
  check: () => Promise<T> | T,
  { timeoutMs = 10_000, intervalMs = 100 }: { timeoutMs?: number; intervalMs?: number } = {},
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await check();
    } catch (err) {
      if (Date.now() >= deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

/** Runs `fn` and returns what it threw (fails the test if it did not throw). */
export async function caught(fn: () => Promise<unknown>): Promise<Error & Record<string, any>> {
  try {
    await fn();
  } catch (err) {
    return err as Error & Record<string, any>;
  }
  throw new Error('expected the operation to fail, but it succeeded');
}
