/**
 * The back office's user management (`adminUser/*`, reference accounts §9.21): list, add or edit,
 * delete (composed in models/backOffice, as it takes the user's memberships too). Site admins only.
 *
 * Departures from ShowDoc, for safety (the response shapes are kept otherwise):
 * - list rows never carry the password hash, its salt or tokens (ShowDoc sent whole rows);
 * - an administrator (groupid 1) and the caller themself are never deleted (ShowDoc protected
 *   neither; its UI only hid the button for role 1);
 * - a user who still owns items or teams is not deleted (ShowDoc refused only for items, leaving
 *   teams without an owner): transfer them first. Nothing of anyone else is ever lost this way;
 * - a new user needs a password (ShowDoc's server accepted an empty one, its UI did not).
 */
import { requireSiteAdmin, type Actor } from '../access';
import { errors, events, formatUnix, formatUnixOrEmpty } from '../platform';
import { ADMIN_GROUP, User, type UserDoc } from './schemas/user';
import { UserToken } from './schemas/userToken';
import {
  createUser,
  findUserByUid,
  hashPassword,
  MAX_PASSWORD_BYTES,
  revokeTokens,
  userChanged,
} from './users';

export const MAX_ADMIN_NAME = 64;
const MAX_SEARCH = 100;

/** Escapes every character a regular expression treats specially (for `$regex` filters). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export interface AdminUserRow {
  uid: string;
  username: string;
  name: string;
  groupid: string;
  email: string;
  is_sso: string;
  reg_time: string;
  last_login_time: string;
}

function adminUserRow(user: UserDoc): AdminUserRow {
  return {
    uid: String(user.uid),
    username: user.username,
    name: user.name ?? '',
    groupid: String(user.groupid),
    email: user.email ?? '',
    is_sso: String(user.is_sso ?? 0),
    reg_time: formatUnix(user.reg_time),
    last_login_time: formatUnixOrEmpty(user.last_login_time ?? 0),
  };
}

/** adminUser/getList: newest first; the search matches uid, username, e-mail or mobile. */
export async function listUsers(
  actor: Actor,
  search: string,
  paging: { page: number; count: number },
): Promise<{ total: number; users: AdminUserRow[] }> {
  requireSiteAdmin(actor);
  const term = search.trim().slice(0, MAX_SEARCH);
  const filter: Record<string, unknown> = {};
  if (term) {
    const like = { $regex: escapeRegExp(term), $options: 'i' };
    const or: Record<string, unknown>[] = [{ username: like }, { email: like }, { mobile: like }];
    if (/^\d+$/.test(term)) or.push({ uid: Number(term) });
    filter.$or = or;
  }
  const [total, rows] = await Promise.all([
    User.countDocuments(filter),
    User.find(filter, { password: 0, salt: 0, _id: 0 })
      .sort({ uid: -1 })
      .skip((paging.page - 1) * paging.count)
      .limit(paging.count)
      .lean<UserDoc[]>(),
  ]);
  return { total, users: rows.map(adminUserRow) };
}

export interface AdminUserInput {
  /** > 0 edits that user; 0 creates one. */
  uid: number;
  username: string;
  password: string;
  name: string;
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_ADMIN_NAME)
    throw errors.failed(`Name must be at most ${MAX_ADMIN_NAME} characters`);
  return name;
}

/**
 * adminUser/addUser: with a uid, changes that user's name and (when given) password — the
 * username is never changed, and a new password logs the user out everywhere; without, creates an
 * ordinary user (password required).
 */
export async function saveUser(actor: Actor, input: AdminUserInput): Promise<void> {
  requireSiteAdmin(actor);
  const name = checkName(input.name);
  if (input.uid > 0) {
    const user = await findUserByUid(input.uid);
    if (!user) throw errors.targetUserNotFound('User not found');
    const set: Partial<UserDoc> = {};
    if (name) set.name = name;
    if (input.password) {
      if (Buffer.byteLength(input.password) > MAX_PASSWORD_BYTES)
        throw errors.failed(`Password must be at most ${MAX_PASSWORD_BYTES} bytes`);
      set.password = await hashPassword(input.password);
      set.salt = '';
    }
    if (!Object.keys(set).length) return;
    await User.updateOne({ uid: user.uid }, { $set: set });
    userChanged(user.uid);
    if (set.password) await revokeTokens(user.uid);
    return;
  }
  if (!input.username.trim()) throw errors.failed('Username is required');
  if (!input.password) throw errors.failed('Password is required for a new user');
  await createUser({ username: input.username, password: input.password, name });
}

/**
 * For adminUser/deleteUser (models/backOffice composes it): the user exists and is no
 * administrator, else the refusal.
 */
export async function requireDeletableUser(uid: number): Promise<void> {
  const user = await findUserByUid(uid);
  if (!user) throw errors.targetUserNotFound('User not found');
  if (user.groupid === ADMIN_GROUP) throw errors.failed('Administrators cannot be deleted');
}

/** The user's row and tokens go (inside the deleting transaction). */
export async function eraseUserRows(uid: number): Promise<void> {
  await UserToken.updateMany({ uid }, { $set: { token: '' } });
  await User.deleteOne({ uid });
}

/** Once a deleted user's rows are gone: their sockets and sessions end, caches forget them. */
export function userErased(uid: number): void {
  // Open sockets and collaborative sessions of the deleted user end at once (realtime/).
  events.publish('session.revoked', { uid });
  userChanged(uid);
}
