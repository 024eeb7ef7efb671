/**
 * ShowDoc's maintenance endpoints: `update/checkDb` (its schema upgrade hook, a no-op answering
 * `[]` in 3.9 too — Quire's collections need no migration step) and `ScriptCron/run` (the
 * clean-up a crontab calls with ShowDoc's `X-Cron-Token`; Quire runs the recycle-bin purge
 * in-process every hour, so it needs no cron and answers every caller as ShowDoc answers one
 * without the token). The public square is models/search/publicSquare.ts.
 */
import { errors } from '../platform';

export function checkDb(): [] {
  return [];
}

/** ScriptCron/*: HTTP 403 `Forbidden` (ShowDoc's own front end, sending no token, gets this too). */
export function scheduledJobsForbidden(): never {
  throw errors.forbidden('Forbidden', { httpStatus: 403 });
}
