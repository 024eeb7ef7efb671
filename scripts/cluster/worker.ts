/**
 * One worker of a multi-worker Quire (forked by scripts/cluster/primary.ts): the whole app
 * (scripts/quire.ts with `worker`), serving the connections the primary hands it. Stops cleanly
 * on SIGTERM (the primary's stop) or when the primary goes away; after a fatal error outside any
 * request it exits 70 and the primary replaces it.
 */
import type { Socket } from 'node:net';
import { installLastResort, trackRequests } from '../../api/lastResort';
import { loadConfig } from '../../models/platform';
import { startQuire } from '../quire';
import type { PrimaryMessage, WorkerMessage } from './messages';
import { passOnForeignSessions } from './sessionProxy';

const EXIT_FATAL = 70;
const print = (text: string) => process.stdout.write(`${text}\n`);
const slot = Number(process.env.QUIRE_WORKER_SLOT);
const config = loadConfig();

const running: { quire?: Awaited<ReturnType<typeof startQuire>> } = {};
let stopping = false;

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  if (!running.quire) process.exit(code);
  running.quire.stop().then(
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
// The primary gone means its engine is gone too: nothing left to drain into; the supervisor
// restarts the primary, which starts new workers.
process.on('disconnect', () => {
  if (!stopping) process.exit(1);
});

const quire = await startQuire(config, {
  print,
  worker: {
    slot,
    port: Number(process.env.QUIRE_WORKER_PORT),
    engineUri: process.env.QUIRE_ENGINE_URI || undefined,
  },
});
running.quire = quire;
trackRequests(quire.server);
installLastResort({
  logger: quire.logger,
  onFatal: () => stop(EXIT_FATAL),
});
passOnForeignSessions(quire.server, slot, config.dataDir);

const server = quire.server;
process.on('message', (message: PrimaryMessage, handle?: Socket) => {
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
