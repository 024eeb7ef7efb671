/**
 * What the start-up scripts share (server/prepare.ts, server/serve.ts): a message on stderr
 * and exit code 1 for anything that stops Quire before it serves, and the configuration read
 * that way.
 */
import { type Config, ConfigError, loadConfig } from '../models/platform/config';
import { checkDataDirPersistent } from '../models/platform/ephemeral';

export function failStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** How long after start-up the collection waits: V8 gives memory back only once allocation calms. */
const SETTLE_MS = 3000;

/**
 * One full garbage collection shortly after the process (all the workers) started serving.
 * Starting leaves garbage and a heap grown for it (the lead worker or single process replays the
 * engine's journal and answers every process's first queries; each compiles its modules) that an
 * idle process would otherwise keep resident until V8 gets round to it. A collection made while
 * start-up still allocates keeps the grown heap; one made after a short quiet gives the pages back
 * (measured: the lead worker at rest 130 → 113 MB RSS). Needs Node's `--expose-gc`, which
 * `npm start` gives the serving processes; without it this does nothing. GC_AFTER_START=false
 * turns it off (the callers ask the configuration).
 */
export function collectStartupGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) setTimeout(gc, SETTLE_MS).unref();
}

/**
 * The configuration, or exit 1 with the configuration error's message — or with the reason the
 * data folder would not survive its container (ALLOW_EPHEMERAL_DATA=true lets it start).
 */
export function loadConfigOrExit(): Config {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) failStart(error.message);
    throw error;
  }
  const problem = checkDataDirPersistent(config.dataDir, config.allowEphemeralData);
  if (problem) failStart(`Quire will not start: ${problem}`);
  return config;
}

/**
 * Beyond SHUTDOWN_GRACE_MS the connections left are cut, then the database still closes (the
 * engine flushes its journal); this is the last resort should that hang: a stop never outlasts
 * the grace by more than this, so an orchestrator's own deadline (longer) never has to SIGKILL.
 */
export const STOP_MARGIN_MS = 15_000;

/** Exits with code 1 and a line on stderr when a stop is not over `graceMs` + the margin later. */
export function stopDeadline(graceMs: number, who = 'Quire'): void {
  setTimeout(() => {
    process.stderr.write(`${who} did not stop within ${graceMs + STOP_MARGIN_MS} ms; exiting.\n`);
    process.exit(1);
  }, graceMs + STOP_MARGIN_MS).unref();
}
