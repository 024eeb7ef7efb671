/**
 * The one place errors become responses. Every failure leaves as the ShowDoc envelope
 * `{error_code, error_message}`: ApiErrors with their code, request-parsing failures (oversize
 * or malformed bodies) with 10101 and their HTTP status, the database out of reach as 503 with
 * 10505 and Retry-After (a client's cue to try again), anything unexpected as 10500 with the
 * details in the log only — never a stack trace or an HTML page to the client.
 */
import type { NextFunction, Request, Response } from 'express';
import { errors, isApiError, isDatabaseUnreachable, type Logger } from '../models/platform';
import { errorBody } from './envelope';

/** Seconds a client is asked to wait before trying again (starting, database out of reach). */
const RETRY_AFTER_S = 5;

/** Errors raised by body-parser carry `type` and a 4xx `status`. */
interface ParserError {
  type?: string;
  status?: number;
  limit?: number;
}

const PARSER_MESSAGES: Record<string, string> = {
  'entity.too.large': 'Request body too large',
  'parameters.too.many': 'Too many parameters',
  'entity.parse.failed': 'Malformed request body',
  'encoding.unsupported': 'Unsupported content encoding',
  'charset.unsupported': 'Unsupported charset',
  'entity.verify.failed': 'Malformed request body',
  'request.aborted': 'Request aborted',
  'request.size.invalid': 'Request body size does not match Content-Length',
  // A form field nested past qs's depth bound (a[b][c]… more than 32 deep).
  'querystring.parse.rangeError': 'Request body nested too deeply',
};

export function errorHandler(logger: Logger) {
  return (error: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) return next(error); // Express closes the connection
    if (isDatabaseUnreachable(error)) {
      logger.warn(
        { err: error, method: req.method, path: (res.locals.logPath as string) ?? req.path },
        'database unreachable',
      );
      error = errors.databaseUnavailable(undefined, { httpStatus: 503 });
    }
    if (isApiError(error)) {
      if (error.httpStatus === 503) res.set('Retry-After', String(RETRY_AFTER_S));
      res.status(error.httpStatus).json(errorBody(error.code, error.message));
      return;
    }
    const parser = (error ?? {}) as ParserError;
    if (parser.type && parser.type in PARSER_MESSAGES && parser.status && parser.status < 500) {
      let message = PARSER_MESSAGES[parser.type];
      if (parser.type === 'entity.too.large' && parser.limit)
        message += ` (limit ${Math.round(parser.limit / 1024)} KB)`;
      res.status(parser.status).json(errorBody(10101, message));
      return;
    }
    logger.error(
      { err: error, method: req.method, path: (res.locals.logPath as string) ?? req.path },
      'unhandled error',
    );
    res.status(500).json(errorBody(10500, 'Internal error'));
  };
}
