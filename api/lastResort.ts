/**
 * The last line of defence against bad input: an exception nobody caught (an `error` event no
 * one listens to, a throw in a stream callback) normally ends the process. Each request runs in
 * an async scope (`trackRequests`), so such an exception can be traced to the request that
 * caused it: that request gets a clean 400 envelope, the error is logged, the process keeps
 * serving everyone else (work a request started — its timers, its promises — stays in its scope).
 * An exception with no request behind it means the process's state is
 * unknown: it is logged as fatal and `onFatal` stops the process (the supervisor restarts it).
 *
 * Installed by the real server entry (server/serve.ts) only — never in a test worker, where a
 * process-wide handler would swallow the failures the tests are meant to see.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type http from 'node:http';
import type { Logger } from '../models/platform';
import { errorBody } from './envelope';

interface RequestScope {
  req: http.IncomingMessage;
  res: http.ServerResponse;
}

const requestScope = new AsyncLocalStorage<RequestScope>();

/** Every later callback of a request (its body's data events included) runs in its scope. */
export function trackRequests(server: http.Server): void {
  server.prependListener('request', (req: http.IncomingMessage, res: http.ServerResponse) =>
    requestScope.enterWith({ req, res }),
  );
}

function answerBadRequest(res: http.ServerResponse): void {
  if (res.headersSent || res.writableEnded) {
    res.destroy();
    return;
  }
  res.statusCode = 400;
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Connection', 'close');
  res.end(JSON.stringify(errorBody(10101, 'Malformed request')));
}

export function installLastResort(options: { logger: Logger; onFatal: () => void }): void {
  const { logger } = options;
  process.on('uncaughtException', (error) => {
    const scope = requestScope.getStore();
    if (scope) {
      logger.error(
        { err: error, method: scope.req.method, path: scope.req.url?.split('?')[0] },
        'uncaught error while handling a request; answered 400',
      );
      answerBadRequest(scope.res);
      return;
    }
    logger.fatal({ err: error }, 'uncaught exception outside any request; stopping');
    options.onFatal();
  });
  // A forgotten rejection leaves no half-done synchronous state behind: log it, keep serving.
  process.on('unhandledRejection', (reason) => {
    const scope = requestScope.getStore();
    logger.error(
      { err: reason, method: scope?.req.method, path: scope?.req.url?.split('?')[0] },
      'unhandled promise rejection',
    );
  });
}
