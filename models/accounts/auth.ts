/**
 * Who a request comes from. Tokens are looked up by exact value and must not have expired
 * (ShowDoc never checked `token_expire` at request time; Quire does, on every request).
 *
 * Read model: token → (user, expiry) is kept in memory, so an authenticated request costs no
 * database round trip. Expiry is compared on every hit. Entries of a user go on
 * `session.revoked` (logout, password change, deletion: tokens blanked) and `user.changed` (any
 * write to the user's row), in this process before the write answers and in every other one as
 * the bus relays the event. Unknown tokens are not kept (a guessed value costs a lookup, as
 * before), so a new token needs no event.
 */
import { UserToken } from './schemas/userToken';
import { User, type UserDoc } from './schemas/user';
import { ANONYMOUS, type Actor } from '../access';
import { noteExpiry, nowSeconds, perContext, ReadCache } from '../platform';

export interface Authenticated {
  actor: Actor;
  user: Omit<UserDoc, 'password' | 'salt'>;
  /** When the token stops being valid (Unix seconds): long-lived sessions re-check it. */
  expiresAt: number;
}

/** Tokens kept (about 1 KB each with their user): far more than a site's active sessions. */
export const MAX_CACHED_TOKENS = 20_000;

const tokenCache = perContext((context) => {
  const cache = new ReadCache<string, Authenticated | null>({
    maxEntries: MAX_CACHED_TOKENS,
    keep: (value) => value !== null,
  });
  const dropUser = ({ uid }: { uid: number }) =>
    cache.dropWhere((_token, auth) => auth?.actor.uid === uid);
  context.bus.subscribe('session.revoked', dropUser, { synchronous: true });
  context.bus.subscribe('user.changed', dropUser, { synchronous: true });
  return cache;
});

async function loadToken(token: string): Promise<Authenticated | null> {
  const row = await UserToken.findOne({ token }, { uid: 1, token_expire: 1 }).lean();
  if (!row || row.uid <= 0) return null;
  const user = await User.findOne({ uid: row.uid }, { password: 0, salt: 0, _id: 0 }).lean<
    Omit<UserDoc, 'password' | 'salt'>
  >();
  if (!user) return null;
  return {
    actor: { uid: user.uid, username: user.username, groupid: user.groupid },
    user,
    expiresAt: row.token_expire,
  };
}

export async function authenticateToken(token: string): Promise<Authenticated | null> {
  if (typeof token !== 'string' || token === '' || token.length > 256) return null;
  const auth = await tokenCache().get(token, () => loadToken(token));
  if (!auth || auth.expiresAt <= nowSeconds()) return null;
  noteExpiry(auth.expiresAt);
  return auth;
}

export { ANONYMOUS };
