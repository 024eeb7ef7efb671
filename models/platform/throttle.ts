/**
 * Request throttles against guessing and scraping (issue #16): one named limiter per concern,
 * counted per key (a client address, a user, an item + client pair) in a fixed window. Counts
 * live in this process's memory (rate-limiter-flexible): they reset on restart and are per
 * process when several run behind a balancer — a brake on abuse, not an accounting system. The
 * login lock (loginThrottle.ts) is the one that must hold across processes, and is stored.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { perContext } from './context';
import { type ApiError, errors } from './errors';

/** points = requests allowed per `duration` seconds. */
const LIMITS = {
  /** common/createCaptcha, per client address. */
  captcha: { points: 60, duration: 60 },
  /** user/register*, per client address. */
  register: { points: 10, duration: 3600 },
  /** Wrong item visit passwords (item/pwd and `_item_pwd`), per item and client address. */
  itemPassword: { points: 10, duration: 300 },
  /** user/allUser (the member picker), per user. */
  userSearch: { points: 60, duration: 60 },
  /** Socket.IO `watch` subscriptions, per user. */
  watch: { points: 120, duration: 60 },
  /** ai/create (each answer costs the site's AI account), per user. */
  aiCreate: { points: 20, duration: 60 },
  /** httpRelay/send (the HTTP test tool's server relay), per user. */
  httpRelay: { points: 60, duration: 60 },
} as const;

export type ThrottleName = keyof typeof LIMITS;

/** The instance's counters (per context: two instances in one process count apart). */
const limiters = perContext(
  () =>
    Object.fromEntries(
      Object.entries(LIMITS).map(([name, limit]) => [name, new RateLimiterMemory(limit)]),
    ) as Record<ThrottleName, RateLimiterMemory>,
);

function refusal(name: ThrottleName, waitMs: number): ApiError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return errors.refused(
    name === 'itemPassword'
      ? `Too many wrong passwords, try again in ${seconds} s`
      : `Too many requests, try again in ${seconds} s`,
  );
}

/** Counts one request; throws 10100 once the key is over its limit. */
export async function throttle(name: ThrottleName, key: string): Promise<void> {
  try {
    await limiters()[name].consume(key);
  } catch (error) {
    if (error instanceof RateLimiterRes) throw refusal(name, error.msBeforeNext);
    throw error;
  }
}

/** Throws 10100 when the key is already over its limit, without counting this request. */
export async function requireUnderLimit(name: ThrottleName, key: string): Promise<void> {
  const state = await limiters()[name].get(key);
  if (state && state.consumedPoints >= LIMITS[name].points) throw refusal(name, state.msBeforeNext);
}

/** Counts one failure (for limits that only count misses, like visit passwords). */
export async function countFailure(name: ThrottleName, key: string): Promise<void> {
  await limiters()[name].penalty(key, 1);
}

/** Counts one request; false when the key is over its limit (for callers with their own answer). */
export async function tryConsume(name: ThrottleName, key: string): Promise<boolean> {
  try {
    await limiters()[name].consume(key);
    return true;
  } catch (error) {
    if (error instanceof RateLimiterRes) return false;
    throw error;
  }
}
