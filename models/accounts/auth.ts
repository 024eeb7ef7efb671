/**
 * Who a request comes from. Tokens are looked up by exact value and must not have expired
 * (ShowDoc never checked `token_expire` at request time; Quire does, on every request).
 */
import { UserToken } from './schemas/userToken';
import { User, type UserDoc } from './schemas/user';
import { ANONYMOUS, type Actor } from '../access';
import { nowSeconds } from '../platform';

export interface Authenticated {
  actor: Actor;
  user: Omit<UserDoc, 'password' | 'salt'>;
  /** When the token stops being valid (Unix seconds): long-lived sessions re-check it. */
  expiresAt: number;
}

export async function authenticateToken(token: string): Promise<Authenticated | null> {
  if (typeof token !== 'string' || token === '' || token.length > 256) return null;
  const row = await UserToken.findOne({ token }, { uid: 1, token_expire: 1 }).lean();
  if (!row || row.uid <= 0 || row.token_expire <= nowSeconds()) return null;
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

export { ANONYMOUS };
