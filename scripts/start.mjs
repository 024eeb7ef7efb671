/**
 * `npm start`. Plain JavaScript on purpose: this process stays up beside the server for the whole
 * run (as its supervisor), so it loads nothing but Node's own modules and the small compiled
 * supervisor — no TypeScript loader, no configuration code, no app.
 *
 * 1. Reads .env from the working directory (settings the environment does not already set; the
 *    children inherit them).
 * 2. Runs scripts/prepare.ts in a child (under tsx): configuration check, web and server builds
 *    when stale. Its failure (bad configuration: message and exit code 1) is ours.
 * 3. Runs the compiled server (dist-server/serve.js) under the supervisor (scripts/supervisor.ts,
 *    compiled beside it), which restarts it if it dies and passes SIGINT/SIGTERM on for a clean
 *    stop; ends with its exit code.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist-server');

if (fs.existsSync('.env')) process.loadEnvFile('.env');

/**
 * Runs the preparation step; resolves with its exit code (a signal's stop counts as 1) and the
 * worker count of the validated configuration.
 */
function prepare() {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(root, 'scripts', 'prepare.ts')],
    { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
  );
  let workers = 1;
  child.on('message', (message) => {
    if (message?.type === 'prepared') workers = message.workers;
  });
  // A stop asked for while building reaches the build and ends the start there.
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`Could not prepare Quire: ${error.message}\n`);
      resolve({ code: 1, workers });
    });
    child.once('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? 1, workers });
    });
  });
}

const prepared = await prepare();
if (prepared.code !== 0) process.exit(prepared.code);

const { superviseProcess } = await import(pathToFileURL(path.join(dist, 'supervisor.js')).href);
const server = superviseProcess({
  script: path.join(dist, 'serve.js'),
  // A primary (the engine and the routing; WORKERS > 1) allocates small short-lived objects
  // (BSON, wire messages): a 2 MB young generation instead of V8's 16 MB keeps its resident
  // memory down, and its old generation grows by 50% of what survives a full collection, not
  // V8's adaptive up-to-4× (its workers: scripts/cluster/primary.ts). A single process is the
  // whole app and keeps V8's defaults.
  execArgv: prepared.workers > 1 ? ['--max-semi-space-size=2', '--heap-growing-percent=50'] : [],
  env: process.env,
  print: (text) => process.stdout.write(`${text}\n`),
});
process.exit(await server.done);
