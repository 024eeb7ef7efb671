/**
 * Password-guessing brake (reference accounts §2.6): after MAX_FAILURES wrong passwords for one
 * username, logins for it are refused for LOCK_SECONDS. Failures count within a sliding window
 * (a new failure more than WINDOW_SECONDS after the previous one starts a new count); a lock that
 * has run out starts a new count too; a successful login clears the count.
 *
 * The count lives in the database (login_attempt), keyed by the lower-cased username, so it holds
 * across API processes and restarts. Captcha failures never reach here: the captcha is checked
 * first, and a request without a right captcha cannot test a password at all.
 */
import { LoginAttempt } from './schemas/loginAttempt';
import { nowSeconds } from '../platform';

export const MAX_FAILURES = 5;
export const LOCK_SECONDS = 300;
const WINDOW_SECONDS = 300;

function keyFor(username: string): string {
  return username.trim().toLowerCase();
}

function purgeAt(seconds: number): Date {
  return new Date(seconds * 1000);
}

/** Seconds the account stays locked (0 when it is not locked). */
export async function lockedFor(username: string): Promise<number> {
  const now = nowSeconds();
  const row = await LoginAttempt.findOne({ key: keyFor(username) }, { locked_until: 1 }).lean();
  return row && row.locked_until > now ? row.locked_until - now : 0;
}

/** Counts a wrong password; locks the account when this was the MAX_FAILURES-th in a row. */
export async function recordLoginFailure(username: string): Promise<void> {
  const key = keyFor(username);
  const now = nowSeconds();
  // An old count (stale window or a lock that ran out) starts over.
  await LoginAttempt.deleteOne({
    key,
    $or: [
      { locked_until: { $gt: 0, $lte: now } },
      { locked_until: { $in: [0, null] }, last_failure: { $lte: now - WINDOW_SECONDS } },
    ],
  });
  const row = await LoginAttempt.findOneAndUpdate(
    { key },
    {
      $inc: { failures: 1 },
      $set: { last_failure: now, purge_at: purgeAt(now + WINDOW_SECONDS + LOCK_SECONDS) },
    },
    { upsert: true, returnDocument: 'after', lean: true },
  );
  if (row && row.failures >= MAX_FAILURES && !(row.locked_until > now)) {
    await LoginAttempt.updateOne(
      { key, locked_until: { $lte: now } },
      { $set: { locked_until: now + LOCK_SECONDS, purge_at: purgeAt(now + LOCK_SECONDS + 60) } },
    );
  }
}

/** Forgets the failures after a successful login. */
export async function clearLoginFailures(username: string): Promise<void> {
  await LoginAttempt.deleteOne({ key: keyFor(username) });
}
