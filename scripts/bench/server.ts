/**
 * The server under test, run by `npm run bench` as a child process (so the load generator and
 * the server never share an event loop), started as `npm start` starts it (without the web build
 * step and the supervisor): with WORKERS > 1 — by default one worker per core — the primary of
 * the worker processes (server/cluster/primary.ts; the lead worker runs the engine), with
 * WORKERS=1 one `startQuire` process.
 * Configured from the environment the bench sets (PORT=0, HOST=127.0.0.1, DATA_DIR, LOG_LEVEL,
 * WORKERS). Tells its parent the port and the worker count over IPC and stops cleanly on SIGTERM
 * or when the parent goes away.
 */
import { loadConfig } from '../../models/platform/config';

const config = loadConfig(process.env);
let stopServer: () => Promise<void>;
let port: number;
if (config.workers > 1) {
  const { startPrimary } = await import('../../server/cluster/primary');
  const primary = await startPrimary(
    {
      port: config.port,
      host: config.host,
      workers: config.workers,
      workerNodeFlags: config.workerNodeFlags,
    },
    () => {},
    (reason) => {
      process.stderr.write(`bench server: ${reason}\n`);
      process.exit(70);
    },
  );
  stopServer = primary.stop;
  port = primary.port;
} else {
  const { startQuire } = await import('../../server/quire');
  // The first-start admin password is of no use here; everything else goes to the JSON log.
  const quire = await startQuire(config, { print: () => {} });
  stopServer = quire.stop;
  port = quire.port;
}
process.send?.({ type: 'ready', port, workers: config.workers });

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  stopServer().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`bench server: stop failed: ${(error as Error).message}\n`);
      process.exit(1);
    },
  );
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
process.on('disconnect', stop);
