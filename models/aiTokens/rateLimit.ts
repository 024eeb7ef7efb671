/**
 * The MCP endpoint's rate limits: calls per token and per user (all their tokens together) in a
 * 10-minute window, as ShowDoc counts per token (10000 by default). Counted in this process's
 * memory like the other throttles (models/platform/throttle.ts): a brake on a runaway agent, per
 * process when several run.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { perContext } from '../platform';

export const RATE_WINDOW_SECONDS = 600;

export interface RateLimits {
  perToken: number;
  perUser: number;
}

const limiters = perContext(() => new Map<string, RateLimiterMemory>());

function limiter(kind: 'token' | 'user', points: number): RateLimiterMemory {
  const key = `${kind}:${points}`;
  const known = limiters().get(key);
  if (known) return known;
  const created = new RateLimiterMemory({ points, duration: RATE_WINDOW_SECONDS });
  limiters().set(key, created);
  return created;
}

/** What ShowDoc answers with -32008: when the window resets and how long to wait. */
export interface RateRefusal {
  reset_at: number;
  retry_after: number;
}

async function consume(
  kind: 'token' | 'user',
  points: number,
  key: string,
): Promise<RateRefusal | null> {
  try {
    await limiter(kind, points).consume(key);
    return null;
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const retryAfter = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    return { reset_at: Math.floor(Date.now() / 1000) + retryAfter, retry_after: retryAfter };
  }
}

/** Counts one call of the token; the refusal when the token or its user is over the limit. */
export async function consumeAiTokenCall(
  tokenId: number,
  uid: number,
  limits: RateLimits,
): Promise<RateRefusal | null> {
  return (
    (await consume('token', limits.perToken, String(tokenId))) ??
    (await consume('user', limits.perUser, String(uid)))
  );
}
