/**
 * What the start-up scripts share (scripts/prepare.ts, scripts/serve.ts): a message on stderr
 * and exit code 1 for anything that stops Quire before it serves, and the configuration read
 * that way.
 */
import { type Config, ConfigError, loadConfig } from '../models/platform/config';

export function failStart(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(1);
}

/** The configuration, or exit 1 with the configuration error's message. */
export function loadConfigOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) failStart(error.message);
    throw error;
  }
}
