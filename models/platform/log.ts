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

/**
 * stdout gathers lines and writes them in blocks of this many bytes, or at the latest after
 * LOG_FLUSH_MS: one request line per write cost the serving processes ~11% of their CPU on
 * page/info (docs/benchmarks.md). A warning or worse goes out at once, with what is gathered
 * before it; what is left is written when the process exits (pino's exit hook).
 */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 1000;
/** pino's level number of `warn`. */
const WARN = 40;

export function createLogger(options: {
  level: LevelWithSilent;
  /** Defaults to stdout; tests pass a stream to read the lines back. */
  destination?: DestinationStream;
}): Logger {
  const stdout = options.destination
    ? null
    : pino.destination({
        dest: 1,
        sync: false,
        minLength: LOG_BUFFER_BYTES,
        periodicFlush: LOG_FLUSH_MS,
      });
  return pino(
    {
      level: options.level,
      base: undefined, // no pid/hostname noise: one process, and the platform adds its own
      redact: { paths: REDACT, censor: '[redacted]' },
      ...(stdout && {
        hooks: {
          logMethod(args, method, level) {
            method.apply(this, args);
            if (level >= WARN) stdout.flush();
          },
        },
      }),
    },
    options.destination ?? stdout!,
  );
}
