/**
 * Accounts and login tokens: the functions the CLI, the first-start bootstrap, the test helpers
 * and the user/* API all share. Rules follow reference accounts §2 and §8.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { nextId, ApiError, failure, events, nowSeconds } from '../platform';
import { ADMIN_GROUP, USER_GROUP, User, type UserDoc, type UserDocument } from './schemas/user';
import { UserToken } from './schemas/userToken';

export const TOKEN_TTL_DAYS = 180;
const DAY = 86_400;
/** Token rows expired longer ago than this are deleted on the next token creation. */
const TOKEN_PURGE_AFTER = 5 * 365 * DAY;
const BCRYPT_COST = 10;
export const MAX_PASSWORD_BYTES = 100;
/** ShowDoc's legacy hash pepper (reference accounts §2.7). */
const LEGACY_PEPPER = '576hbgh6';

/** 2–30 characters: ASCII letters, digits, `_`, `-`, or CJK ideographs U+4E00–U+9FA5. */
export const USERNAME_RULE = /^[A-Za-z0-9_\-\u4e00-\u9fa5]{2,30}$/;

function checkPassword(password: string): void {
  if (password === '') throw failure('Password must not be empty');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    throw failure(`Password must be at most ${MAX_PASSWORD_BYTES} bytes`);
}

export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, BCRYPT_COST);
}

function legacyHash(password: string, salt: string): string {
  const md5 = (s: string) => createHash('md5').update(s).digest('hex');
  return md5(Buffer.from(md5(password)).toString('base64') + LEGACY_PEPPER + salt);
}

/** True for bcrypt-shaped hashes; anything else is checked with ShowDoc's legacy formula. */
export function isBcryptHash(hash: string): boolean {
  return /^\$2[aby]\$\d\d\$/.test(hash);
}

/** Checks a password against a stored bcrypt or legacy ShowDoc hash. */
export async function verifyPassword(
  user: Pick<UserDoc, 'password' | 'salt'>,
  password: string,
): Promise<boolean> {
  if (!user.password) return false;
  if (isBcryptHash(user.password)) return bcrypt.compare(password, user.password);
  const expected = Buffer.from(user.password.toLowerCase());
  const actual = Buffer.from(legacyHash(password, user.salt ?? ''));
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * After a successful login with a legacy ShowDoc hash, stores a bcrypt hash in its place. The
 * filter on the old hash keeps a password change made meanwhile from being overwritten.
 */
export async function upgradeLegacyHash(
  uid: number,
  storedHash: string,
  password: string,
): Promise<boolean> {
  if (!storedHash || isBcryptHash(storedHash)) return false;
  const result = await User.updateOne(
    { uid, password: storedHash },
    { $set: { password: await hashPassword(password), salt: '' } },
  );
  return result.modifiedCount === 1;
}

export function findUserByName(username: string): Promise<UserDocument | null> {
  return User.findOne({ username: String(username) });
}

export function findUserByUid(uid: number): Promise<UserDocument | null> {
  return User.findOne({ uid: Number(uid) });
}

async function requireUser(username: string): Promise<UserDocument> {
  const user = await findUserByName(username);
  if (!user) throw new ApiError(10209, `User ${username} not found`);
  return user;
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

export interface NewUser {
  username: string;
  password: string;
  admin?: boolean;
  name?: string;
  email?: string;
}

/** Creates an account (bcrypt password, numeric uid). 10101 on a bad name/password or a taken name. */
export async function createUser(input: NewUser): Promise<UserDocument> {
  const username = input.username.trim();
  if (!USERNAME_RULE.test(username))
    throw failure('Username must be 2-30 characters: letters, digits, _, - or Chinese characters');
  checkPassword(input.password);
  if (await User.exists({ username })) throw failure('Username already exists');

  const user = new User({
    uid: await nextId('uid'),
    username,
    groupid: input.admin ? ADMIN_GROUP : USER_GROUP,
    name: input.name ?? '',
    email: input.email ?? '',
    password: await hashPassword(input.password),
    salt: '',
    reg_time: nowSeconds(),
  });
  try {
    await user.save();
  } catch (error) {
    // Lost a race with another creation of the same name: same answer as the check above.
    if (isDuplicateKey(error)) throw failure('Username already exists');
    throw error;
  }
  events.publish('user.created', { uid: user.uid, username, groupid: user.groupid });
  return user;
}

/** Sets a new bcrypt password (clearing any legacy salt). Tokens are kept unless revoked. */
export async function setPassword(
  username: string,
  password: string,
  options: { revokeTokens?: boolean } = {},
): Promise<UserDocument> {
  checkPassword(password);
  const user = await requireUser(username);
  user.password = await hashPassword(password);
  user.salt = '';
  await user.save();
  if (options.revokeTokens) await revokeTokens(user.uid);
  return user;
}

/** 128 lowercase hex characters: two independent 32-byte draws, as ShowDoc makes them. */
function newTokenValue(): string {
  return randomBytes(32).toString('hex') + randomBytes(32).toString('hex');
}

/**
 * Issues a login token for the user, valid for TOKEN_TTL_DAYS. Like ShowDoc, every issue also
 * blanks expired tokens (of all users) and deletes rows expired for more than five years.
 */
export async function issueToken(
  uid: number,
  options: { ip?: string; ttlDays?: number } = {},
): Promise<{ token: string; expiresAt: number }> {
  const now = nowSeconds();
  await UserToken.updateMany(
    { token_expire: { $lt: now }, token: { $gt: '' } },
    { $set: { token: '' } },
  );
  await UserToken.deleteMany({ token_expire: { $lt: now - TOKEN_PURGE_AFTER } });

  const token = newTokenValue();
  const expiresAt = now + (options.ttlDays ?? TOKEN_TTL_DAYS) * DAY;
  await UserToken.create({
    id: await nextId('user_token_id'),
    uid,
    token,
    token_expire: expiresAt,
    ip: options.ip ?? '',
    addtime: now,
  });
  return { token, expiresAt };
}

/** Issues a token for a user named on the command line (`user:token`). */
export async function issueTokenFor(username: string): Promise<{ uid: number; token: string }> {
  const user = await requireUser(username);
  const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
  return { uid: user.uid, token };
}

/** Blanks every token of the user (logout everywhere). */
export async function revokeTokens(uid: number): Promise<void> {
  await UserToken.updateMany({ uid, token: { $gt: '' } }, { $set: { token: '' } });
}

/** The user a token belongs to, or null (unknown, revoked, or the user is gone). */
export async function userForToken(token: string): Promise<UserDocument | null> {
  // Migrated ShowDoc tokens keep working, so any stored value is looked up, not just 128-hex.
  if (typeof token !== 'string' || token === '' || token.length > 256) return null;
  const row = await UserToken.findOne({ token }, { uid: 1 }).lean();
  if (!row || row.uid <= 0) return null;
  return findUserByUid(row.uid);
}
