/**
 * `npm start`'s first step, run once as a child of server/start.mjs before anything serves:
 * validate the configuration, build the web app (dist/) and the server bundle (dist-server/)
 * when they are missing or stale. A configuration error ends here with its message and exit
 * code 1, before any server process is forked or any file is created; exit 0 means "ready to
 * serve" (with the validated worker count and listening address sent to start.mjs over IPC). Runs the TypeScript sources under tsx; nothing of it stays in memory while Quire runs.
 */
import fs from 'node:fs';
import { failStart, loadConfigOrExit } from './startup';
import { ROOT } from './paths';
import { ensureServerBuilt } from './serverBuild';
import { ensureWebBuilt } from './webBuild';

// start.mjs has already loaded .env; loading it again here keeps this step right when it is
// run on its own, and changes nothing otherwise (set variables are never overwritten).
if (fs.existsSync('.env')) process.loadEnvFile('.env');

const config = loadConfigOrExit();

const print = (text: string) => process.stdout.write(`${text}\n`);

// A realtime-only process serves no web app, so it never builds one.
if (config.role !== 'realtime') {
  try {
    await ensureWebBuilt(ROOT, print);
  } catch (error) {
    failStart(`Could not build the web app: ${(error as Error).message}`);
  }
}
try {
  await ensureServerBuilt(ROOT, print);
} catch (error) {
  failStart(`Could not build the server: ${(error as Error).message}`);
}
// start.mjs runs one supervised process or becomes the cluster primary, which needs these few
// settings (it loads no configuration code of its own).
process.send?.({
  type: 'prepared',
  workers: config.workers,
  cluster: {
    port: config.port,
    host: config.host,
    workers: config.workers,
    workerNodeFlags: config.workerNodeFlags,
    shutdownGraceMs: config.shutdownGraceMs,
    role: config.role,
  },
});
