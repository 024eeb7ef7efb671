/**
 * External login (`ExtLogin/*`, reference accounts §9.25): OAuth2 authorization code and the
 * generic-access secret-key link. Both end in a login code — single use, one minute — that the
 * web app's token-login bridge redeems for a token, so no token ever travels in a URL.
 *
 * Departures from ShowDoc, for safety:
 * - OAuth2 `state` is always required and must match the one this browser was given (a cookie)
 *   and still be pending (single use, ten minutes); ShowDoc let any state through when its session
 *   had none;
 * - neither OAuth2 nor a secret-key link ever logs in a local administrator (ShowDoc blocked
 *   admins for secret-key links only);
 * - a secret-key link is valid one minute either side of its `time` and only once (ShowDoc
 *   accepted any future time, replayable).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ApiError, errors, isAddressRefusal, nowSeconds, policyFetch } from '../platform';
import { decodeJsonOption, getSetting } from '../settings';
import { ExtLoginTicket, type ExtLoginTicketDoc } from './schemas/extLoginTicket';
import { ADMIN_GROUP, User, type UserDoc } from './schemas/user';
import { createUser, issueToken, userChanged, USERNAME_RULE } from './users';

const STATE_TTL_S = 600;
const CODE_TTL_S = 60;
const LINK_WINDOW_S = 60;
const SSO_TOKEN_TTL_DAYS = 180;
const HTTP_TIMEOUT_MS = 10_000;
const USERNAME_KEYS = ['preferred_username', 'name', 'username', 'login'];

const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');
const failed = (message: string) => errors.failed(message);

/** Same-site paths only (a single leading `/`, no scheme): anything else goes to the item list. */
export function safeRedirect(raw: string): string {
  return /^\/(?!\/)/.test(raw) && !raw.includes('://') && !raw.includes('\\') ? raw : '';
}

async function putTicket(
  kind: ExtLoginTicketDoc['kind'],
  value: string,
  ttlSeconds: number,
  extra: { uid?: number; redirect?: string } = {},
): Promise<void> {
  await ExtLoginTicket.create({
    key: sha256(value),
    kind,
    uid: extra.uid ?? 0,
    redirect: extra.redirect ?? '',
    expires_at: new Date(Date.now() + ttlSeconds * 1000),
  });
}

/** Deletes and returns a pending ticket (null when unknown, of another kind, or expired). */
async function takeTicket(kind: ExtLoginTicketDoc['kind'], value: string) {
  if (!value) return null;
  const row = await ExtLoginTicket.findOneAndDelete({ key: sha256(value), kind }).lean();
  return row && row.expires_at.getTime() > Date.now() ? row : null;
}

/** The local user an external identity stands for (created when missing); never an admin. */
async function localUserFor(username: string, name: string): Promise<UserDoc> {
  if (!USERNAME_RULE.test(username)) throw failed('The provider gave an unusable username');
  let user = await User.findOne({ username }).lean<UserDoc>();
  if (user?.groupid === ADMIN_GROUP)
    throw failed('Administrators cannot log in through external login');
  if (!user)
    user = (
      await createUser({ username, password: randomBytes(24).toString('hex'), name })
    ).toObject<UserDoc>();
  const set: Partial<UserDoc> = { is_sso: 1 };
  if (name) set.name = name.slice(0, 64);
  await User.updateOne({ uid: user.uid }, { $set: set });
  userChanged(user.uid);
  return { ...user, ...set };
}

async function loginCodeFor(
  uid: number,
  redirect: string,
): Promise<{ code: string; redirect: string }> {
  const code = randomBytes(24).toString('hex');
  await putTicket('login_code', code, CODE_TTL_S, { uid, redirect });
  return { code, redirect };
}

/** `ExtLogin/redeem`: a login code → a token (once). 10101 when unknown, used or expired. */
export async function redeemLoginCode(code: string, ip: string): Promise<{ user_token: string }> {
  const ticket = await takeTicket('login_code', code);
  if (!ticket) throw failed('This login link has expired; please log in again');
  await User.updateOne({ uid: ticket.uid }, { $set: { last_login_time: nowSeconds() } });
  userChanged(ticket.uid);
  const { token } = await issueToken(ticket.uid, { ip, ttlDays: SSO_TOKEN_TTL_DAYS });
  return { user_token: token };
}

// ---------------------------------------------------------------------------------------------
// OAuth2

interface OAuth2Form {
  clientId: string;
  clientSecret: string;
  origin: string;
  authorizePath: string;
  tokenPath: string;
  userinfoPath: string;
  redirectUri: string;
  scope: string;
}

async function oauth2Form(callbackUrl: string): Promise<OAuth2Form> {
  const form =
    (await getSetting('oauth2_open')) === '1'
      ? decodeJsonOption(await getSetting('oauth2_form'))
      : null;
  const text = (key: string) =>
    typeof form?.[key] === 'string' ? (form[key] as string).trim() : '';
  if (!form || !text('client_id') || !text('host')) throw failed('OAuth2 login is not enabled');
  const protocol = text('protocol') === 'http' ? 'http' : 'https';
  return {
    clientId: text('client_id'),
    clientSecret: text('client_secret'),
    origin: `${protocol}://${text('host').replace(/\/+$/, '')}`,
    authorizePath: text('authorize_path'),
    tokenPath: text('token_path'),
    userinfoPath: text('userinfo_path'),
    redirectUri: text('redirectUri') || callbackUrl,
    scope: text('scope'),
  };
}

/** A provider path, or an absolute URL where ShowDoc allowed one (userinfo). */
function providerUrl(form: OAuth2Form, pathOrUrl: string): URL {
  return /^https?:\/\//i.test(pathOrUrl) ? new URL(pathOrUrl) : new URL(pathOrUrl, form.origin);
}

/** Step 1: where to send the browser, and the state to pin to it (cookie). */
export async function startOauth2(
  callbackUrl: string,
  redirect: string,
): Promise<{ url: string; state: string }> {
  const form = await oauth2Form(callbackUrl);
  const state = randomBytes(24).toString('hex');
  await putTicket('oauth2_state', state, STATE_TTL_S, { redirect: safeRedirect(redirect) });
  const url = providerUrl(form, form.authorizePath);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', form.clientId);
  url.searchParams.set('redirect_uri', form.redirectUri);
  url.searchParams.set('state', state);
  if (form.scope) url.searchParams.set('scope', form.scope);
  return { url: url.toString(), state };
}

async function fetchJson(url: URL, init: RequestInit): Promise<Record<string, unknown>> {
  let response: Response;
  try {
    response = await policyFetch(url, { ...init, signal: AbortSignal.timeout(HTTP_TIMEOUT_MS) });
  } catch (error) {
    // The user learns why, not which address the provider's name resolved to.
    if (isAddressRefusal(error))
      throw failed(
        'The OAuth2 provider is on a private address this site may not connect to. Please contact the administrator',
      );
    throw error;
  }
  const body: unknown = await response.json().catch(() => null);
  if (!response.ok || !body || typeof body !== 'object')
    throw failed(`The OAuth2 provider refused the request (HTTP ${response.status})`);
  return body as Record<string, unknown>;
}

/** The first username-like key in the order the provider lists them, searching nested objects. */
function usernameIn(info: Record<string, unknown>): string {
  for (const [key, value] of Object.entries(info))
    if (USERNAME_KEYS.includes(key) && typeof value === 'string' && value) return value;
  for (const value of Object.values(info))
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      const nested = usernameIn(value as Record<string, unknown>);
      if (nested) return nested;
    }
  return '';
}

/**
 * Step 2 (the provider sent the browser back): the state must be this browser's pending one;
 * the code is exchanged, the user info read and mapped to a local user; returns a login code.
 */
export async function finishOauth2(input: {
  code: string;
  state: string;
  browserState: string;
  callbackUrl: string;
}): Promise<{ code: string; redirect: string }> {
  const form = await oauth2Form(input.callbackUrl);
  const sameBrowser =
    input.state.length > 0 &&
    input.state.length === input.browserState.length &&
    timingSafeEqual(Buffer.from(input.state), Buffer.from(input.browserState));
  const ticket = sameBrowser ? await takeTicket('oauth2_state', input.state) : null;
  if (!ticket) throw failed('Invalid state: please start the login again');
  let tokens: Record<string, unknown>;
  try {
    tokens = await fetchJson(providerUrl(form, form.tokenPath), {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        accept: 'application/json',
        authorization: `Basic ${Buffer.from(
          `${encodeURIComponent(form.clientId)}:${encodeURIComponent(form.clientSecret)}`,
        ).toString('base64')}`,
      },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: input.code,
        redirect_uri: form.redirectUri,
        client_id: form.clientId,
      }).toString(),
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failed('The OAuth2 provider cannot be reached');
  }
  const accessToken = typeof tokens.access_token === 'string' ? tokens.access_token : '';
  if (!accessToken) throw failed('The OAuth2 provider gave no access token');
  let info: Record<string, unknown>;
  try {
    info = await fetchJson(providerUrl(form, form.userinfoPath), {
      headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' },
    });
  } catch (error) {
    if (error instanceof ApiError) throw error;
    throw failed('The OAuth2 provider cannot be reached');
  }
  const username = usernameIn(info);
  if (!username) throw failed('The OAuth2 user info has no username');
  const name = typeof info.name === 'string' && info.name !== username ? info.name : '';
  const user = await localUserFor(username, name);
  return loginCodeFor(user.uid, ticket.redirect);
}

// ---------------------------------------------------------------------------------------------
// Generic access: secret-key links

/**
 * `ExtLogin/bySecretKey`: `token` = MD5(username + login_secret_key + time) (ShowDoc's link
 * format), `time` within a minute of now, each link once; returns a login code.
 */
export async function loginBySecretKey(input: {
  username: string;
  time: number;
  token: string;
  name: string;
  redirect: string;
}): Promise<{ code: string; redirect: string }> {
  const key = await getSetting('login_secret_key');
  if (!key) throw failed('Secret-key login is not configured');
  if (!(Math.abs(nowSeconds() - input.time) <= LINK_WINDOW_S))
    throw failed('This login link has expired');
  const expected = createHash('md5').update(`${input.username}${key}${input.time}`).digest('hex');
  const given = input.token.toLowerCase();
  if (
    given.length !== expected.length ||
    !timingSafeEqual(Buffer.from(given), Buffer.from(expected))
  )
    throw failed('Invalid login link');
  try {
    await putTicket('secret_link', `${input.username}:${input.time}:${given}`, LINK_WINDOW_S * 3);
  } catch {
    throw failed('This login link has already been used');
  }
  const user = await localUserFor(input.username.trim(), input.name.trim());
  return loginCodeFor(user.uid, safeRedirect(input.redirect));
}
