/**
 * The server under test, run by `npm run bench` as a child process (so the load generator and
 * the server never share an event loop): the same `startQuire` as `npm start`, configured from
 * the environment the bench sets (PORT=0, HOST=127.0.0.1, DATA_DIR, LOG_LEVEL), without the
 * web build step. Tells its parent the port over IPC and stops cleanly on SIGTERM or when the
 * parent goes away.
 */
import { loadConfig } from '../../models/platform';
import { startQuire } from '../quire';

const config = loadConfig(process.env);
// The first-start admin password is of no use here; everything else goes to the JSON log.
const quire = await startQuire(config, { print: () => {} });
process.send?.({ type: 'ready', port: quire.port });

let stopping = false;
function stop(): void {
  if (stopping) return;
  stopping = true;
  quire.stop().then(
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
