/**
 * What the start-up scripts share (server/prepare.ts, server/serve.ts): a message on stderr
 * and exit code 1 for anything that stops Quire before it serves, and the configuration read
 * that way.
 */
import { type Config, ConfigError, loadConfig } from '../models/platform/config';
import { checkDataDirPersistent } from '../models/platform/ephemeral';

// In a module of its own: the engine's thread needs it without the configuration's modules.
export { collectStartupGarbage } from './startupGarbage';

export function failStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
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
