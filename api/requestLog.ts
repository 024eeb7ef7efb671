/**
 * One log line per request: method, path, status, duration. Only the path: query strings, bodies
 * and ShowDoc's key/value path segments can carry tokens, passwords and page content, so ShowDoc
 * routes are logged as `/api/<controller>/<action>` (set by the transport in res.locals.logPath).
 */
import type { NextFunction, Request, Response } from 'express';
import type { Logger } from '../models/platform';

/**
 * The logger of request lines: without the redaction pass (a third of pino's time per line,
 * measured), as a line holds only the four fields above, none of them a secret.
 */
const lineLoggers = new WeakMap<Logger, Logger>();
function lineLogger(logger: Logger): Logger {
  let found = lineLoggers.get(logger);
  if (!found) {
    found = logger.child({}, { redact: [] });
    lineLoggers.set(logger, found);
  }
  return found;
}

/** Writes a request's line: `started` is its process.hrtime.bigint() at arrival. */
export function logRequest(
  base: Logger,
  method: string,
  path: string,
  status: number,
  started: bigint,
): void {
  const line = {
    method,
    path,
    status,
    ms: Math.round(Number(process.hrtime.bigint() - started) / 1e5) / 10,
  };
  const logger = lineLogger(base);
  // Health probes arrive every few seconds; keep them out of the default log level.
  if (path === '/healthz') logger.debug(line, 'request');
  else logger.info(line, 'request');
}

export function requestLog(logger: Logger) {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    // 'close' comes once per response: a tick after 'finish' when it was sent, or when the client
    // went away first.
    res.once('close', () => {
      const path = (res.locals.logPath as string | undefined) ?? req.path;
      // 499: client went away before an answer
      logRequest(logger, req.method, path, res.headersSent ? res.statusCode : 499, started);
    });
    next();
  };
}
