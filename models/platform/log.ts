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
 * stdout gathers lines and writes them in blocks of about this many characters, or at the latest
 * after LOG_FLUSH_MS: one request line per write cost the serving processes ~11% of their CPU on
 * page/info (docs/benchmarks.md). A warning or worse goes out at once, with what is gathered
 * before it; what is left is written when the process exits.
 */
export const LOG_BUFFER_BYTES = 4096;
export const LOG_FLUSH_MS = 1000;
/** pino's level number of `warn`. */
const WARN = 40;

interface BlockDestination extends DestinationStream {
  /** Writes what is gathered now, then calls back (pino's `logger.flush(cb)`). */
  flush(done?: (error?: Error) => void): void;
}

let stdoutBlocks: BlockDestination | undefined;

/**
 * The process's stdout for logs (one per process, whatever the number of loggers). Lines are
 * gathered as they are, a list of strings joined once per block, and each block is written
 * synchronously by pino's own destination (SonicBoom, as pino writes by default). Not SonicBoom's
 * `minLength`: it appends each line to one string and measures the whole of it per line, which
 * copies the gathered block again for every line (~8 KB of garbage per request line, measured).
 * A synchronous block also makes the rules above exact: a warning is on stdout when the call
 * returns, and the exit hook's block is written before the process ends.
 */
function stdoutInBlocks(): BlockDestination {
  if (stdoutBlocks) return stdoutBlocks;
  const out = pino.destination({ dest: 1, sync: true });
  let lines: string[] = [];
  let gathered = 0;
  const writeGathered = () => {
    if (gathered === 0) return;
    const block = lines.length === 1 ? lines[0] : lines.join('');
    lines = [];
    gathered = 0;
    out.write(block);
  };
  setInterval(writeGathered, LOG_FLUSH_MS).unref();
  process.on('exit', writeGathered);
  stdoutBlocks = {
    write(line: string) {
      lines.push(line);
      gathered += line.length;
      if (gathered >= LOG_BUFFER_BYTES) writeGathered();
    },
    flush(done) {
      writeGathered();
      done?.();
    },
  };
  return stdoutBlocks;
}

export function createLogger(options: {
  level: LevelWithSilent;
  /** Defaults to stdout; tests pass a stream to read the lines back. */
  destination?: DestinationStream;
}): Logger {
  const stdout = options.destination ? null : stdoutInBlocks();
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
