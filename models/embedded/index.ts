/**
 * The embedded database: an in-process engine that speaks the MongoDB wire protocol, so mongoose
 * and the official driver run unchanged against it (and the same code runs against MongoDB).
 */
import path from 'node:path';
import type { Engine } from './engine';

// The engine itself (its matcher, mingo, the wire server, persistence) loads on the first
// `startEmbeddedMongo`: a worker process that only needs `engineSocketPath` to reach the
// lead worker's engine never carries it.
export { EngineLockedError } from './persistence/lock';

export interface EmbeddedMongoOptions {
  /** Where the journal and snapshots live; one engine per directory (a lock file enforces it). */
  dataDir: string;
  /** Loopback address for TCP (default 127.0.0.1); another interface only with `network`. */
  host?: string;
  /**
   * Listen on `host` even when it is not a loopback address (`npm run quire -- engine:serve`).
   * The engine has no authentication: whoever reaches the address reads and writes everything.
   */
  network?: boolean;
  /** TCP port; 0 picks a free one. Set `tcp: false` to listen on the unix socket only. */
  port?: number;
  tcp?: boolean;
  /** Also (or only) listen on this unix socket. */
  socketPath?: string;
  /** fsync every acknowledged write (default true). */
  fsync?: boolean;
  /** Journal size that triggers a snapshot + compaction (default 64 MiB). */
  snapshotJournalBytes?: number;
}

export interface EmbeddedMongo {
  /** A connection string for the driver or mongoose. */
  uri: string;
  /** The unix-socket connection string when `socketPath` was given. */
  socketUri?: string;
  port?: number;
  engine: Engine;
  /** What recovery had to fix on open (torn journal tail, damaged snapshot …); log these. */
  repairs: string[];
  stop(): Promise<void>;
}

/** The unix socket a Quire server's engine listens on in its data directory. */
export function engineSocketPath(dataDir: string): string {
  // The driver recognises a unix socket by a host ending in ".sock".
  return path.join(dataDir, 'quire-engine.sock');
}

export function socketUriFor(socketPath: string): string {
  return `mongodb://${encodeURIComponent(socketPath)}/?directConnection=true`;
}

export async function startEmbeddedMongo(opts: EmbeddedMongoOptions): Promise<EmbeddedMongo> {
  const host = opts.host ?? '127.0.0.1';
  const [{ Engine }, { WireServer }, { openPersistence }] = await Promise.all([
    import('./engine'),
    import('./server'),
    import('./persistence'),
  ]);
  const { persistence, recovered } = await openPersistence({
    dataDir: opts.dataDir,
    fsync: opts.fsync,
    snapshotJournalBytes: opts.snapshotJournalBytes,
  });
  const engine = new Engine(persistence);
  const server = new WireServer(engine);
  try {
    for (const image of recovered.images) engine.store.loadImage(image);
    for (const batch of recovered.batches) engine.replay(batch);
    let port: number | undefined;
    if (opts.tcp !== false) {
      port = await server.listenTcp(host, opts.port ?? 0, opts.network);
      engine.info = { host, port };
    } else {
      engine.info = { host: opts.socketPath ?? host, port: 0 };
    }
    if (opts.socketPath) await server.listenUnix(opts.socketPath);
    const socketUri = opts.socketPath ? socketUriFor(opts.socketPath) : undefined;
    const uri =
      port !== undefined ? `mongodb://${host}:${port}/?directConnection=true` : socketUri!;
    let stopping: Promise<void> | null = null;
    return {
      uri,
      socketUri,
      port,
      engine,
      repairs: recovered.repairs ?? [],
      stop: () =>
        (stopping ??= (async () => {
          await server.close();
          await engine.close();
        })()),
    };
  } catch (err) {
    await server.close();
    await engine.close();
    throw err;
  }
}
