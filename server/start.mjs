/**
 * `npm start`. Plain JavaScript on purpose: this process stays up beside the server for the whole
 * run (as its supervisor), so it loads nothing but Node's own modules and the small compiled
 * supervisor — no TypeScript loader, no configuration code, no app.
 *
 * 1. Reads .env from the working directory (settings the environment does not already set; the
 *    children inherit them).
 * 2. Runs server/prepare.ts in a child (under tsx): configuration check, web and server builds
 *    when stale. Its failure (bad configuration: message and exit code 1) is ours.
 * 3. WORKERS=1: runs the compiled server (dist-server/serve.js) under the supervisor
 *    (server/supervisor.ts, compiled beside it), which restarts it if it dies and passes
 *    SIGINT/SIGTERM on for a clean stop; ends with its exit code.
 *    WORKERS > 1: this process becomes the cluster primary (dist-server/cluster.js, from
 *    server/cluster/serveCluster.ts): it routes the connections and relays the events itself,
 *    and supervises the worker processes (the lead one runs the database engine). One Node
 *    process fewer than a supervisor above a primary — each carries some 40 MB of its own.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dist = path.join(root, 'dist-server');

if (fs.existsSync('.env')) process.loadEnvFile('.env');

/**
 * Runs the preparation step; resolves with its exit code (a signal's stop counts as 1), the
 * worker count of the validated configuration and what a cluster primary needs of it.
 */
function prepare() {
  const child = spawn(
    process.execPath,
    ['--import', import.meta.resolve('tsx'), path.join(root, 'server', 'prepare.ts')],
    { stdio: ['inherit', 'inherit', 'inherit', 'ipc'] },
  );
  let workers = 1;
  let cluster;
  child.on('message', (message) => {
    if (message?.type !== 'prepared') return;
    workers = message.workers;
    cluster = message.cluster;
  });
  // A stop asked for while building reaches the build and ends the start there.
  const forward = (signal) => child.kill(signal);
  process.on('SIGINT', forward);
  process.on('SIGTERM', forward);
  return new Promise((resolve) => {
    child.once('error', (error) => {
      process.stderr.write(`Could not prepare Quire: ${error.message}\n`);
      resolve({ code: 1, workers, cluster });
    });
    child.once('exit', (code) => {
      process.off('SIGINT', forward);
      process.off('SIGTERM', forward);
      resolve({ code: code ?? 1, workers, cluster });
    });
  });
}

const prepared = await prepare();
if (prepared.code !== 0) process.exit(prepared.code);

const print = (text) => process.stdout.write(`${text}\n`);

if (prepared.workers > 1) {
  const { serveCluster } = await import(pathToFileURL(path.join(dist, 'cluster.js')).href);
  // Stays up until a signal stops it; it exits itself.
  await serveCluster(prepared.cluster, print);
} else {
  const { superviseProcess } = await import(pathToFileURL(path.join(dist, 'supervisor.js')).href);
  // A single process is the whole app and keeps V8's default heap sizing, but not its allocation-
  // site pretenuring: it moved page/info's request and response objects to the old generation,
  // which then took a full collection every few seconds (measured: 24,800 -> 31,100 req/s, wrk c=10).
  const server = superviseProcess({
    script: path.join(dist, 'serve.js'),
    // One collection once started (server/startup.ts collectStartupGarbage).
    execArgv: ['--expose-gc', '--no-allocation-site-pretenuring'],
    env: process.env,
    print,
  });
  process.exit(await server.done);
}
