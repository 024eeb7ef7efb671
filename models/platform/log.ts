/**
 * Structured JSON logs (pino), one object per line on stdout.
 *
 * What never goes in a log: tokens, passwords, request bodies, query strings, page content. The
 * request logger (api/requestLog.ts) writes only method, route path, status and duration; the
 * redaction paths below are a second line of defence for code that logs objects carelessly.
 */
import pino, { type DestinationStream, type Logger, type LevelWithSilent } from 'pino';

export type { Logger };

const REDACT = [
  'password',
  'token',
  'user_token',
  'api_token',
  'authorization',
  '*.password',
  '*.token',
  '*.user_token',
  '*.api_token',
  '*.authorization',
];

export function createLogger(options: {
  level: LevelWithSilent;
  /** Defaults to stdout; tests pass a stream to read the lines back. */
  destination?: DestinationStream;
}): Logger {
  return pino(
    {
      level: options.level,
      base: undefined, // no pid/hostname noise: one process, and the platform adds its own
      redact: { paths: REDACT, censor: '[redacted]' },
    },
    options.destination ?? pino.destination({ dest: 1, sync: false }),
  );
}
