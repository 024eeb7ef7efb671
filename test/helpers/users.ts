/**
 * Logged-in users for tests, made without the captcha through the same functions the admin CLI
 * uses (createUser + issueToken). Needs a running test server in this process (its database).
 */
import { randomBytes } from 'node:crypto';
import { createUser, issueToken } from '../../models/accounts/users';

export interface TestUser {
  uid: number;
  username: string;
  password: string;
  user_token: string;
}

export async function makeUser(
  options: { username?: string; password?: string; admin?: boolean; name?: string } = {},
): Promise<TestUser> {
  const username = options.username ?? `u_${randomBytes(5).toString('hex')}`;
  const password = options.password ?? `pw-${randomBytes(6).toString('hex')}`;
  const user = await createUser({ username, password, admin: options.admin, name: options.name });
  const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
  return { uid: user.uid, username, password, user_token: token };
}

/** `count` fresh users (made at the same time). */
export function makeUsers(count: number): Promise<TestUser[]> {
  return Promise.all(Array.from({ length: count }, () => makeUser()));
}
