/**
 * `npm start`: validate the configuration, build the web app if needed, then run the server
 * (scripts/serve.ts) under Quire's own supervisor (scripts/supervisor.ts), which restarts it if
 * it dies and passes SIGINT/SIGTERM on for a clean stop. A configuration error still ends here
 * with its message and exit code 1, before any process is forked.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, loadConfig } from '../models/platform/config';
import { ROOT } from './paths';
import { superviseProcess } from './supervisor';
import { ensureWebBuilt } from './webBuild';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

// A .env in the working directory fills in settings the environment does not already set; the
// server process inherits them.
if (fs.existsSync('.env')) process.loadEnvFile('.env');

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}

const print = (text: string) => process.stdout.write(`${text}\n`);

// A realtime-only process serves no web app, so it never builds one.
if (config.role !== 'realtime') {
  try {
    await ensureWebBuilt(ROOT, print);
  } catch (error) {
    fail(`Could not build the web app: ${(error as Error).message}`);
  }
}

const server = superviseProcess({
  script: path.join(ROOT, 'scripts', 'serve.ts'),
  env: process.env,
  print,
});
process.exit(await server.done);
