/**
 * What one answer and one asker may cost the site's AI account: questions per user and per guest
 * address in a 10-minute window (ASSISTANT_USER_RATE_LIMIT, ASSISTANT_GUEST_RATE_LIMIT), tokens
 * per model call and model calls per answer. Counted in this process's memory like the other
 * throttles (a brake on abuse, per process when several run). Also the answers running here, so
 * agent/agentCancel can abort the one a session is waiting for.
 */
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { errors, perContext } from '../platform';

export const ASK_WINDOW_SECONDS = 600;

export interface AssistantLimits {
  /** Questions per logged-in user per window. */
  perUser: number;
  /** Questions per guest client address per window. */
  perGuestAddress: number;
  /** max_tokens of each model call. */
  maxTokens: number;
  /** Model calls per answer (tool rounds + the answer). */
  maxSteps: number;
}

export const DEFAULT_ASSISTANT_LIMITS: AssistantLimits = {
  perUser: 60,
  perGuestAddress: 20,
  maxTokens: 1024,
  maxSteps: 6,
};

const limiters = perContext(() => new Map<string, RateLimiterMemory>());

function limiter(kind: 'user' | 'guest', points: number): RateLimiterMemory {
  const key = `${kind}:${points}`;
  let found = limiters().get(key);
  if (!found) {
    found = new RateLimiterMemory({ points, duration: ASK_WINDOW_SECONDS });
    limiters().set(key, found);
  }
  return found;
}

/** Counts one question; 10429 (ShowDoc's code) once the asker is over the limit. */
export async function countQuestion(
  limits: AssistantLimits,
  asker: { uid: number; client: string },
): Promise<void> {
  const [kind, points, key] =
    asker.uid > 0
      ? (['user', limits.perUser, String(asker.uid)] as const)
      : (['guest', limits.perGuestAddress, asker.client || 'unknown'] as const);
  try {
    await limiter(kind, points).consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    const seconds = Math.max(1, Math.ceil(error.msBeforeNext / 1000));
    throw errors.tooManyRequests(`Too many questions, try again in ${seconds} s`);
  }
}

/** Running answers by session: agentCancel aborts them (all of the session's, or one turn's). */
const running = perContext(() => new Map<number, Map<string, AbortController>>());

export function registerTurn(sessionId: number, turnToken: string): AbortController {
  const controller = new AbortController();
  const turns = running().get(sessionId) ?? new Map<string, AbortController>();
  turns.get(turnToken)?.abort();
  turns.set(turnToken, controller);
  running().set(sessionId, turns);
  return controller;
}

export function endTurn(sessionId: number, turnToken: string, controller: AbortController): void {
  const turns = running().get(sessionId);
  if (turns?.get(turnToken) !== controller) return;
  turns.delete(turnToken);
  if (!turns.size) running().delete(sessionId);
}

/** Aborts the session's running answers (one turn when `turnToken` is given); how many. */
export function cancelTurns(sessionId: number, turnToken: string): number {
  const turns = running().get(sessionId);
  if (!turns) return 0;
  let cancelled = 0;
  for (const [token, controller] of turns)
    if (!turnToken || token === turnToken) {
      controller.abort();
      cancelled++;
    }
  return cancelled;
}
