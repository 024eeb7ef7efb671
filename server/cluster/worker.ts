/**
 * One worker of a multi-worker Quire (forked by server/cluster/primary.ts): the whole app
 * (server/quire.ts with `worker`), serving the connections the primary hands it. The lead
 * (slot 0) also runs the embedded engine (unless MONGODB_URI is set), on its unix socket in
 * DATA_DIR as a single process does; the other workers, and the admin CLI, reach it there.
 * Stops cleanly on SIGTERM (the primary's stop) or when the primary goes away (killed: nothing
 * else would stop this worker, and the lead's engine must flush); after a fatal error outside any
 * request it exits 70 and the primary replaces it.
 */
import cluster from 'node:cluster';
import type { Socket } from 'node:net';
import { installLastResort, trackRequests } from '../../api/lastResort';
import { socketUriFor } from '../../models/embedded';
import { engineSocketFits, engineSocketPath, loadConfig } from '../../models/platform';
import { startQuire } from '../quire';
import { collectStartupGarbage, stopDeadline } from '../startup';
import { collectEngineThreadGarbage, startEngineThread } from './engineThread';
import type { PrimaryMessage, WorkerMessage } from './messages';
import { passOnForeignSessions } from './sessionProxy';

const EXIT_FATAL = 70;
const print = (text: string) => process.stdout.write(`${text}\n`);
const slot = Number(process.env.QUIRE_WORKER_SLOT);
const config = loadConfig();
const lead = slot === 0;

const running: { quire?: Awaited<ReturnType<typeof startQuire>> } = {};
let stopping = false;

/** The lead's hold on its engine during the primary's stop (`drain` … `others-stopped`). */
let releaseEngine: () => void = () => {};

function stop(code: number, hold?: Promise<void>): void {
  if (stopping) return;
  stopping = true;
  if (!running.quire) process.exit(code);
  stopDeadline(config.shutdownGraceMs, `Quire worker ${slot}`);
  running.quire.stop({ beforeDatabaseClose: hold }).then(
    () => process.exit(code),
    (error: unknown) => {
      process.stderr.write(
        `Quire worker ${slot}: error while stopping: ${(error as Error).message}\n`,
      );
      process.exit(1);
    },
  );
}

process.on('SIGTERM', () => stop(0));
// Ctrl-C in a terminal reaches the whole process group; the primary decides, through SIGTERM.
process.on('SIGINT', () => {});
// The primary gone (killed): no one routes to this worker any more; stop as on SIGTERM, so the
// lead's engine closes cleanly. Node's cluster module would otherwise exit a worker at once when
// its channel closes unless `exitedAfterDisconnect` is set (lib/internal/cluster/child.js); this
// process never calls `worker.disconnect()`, the one other thing that flag changes.
if (cluster.worker) cluster.worker.exitedAfterDisconnect = true;
process.on('disconnect', () => {
  releaseEngine();
  stop(0);
});

// The workers have no other way to the engine than its unix socket.
if (!config.mongodbUri && !engineSocketFits(config.dataDir)) {
  process.stderr.write(
    `DATA_DIR is too long for the engine's unix socket (${engineSocketPath(config.dataDir)}): use a shorter path or WORKERS=1\n`,
  );
  process.exit(1);
}

let quire: Awaited<ReturnType<typeof startQuire>>;
try {
  quire = await startQuire(config, {
    print,
    worker: {
      slot,
      port: Number(process.env.QUIRE_WORKER_PORT),
      // The lead opens the engine itself (the database's `serve` role); the others its socket.
      engineUri:
        lead || config.mongodbUri ? undefined : socketUriFor(engineSocketPath(config.dataDir)),
      // The lead runs its engine beside its event loop, in a thread of its own.
      startEngine: startEngineThread,
    },
  });
} catch (error) {
  process.stderr.write(`Quire worker ${slot} could not start: ${(error as Error).message}\n`);
  process.exit(1);
}
running.quire = quire;
trackRequests(quire.server);
installLastResort({
  logger: quire.logger,
  onFatal: () => stop(EXIT_FATAL),
});
passOnForeignSessions(quire.server, slot, config.dataDir);

const server = quire.server;
process.on('message', (message: PrimaryMessage, handle?: Socket) => {
  // Every worker serves: the start-up of all of them (the others' first queries ran in the lead's
  // engine too) is over.
  if (message?.quire === 'started') {
    if (!config.gcAfterStart) return;
    collectStartupGarbage();
    // The engine's thread (in the lead) replayed the journal and answered those queries.
    return collectEngineThreadGarbage();
  }
  if (message?.quire === 'drain')
    return stop(0, new Promise<void>((resolve) => (releaseEngine = resolve)));
  if (message?.quire === 'others-stopped') return releaseEngine();
  if (message?.quire !== 'connection' || !handle) return;
  if (stopping) {
    handle.destroy();
    return;
  }
  // The HTTP server takes the connection as if it had accepted it, then the bytes the primary
  // read to route it, then reads the rest itself.
  handle.unshift(Buffer.from(message.head, 'base64'));
  server.emit('connection', handle);
});
process.send?.({ quire: 'ready' } satisfies WorkerMessage);
