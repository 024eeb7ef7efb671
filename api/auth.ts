/**
 * Request authentication for actions: the token travels as ShowDoc sends it (X-API-Token,
 * Bearer, then `user_token`), and is resolved by models/accounts/auth.ts.
 */
import type { ActionContext } from './registry';
import { ApiError } from '../models/platform';
import { ANONYMOUS, authenticateToken, type Authenticated } from '../models/accounts';

const cache = new WeakMap<ActionContext, Promise<Authenticated | null>>();

function resolve(ctx: ActionContext): Promise<Authenticated | null> {
  let pending = cache.get(ctx);
  if (!pending) {
    pending = authenticateToken(ctx.token());
    cache.set(ctx, pending);
  }
  return pending;
}

/** The logged-in caller, or 10102 (not logged in / token invalid or expired). */
export async function requireLogin(ctx: ActionContext): Promise<Authenticated> {
  const auth = await resolve(ctx);
  if (!auth) throw new ApiError(10102);
  return auth;
}

/** The caller if the token is valid, else an anonymous visitor ("optional login" endpoints). */
export async function optionalLogin(ctx: ActionContext): Promise<Authenticated> {
  return (
    (await resolve(ctx)) ?? {
      actor: ANONYMOUS,
      user: null as unknown as Authenticated['user'],
      expiresAt: 0,
    }
  );
}

/** The logged-in caller, who must be a site admin (10103 otherwise). */
export async function requireAdmin(ctx: ActionContext): Promise<Authenticated> {
  const auth = await requireLogin(ctx);
  if (auth.actor.groupid !== 1) throw new ApiError(10103);
  return auth;
}

/** The item visit password the client remembered (`_item_pwd`: query or form only, never JSON). */
export function itemPassword(ctx: ActionContext): string {
  return ctx.params.str('_item_pwd', '', { jsonBody: false });
}
