/**
 * The account use cases behind user/*: password login, registration, password change, profile,
 * user search and the per-user push address. Rules and their order follow reference accounts
 * §2 and §8; where ShowDoc was weak Quire is stricter (see the notes at each function).
 */
import { errors, failure, formatNow, nowSeconds, throttle } from '../platform';
import { checkCaptcha } from './captcha';
import { loginWithLdap } from './ldap';
import { clearLoginFailures, lockedFor, recordLoginFailure } from './loginThrottle';
import { User, type UserDoc } from './schemas/user';
import { UserSetting } from './schemas/userSetting';
import { getSiteSettings } from '../settings';
import {
  MAX_PASSWORD_BYTES,
  USERNAME_RULE,
  createUser,
  findUserByName,
  hashPassword,
  issueToken,
  revokeTokens,
  upgradeLegacyHash,
  userChanged,
  usernameTaken,
  verifyPassword,
} from './users';

/** A user row without its secrets: what the API may shape into answers. */
export type PublicUser = Omit<UserDoc, 'password' | 'salt'>;

export interface LoginResult {
  user: PublicUser;
  token: string;
}

export interface CaptchaAnswer {
  captchaId: number;
  captcha: string;
}

/** Longer login passwords are refused without hashing them (none can be stored: §2.7). */
const MAX_LOGIN_PASSWORD_BYTES = 1024;
export const MAX_NAME_LENGTH = 64;
export const MAX_USER_SEARCH_LENGTH = 200;
export const USER_SEARCH_LIMIT = 10;
export const USER_SEARCH_MIN_PREFIX = 3;
const MAX_PUSH_URL_LENGTH = 2000;
/** Checked when the username is unknown, so both answers take as long as a real check. */
let dummyHash: Promise<string> | undefined;

const USERNAME_MESSAGE =
  'Username must be 2-30 characters: letters, digits, _, - or Chinese characters';
// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f]/;

function withoutSecrets(user: UserDoc): PublicUser {
  const { password: _password, salt: _salt, ...rest } = user;
  return rest;
}

/** ShowDoc's strong-password policy: every rule the password breaks, or [] (§2.7). */
export function passwordPolicyProblems(password: string): string[] {
  const problems: string[] = [];
  if ([...password].length < 8) problems.push('at least 8 characters');
  if (!/[a-z]/.test(password)) problems.push('a lowercase letter');
  if (!/[A-Z]/.test(password)) problems.push('an uppercase letter');
  if (!/\d/.test(password)) problems.push('a digit');
  if (!/[^A-Za-z0-9]/.test(password)) problems.push('a symbol');
  return problems;
}

/** Checks a new password against the length limit and, when enabled, the strong policy. */
async function checkNewPassword(password: string): Promise<void> {
  if (password === '') throw failure('Password must not be empty');
  if (Buffer.byteLength(password) > MAX_PASSWORD_BYTES)
    throw failure(`Password must be at most ${MAX_PASSWORD_BYTES} bytes (UTF-8)`);
  if ((await getSiteSettings()).strongPasswordEnabled) {
    const problems = passwordPolicyProblems(password);
    if (problems.length) throw failure(`The password needs ${problems.join(', ')}`);
  }
}

async function requireCaptcha(answer: CaptchaAnswer): Promise<void> {
  if (!(await checkCaptcha(answer.captchaId, answer.captcha)))
    throw errors.captchaWrong('Captcha incorrect or expired');
}

async function requireNotLocked(username: string): Promise<void> {
  const seconds = await lockedFor(username);
  if (seconds > 0)
    throw errors.accountLocked(
      `Too many failed logins: try again in ${Math.ceil(seconds / 60)} minute(s)`,
    );
}

/** A token for a password login or registration, with the site's `token_ttl_days`. */
async function startSession(uid: number, ip: string): Promise<string> {
  const { tokenTtlDays } = await getSiteSettings();
  const now = nowSeconds();
  await User.updateOne({ uid }, { $set: { last_login_time: now } });
  userChanged(uid);
  return (await issueToken(uid, { ip, ttlDays: tokenTtlDays })).token;
}

/**
 * `user/login`: empty → 10101, bad username → 10101, captcha → 10206, locked → 10204, wrong
 * credentials → 10210 (and counted). Success clears the count, upgrades a legacy hash to bcrypt,
 * stamps last_login_time and issues a token. Unlike ShowDoc, no sample items are imported.
 */
export async function loginWithPassword(
  input: { username: string; password: string; ip: string } & CaptchaAnswer,
): Promise<LoginResult> {
  const username = input.username.trim();
  const { password } = input;
  if (username === '' || password === '') throw failure('Username and password are required');
  if (!USERNAME_RULE.test(username)) throw failure(USERNAME_MESSAGE);
  await requireCaptcha(input);
  await requireNotLocked(username);

  const user = (await findUserByName(username))?.toObject<UserDoc>() ?? null;
  let valid = false;
  if (Buffer.byteLength(password) <= MAX_LOGIN_PASSWORD_BYTES) {
    if (user) valid = await verifyPassword(user, password);
    else
      await verifyPassword(
        { password: await (dummyHash ??= hashPassword('-')), salt: '' },
        password,
      );
  }
  // Refused locally: the directory may know the user (LDAP login, when switched on).
  let account: UserDoc | null;
  try {
    account = user && valid ? user : await loginWithLdap(username, password);
  } catch (error) {
    // A directory that cannot be asked still counts the attempt against the lockout.
    await recordLoginFailure(username);
    throw error;
  }
  if (!account) {
    await recordLoginFailure(username);
    throw errors.badCredentials('Wrong username or password');
  }

  await clearLoginFailures(username);
  if (account === user) await upgradeLegacyHash(user.uid, user.password, password);
  const token = await startSession(account.uid, input.ip);
  return { user: { ...withoutSecrets(account), last_login_time: nowSeconds() }, token };
}

/**
 * `user/register`: closed → 10101, then the field checks (§8.2 order), captcha → 10206, name taken
 * → 10101. Creates the account (which publishes `user.created`) and logs it in.
 */
export async function registerWithPassword(
  input: {
    username: string;
    password: string;
    confirmPassword: string;
    ip: string;
  } & CaptchaAnswer,
): Promise<LoginResult> {
  if (!(await getSiteSettings()).registerOpen) throw failure('Registration is closed');
  await throttle('register', input.ip);
  const username = input.username.trim();
  const { password } = input;
  if (username === '' || password === '') throw failure('Username and password are required');
  if (!USERNAME_RULE.test(username)) throw failure(USERNAME_MESSAGE);
  await checkNewPassword(password);
  if (password !== input.confirmPassword) throw failure('The two passwords do not match');
  await requireCaptcha(input);
  if (await usernameTaken(username)) throw failure('Username already exists');

  const created = await createUser({ username, password });
  const token = await startSession(created.uid, input.ip);
  const user = await User.findOne({ uid: created.uid }).lean<UserDoc>();
  if (!user) throw failure('Registration failed, please try again');
  return { user: withoutSecrets(user), token };
}

/**
 * `user/resetPassword`: the current password is required. Quire counts a wrong current password
 * like a failed login (and honours the lock), so a stolen token cannot be used to guess the
 * password without limit. Success blanks every token of the user, the caller's included.
 */
export async function changePassword(
  uid: number,
  input: { currentPassword: string; newPassword: string },
): Promise<void> {
  await checkNewPassword(input.newPassword);
  const user = await User.findOne({ uid }).lean<UserDoc>();
  if (!user) throw errors.notLoggedIn();
  await requireNotLocked(user.username);
  const current = input.currentPassword;
  const valid =
    current !== '' &&
    Buffer.byteLength(current) <= MAX_LOGIN_PASSWORD_BYTES &&
    (await verifyPassword(user, current));
  if (!valid) {
    await recordLoginFailure(user.username);
    throw failure('The current password is incorrect');
  }
  await User.updateOne(
    { uid },
    {
      $set: {
        password: await hashPassword(input.newPassword),
        salt: '',
        last_login_time: nowSeconds(),
      },
    },
  );
  userChanged(uid);
  await revokeTokens(uid);
}

/** `user/updateInfo`: the display name, trimmed, at most MAX_NAME_LENGTH characters. */
export async function updateDisplayName(uid: number, rawName: string): Promise<void> {
  const name = rawName.trim();
  if ([...name].length > MAX_NAME_LENGTH)
    throw failure(`Name must be at most ${MAX_NAME_LENGTH} characters`);
  if (CONTROL_CHARS.test(name)) throw failure('Name must not contain control characters');
  await User.updateOne({ uid }, { $set: { name } });
  userChanged(uid);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export interface UserSummary {
  uid: number;
  username: string;
  name: string;
}

/**
 * The search behind `user/allUser` (models/members/people.ts lists the empty and short queries'
 * answer from it): the directory must not be listable. A term of at least
 * USER_SEARCH_MIN_PREFIX characters finds usernames starting with it (case-insensitive, literal),
 * oldest first, at most USER_SEARCH_LIMIT; a shorter term finds only the account with exactly that
 * username; an empty term finds nobody. Counted per searching user (throttle `userSearch`).
 * ShowDoc listed every match; admins keep the full list in the admin screen.
 */
export async function searchUsers(searcherUid: number, term: string): Promise<UserSummary[]> {
  await throttle('userSearch', String(searcherUid));
  const text = [...term.trim()].slice(0, MAX_USER_SEARCH_LENGTH).join('');
  if (text === '') return [];
  const pattern =
    [...text].length >= USER_SEARCH_MIN_PREFIX
      ? `^${escapeRegExp(text)}`
      : `^${escapeRegExp(text)}$`;
  const rows = await User.find(
    { username: { $regex: pattern, $options: 'i' } },
    { uid: 1, username: 1, name: 1, _id: 0 },
  )
    .sort({ uid: 1 })
    .limit(USER_SEARCH_LIMIT)
    .lean<Pick<UserDoc, 'uid' | 'username' | 'name'>[]>();
  return rows.map((row) => ({ uid: row.uid, username: row.username, name: row.name ?? '' }));
}

/** The address the user's notifications are pushed to ('' when none). */
export async function getPushUrl(uid: number): Promise<string> {
  const row = await UserSetting.findOne({ uid, key_name: 'push_url' }, { key_value: 1 }).lean();
  return row?.key_value ?? '';
}

/**
 * The push addresses of these users, one query for all of them (a page with hundreds of
 * subscribers is saved without hundreds of lookups); users without one are left out.
 */
export async function pushUrlsOf(uids: readonly number[]): Promise<Map<number, string>> {
  if (!uids.length) return new Map();
  const rows = await UserSetting.find(
    { uid: { $in: [...uids] }, key_name: 'push_url', key_value: { $nin: ['', null] } },
    { uid: 1, key_value: 1, _id: 0 },
  ).lean();
  return new Map(rows.filter((r) => r.key_value).map((r) => [r.uid, r.key_value as string]));
}

/**
 * Stores the push address. Only http(s) URLs (or '' to clear) are accepted: the server will call
 * this address, so anything else is refused here rather than when it is used.
 */
export async function savePushUrl(uid: number, rawUrl: string): Promise<void> {
  const url = rawUrl.trim();
  if (url.length > MAX_PUSH_URL_LENGTH)
    throw failure(`The push URL must be at most ${MAX_PUSH_URL_LENGTH} characters`);
  if (url !== '') {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw failure('The push URL must be an http or https address');
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      throw failure('The push URL must be an http or https address');
  }
  await UserSetting.updateOne(
    { uid, key_name: 'push_url' },
    { $set: { key_value: url }, $setOnInsert: { addtime: formatNow() } },
    { upsert: true },
  );
}
