/**
 * Accounts and login tokens: the functions the CLI, the first-start bootstrap, the test helpers
 * and the user/* API all share. Rules follow reference accounts §2 and §8.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { errors, events, failure, nextId, nowSeconds, perContext, ReadCache } from '../platform';
import { ADMIN_GROUP, USER_GROUP, User, type UserDoc, type UserDocument } from './schemas/user';
import { UserToken } from './schemas/userToken';

export const TOKEN_TTL_DAYS = 180;
const DAY = 86_400;
/** Token rows expired longer ago than this are deleted on the next token creation. */
const TOKEN_PURGE_AFTER = 5 * 365 * DAY;
const BCRYPT_COST = 10;
/**
 * bcrypt reads only the first 72 bytes of a password: a longer one would silently share its hash
 * with every password starting the same way. New passwords are therefore refused over 72 bytes
 * (a clear error, rather than pre-hashing, so stored hashes stay plain bcrypt that any ShowDoc
 * tool can verify). Logins still verify longer ones (accounts made when the limit was 100 keep
 * working).
 */
export const MAX_PASSWORD_BYTES = 72;
/** ShowDoc's legacy hash pepper (reference accounts §2.7). */
const LEGACY_PEPPER = '576hbgh6';

/** 2–30 characters: ASCII letters, digits, `_`, `-`, or CJK ideographs U+4E00–U+9FA5. */
export const USERNAME_RULE = /^[A-Za-z0-9_\-\u4e00-\u9fa5]{2,30}$/;

function checkPassword(password: string): void {
  if (password === '') throw failure('Password must not be empty');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    throw failure(`Password must be at most ${MAX_PASSWORD_BYTES} bytes (UTF-8)`);
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
  userChanged(uid);
  return result.modifiedCount === 1;
}

function exactly(text: string): RegExp {
  return new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'i');
}

/**
 * The account with this username, case-insensitively (`Alice` finds `alice`, as ShowDoc's MySQL
 * collation did). An exact match wins; when only differently-cased names match and there are
 * several (clashes older than the uniqueness rule, reported at start), none is picked.
 */
export async function findUserByName(username: string): Promise<UserDocument | null> {
  const name = String(username);
  const exact = await User.findOne({ username: name });
  if (exact || !USERNAME_RULE.test(name)) return exact;
  const matches = await User.find({ username: { $regex: exactly(name) } }).limit(2);
  return matches.length === 1 ? matches[0] : null;
}

/** True when an account already has this username in any letter case. */
export async function usernameTaken(username: string): Promise<boolean> {
  return (await User.exists({ username: { $regex: exactly(username) } })) !== null;
}

/** Groups of usernames that differ only in case (from before the rule); reported at start. */
export async function usernameClashes(): Promise<string[][]> {
  const rows = await User.find({}, { username: 1, _id: 0 }).lean<{ username: string }[]>();
  const groups = new Map<string, string[]>();
  for (const { username } of rows) {
    const key = username.toLowerCase();
    groups.set(key, [...(groups.get(key) ?? []), username]);
  }
  return [...groups.values()].filter((names) => names.length > 1);
}

export function findUserByUid(uid: number): Promise<UserDocument | null> {
  return User.findOne({ uid: Number(uid) });
}

async function requireUser(username: string): Promise<UserDocument> {
  const user = await findUserByName(username);
  if (!user) throw errors.targetUserNotFound(`User ${username} not found`);
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
  if (await usernameTaken(username)) throw failure('Username already exists');

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

/**
 * Tells every process that the user's row changed (the read model drops its token → user
 * entries and its actor row of that user). Every write to a user row calls it.
 */
export function userChanged(uid: number): void {
  events.publish('user.changed', { uid });
}

/** What access checks and notice counts need of a user. */
export interface ActorRow {
  uid: number;
  username: string;
  groupid: number;
  reg_time: number;
}

/** Users whose actor row is kept (read model; dropped on `user.changed`). */
export const MAX_CACHED_ACTOR_ROWS = 50_000;

const actorRows = perContext((context) => {
  const cache = new ReadCache<number, ActorRow | null>({
    maxEntries: MAX_CACHED_ACTOR_ROWS,
    keep: (row) => row !== null,
  });
  context.bus.subscribe('user.changed', ({ uid }) => cache.drop(uid), { synchronous: true });
  return cache;
});

/**
 * The actor rows of these users (those who exist), through the read model: a reminder to
 * hundreds of subscribers checks their access and counts their notices without reading every
 * one of their rows again.
 */
export async function actorRowsOf(uids: number[]): Promise<ActorRow[]> {
  const found = await actorRows().getMany([...new Set(uids)], async (missing) => {
    const rows = await User.find(
      { uid: { $in: missing } },
      { uid: 1, username: 1, groupid: 1, reg_time: 1, _id: 0 },
    ).lean();
    const byUid = new Map<number, ActorRow | null>(missing.map((uid) => [uid, null]));
    for (const row of rows)
      byUid.set(row.uid, {
        uid: row.uid,
        username: row.username,
        groupid: row.groupid,
        reg_time: row.reg_time ?? 0,
      });
    return byUid;
  });
  return [...found.values()].filter((row): row is ActorRow => row !== null);
}

/** Blanks every token of the user (logout everywhere). */
export async function revokeTokens(uid: number): Promise<void> {
  await UserToken.updateMany({ uid, token: { $gt: '' } }, { $set: { token: '' } });
  // Sockets and collaborative sessions opened with those tokens are closed at once (realtime/).
  events.publish('session.revoked', { uid });
}

/** The user a token belongs to, or null (unknown, revoked, or the user is gone). */
export async function userForToken(token: string): Promise<UserDocument | null> {
  // Migrated ShowDoc tokens keep working, so any stored value is looked up, not just 128-hex.
  if (typeof token !== 'string' || token === '' || token.length > 256) return null;
  const row = await UserToken.findOne({ token }, { uid: 1 }).lean();
  if (!row || row.uid <= 0) return null;
  return findUserByUid(row.uid);
}
