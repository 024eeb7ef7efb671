/**
 * GET /healthz: 200 once the process is ready and its database answers a ping, 503 otherwise.
 * The body says which database mode is in use, never where it is (no URIs, no paths).
 */
import type { Request, Response } from 'express';
import type { AppState } from './state';

export function healthCheck(state: AppState) {
  return async (_req: Request, res: Response) => {
    res.set('Cache-Control', 'no-store');
    if (state.phase !== 'ready' || !state.database) {
      res.status(503).json({ status: state.phase, database: { state: 'unavailable' } });
      return;
    }
    const up = await state.database.ping();
    res.status(up ? 200 : 503).json({
      status: up ? 'ok' : 'degraded',
      database: { mode: state.database.mode, state: up ? 'up' : 'down' },
    });
  };
}
