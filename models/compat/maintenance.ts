/**
 * ShowDoc's maintenance endpoints: `update/checkDb` (its schema upgrade hook, a no-op answering
 * `[]` in 3.9 too — Quire's collections need no migration step) and `ScriptCron/run` (the
 * scheduled clean-up a crontab calls: Quire runs the recycle-bin purge in-process every hour,
 * and this runs it once more on demand), plus the public square, which Quire leaves out.
 */
import { ApiError } from '../platform';
import { purgeRecycleBin } from '../pages';
import { nowSeconds } from '../platform';

export function checkDb(): [] {
  return [];
}

/** ScriptCron/run: purges what has been in the recycle bin for 30 days, as ShowDoc's cron does. */
export async function runScheduledJobs(): Promise<{ message: string }> {
  await purgeRecycleBin(nowSeconds());
  return { message: '定时任务执行完成' };
}

/** publicSquare/checkEnabled: the square is off (ShowDoc's `enable_public_square` unset). */
export function publicSquareState(): { enable: 0 } {
  return { enable: 0 };
}

/** publicSquare/getPublicItems while the square is off. */
export function publicSquareItems(): never {
  throw new ApiError(10501, 'The public square is not enabled');
}
