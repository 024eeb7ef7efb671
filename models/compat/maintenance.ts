/**
 * ShowDoc's maintenance endpoints: `update/checkDb` (its schema upgrade hook, a no-op answering
 * `[]` in 3.9 too — Quire's collections need no migration step) and `ScriptCron/run` (the
 * clean-up a crontab calls with ShowDoc's `X-Cron-Token`; Quire runs the recycle-bin purge
 * in-process every hour, so it needs no cron and answers every caller as ShowDoc answers one
 * without the token), plus the public square, which Quire leaves out.
 */
import { ApiError } from '../platform';

export function checkDb(): [] {
  return [];
}

/** ScriptCron/*: HTTP 403 `Forbidden` (ShowDoc's own front end, sending no token, gets this too). */
export function scheduledJobsForbidden(): never {
  throw new ApiError(10403, 'Forbidden', { httpStatus: 403 });
}

/** publicSquare/checkEnabled: the square is off (ShowDoc's `enable_public_square` unset). */
export function publicSquareState(): { enable: 0 } {
  return { enable: 0 };
}

/** publicSquare/getPublicItems while the square is off. */
export function publicSquareItems(): never {
  throw new ApiError(10501, 'The public square is not enabled');
}
