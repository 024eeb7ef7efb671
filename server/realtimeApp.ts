/**
 * The HTTP app of a `ROLE=realtime` process: only what a load balancer needs besides the socket
 * paths (which Socket.IO and Hocuspocus take over on the same server) — `/healthz`, and the JSON
 * 404 envelope for everything else, so a mis-routed API call is answered, not left hanging.
 */
import express, { type Express } from 'express';
import { errorHandler } from '../api/errorHandler';
import { healthCheck } from '../api/health';
import { requestLog } from '../api/requestLog';
import type { AppState } from '../api/state';
import { ApiError, type Logger } from '../models/platform';

export function createRealtimeOnlyApp(logger: Logger, state: AppState): Express {
  const app = express();
  app.disable('x-powered-by');
  app.use(requestLog(logger));
  app.get('/healthz', healthCheck(state));
  app.use(() => {
    throw new ApiError(10404, undefined, { httpStatus: 404 });
  });
  app.use(errorHandler(logger));
  return app;
}
