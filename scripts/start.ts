/**
 * `npm start`: validate the configuration, build the web app if needed, run this process's role
 * (ROLE: everything by default, or only the API, or only realtime — see scripts/quire.ts), and
 * stop cleanly on SIGINT/SIGTERM (a second signal forces the exit).
 */
import fs from 'node:fs';
import { ConfigError, loadConfig } from '../models/platform';
import { ROOT } from './paths';
import { startQuire } from './quire';
import { ensureWebBuilt } from './webBuild';

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

// A .env in the working directory fills in settings the environment does not already set.
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

// Signal handlers go in before anything starts, so a signal during start-up is never the
// default "die at once" (which would skip flushing the database).
let quire: Awaited<ReturnType<typeof startQuire>> | undefined;
let signalled = false;

function stopAndExit(): void {
  quire!.stop().then(
    () => {
      print('Quire stopped.');
      process.exit(0);
    },
    (error: unknown) => fail(`Error while stopping: ${(error as Error).message}`),
  );
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (signalled) {
      print('Second signal: exiting without waiting.');
      process.exit(1);
    }
    signalled = true;
    print(`${signal} received: finishing requests and closing the database…`);
    if (quire) stopAndExit();
  });
}

try {
  quire = await startQuire(config, { print });
} catch (error) {
  fail(`Quire could not start: ${(error as Error).message}`);
}
if (signalled) stopAndExit();
