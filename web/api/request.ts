/**
 * The one way the web app talks to the API. It speaks ShowDoc's transport — POST, form-encoded,
 * `user_token` (and a private item's `_item_pwd`) added to every call, 60 s timeout — and its
 * envelope `{error_code, data, error_message}`, and applies the cross-cutting rules of spec 000
 * §4/§8 in one place:
 *
 * - 10102 (login invalid): the stored login is dropped and the user goes to the login screen with
 *   the current path as `redirect` — unless the call opted out, or a redirect is already in the URL.
 * - a missing or deleted item: the language resets to English and the app reloads on the item
 *   list (the default path outside the workspace).
 * - any other error: an alert with the server's message, unless the caller handles it.
 *
 * How to alert and navigate is supplied by the app shell (configureApiClient): this module has no
 * React in it, so per-area API files and tests can use it directly.
 */
import { clearLogin, getItemPassword, getToken } from '../auth/storage';
import { currentPathAsRedirect } from '../auth/redirect';

export const HTTP_TIMEOUT_MS = 60_000;
export const UPLOAD_TIMEOUT_MS = 300_000;
export const INVALID_LOGIN = 10102;
export const QUOTA_EXCEEDED = 10310;
/** Not an API code: the request never got an envelope back (network, timeout, non-JSON). */
export const TRANSPORT_FAILURE = -1;
/** HTTP 503 past the server's admission limits (api/admission.ts): shown in the visitor's language. */
export const SERVER_BUSY = 10504;

const MISSING_ITEM_CODES = new Set([10401, 10402]);
const MISSING_ITEM_TEXT =
  /(project|item) does not exist or was deleted|项目不存在或者已删除|^item not found$|^item deleted$/i;

export type ParamValue = string | number | boolean | null | undefined | (string | number)[];
export type Params = Record<string, ParamValue>;

export interface RequestOptions {
  /** false: the caller shows the error itself (no alert). Default true. */
  alert?: boolean;
  /** false: 10102 and missing-item answers do not leave the screen. Default true. */
  redirect?: boolean;
  /**
   * The manager flag of spec 000 §4: workspace screens (true, default) send an invalid login to
   * the login screen and a missing item to the item list; reader screens (false) to `/`.
   */
  manager?: boolean;
  /** Send this token instead of the stored one (the token-login bridge). */
  token?: string;
  timeoutMs?: number;
}

/** A failed call: `code` is the envelope's error_code (or TRANSPORT_FAILURE). */
export class ApiRequestError extends Error {
  constructor(
    readonly code: number,
    message: string,
    readonly route: string,
    /** HTTP status of the answer (0 when none came). */
    readonly status = 200,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

export interface ApiClientHooks {
  alert(message: string): void;
  /** 10310: the rich collaborator-quota alert. */
  quotaAlert(message: string): void;
  navigate(to: string): void;
  /** Full page load (the missing-item rule reloads). */
  reload(to: string): void;
  location(): { pathname: string; search: string };
  resetLanguage(): void;
  /** Text for failures that carry no server message, and for the server's "busy". */
  text(key: 'network' | 'timeout' | 'busy'): string;
}

let hooks: ApiClientHooks = {
  alert: (message) => window.alert(message),
  quotaAlert: (message) => window.alert(message),
  navigate: (to) => window.location.assign(to),
  reload: (to) => window.location.assign(to),
  location: () => ({ pathname: window.location.pathname, search: window.location.search }),
  resetLanguage: () => {},
  text: (key) =>
    key === 'timeout'
      ? 'The request timed out'
      : key === 'busy'
        ? 'Server busy, try again shortly'
        : 'Network error',
};

export function configureApiClient(partial: Partial<ApiClientHooks>): void {
  hooks = { ...hooks, ...partial };
}

/** PHP-style form encoding (arrays as `key[]`), skipping absent values. */
export function encodeForm(params: Params): URLSearchParams {
  const form = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) for (const v of value) form.append(`${key}[]`, String(v));
    else form.append(key, typeof value === 'boolean' ? (value ? '1' : '0') : String(value));
  }
  return form;
}

function withAuth(params: Params, token: string | undefined): Params {
  const out: Params = { ...params };
  const userToken = token ?? getToken();
  if (userToken && out.user_token === undefined) out.user_token = userToken;
  const itemPwd = getItemPassword();
  if (itemPwd && out._item_pwd === undefined) out._item_pwd = itemPwd;
  return out;
}

/** A form with the stored login and item password, for calls that read a stream themselves. */
export function authorizedForm(params: Params): URLSearchParams {
  return encodeForm(withAuth(params, undefined));
}

export function isMissingItem(code: number, message: string): boolean {
  return MISSING_ITEM_CODES.has(code) || (code !== 0 && MISSING_ITEM_TEXT.test(message.trim()));
}

interface Envelope {
  error_code?: unknown;
  error_message?: unknown;
  data?: unknown;
}

/** Applies the rules above to a failure envelope, then returns the error to throw. */
function handleFailure(
  route: string,
  code: number,
  message: string,
  status: number,
  options: RequestOptions,
): ApiRequestError {
  const error = new ApiRequestError(code, message, route, status);
  const manager = options.manager ?? true;
  if (code === INVALID_LOGIN) {
    clearLogin();
    if (options.redirect === false) return error;
    const { pathname, search } = hooks.location();
    // Already on a screen that carries a redirect (the login screen itself): nothing to do.
    if (search.includes('redirect=')) return error;
    if (!manager) hooks.navigate('/');
    else
      hooks.navigate(
        `/user/login?redirect=${encodeURIComponent(currentPathAsRedirect(pathname, search))}`,
      );
    return error;
  }
  if (isMissingItem(code, message) && options.redirect !== false) {
    hooks.resetLanguage();
    hooks.reload(manager ? '/item/index' : '/');
    return error;
  }
  if (options.alert !== false) {
    if (code === QUOTA_EXCEEDED) hooks.quotaAlert(message);
    else hooks.alert(message);
  }
  return error;
}

async function send<T>(
  route: string,
  body: BodyInit,
  headers: Record<string, string>,
  options: RequestOptions,
  timeoutMs: number,
  /** The answer may be a bare object (ShowDoc's upload actions): no `error_code` = success. */
  bare = false,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), timeoutMs);
  let response: Response;
  let envelope: Envelope;
  try {
    response = await fetch(`/api/${route}`, {
      method: 'POST',
      headers,
      body,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    const text = await response.text();
    try {
      envelope = JSON.parse(text) as Envelope;
    } catch {
      throw new ApiRequestError(
        TRANSPORT_FAILURE,
        `${hooks.text('network')} (HTTP ${response.status})`,
        route,
        response.status,
      );
    }
  } catch (error) {
    const failure =
      error instanceof ApiRequestError
        ? error
        : new ApiRequestError(
            TRANSPORT_FAILURE,
            hooks.text(controller.signal.aborted ? 'timeout' : 'network'),
            route,
            0,
          );
    if (options.alert !== false) hooks.alert(failure.message);
    throw failure;
  } finally {
    clearTimeout(timer);
  }
  if (bare && envelope.error_code === undefined) return envelope as T;
  const code = Number(envelope.error_code ?? TRANSPORT_FAILURE);
  if (code === 0) return envelope.data as T;
  const message =
    code === SERVER_BUSY
      ? hooks.text('busy')
      : typeof envelope.error_message === 'string' && envelope.error_message
        ? envelope.error_message
        : `error code: ${code}`;
  throw handleFailure(route, code, message, response.status, options);
}

/**
 * Calls `/api/<route>` (`route` is `controller/action`) and resolves with `data`; rejects with
 * ApiRequestError after applying the rules above.
 */
export function request<T>(route: string, params: Params = {}, options: RequestOptions = {}) {
  return send<T>(
    route,
    encodeForm(withAuth(params, options.token)),
    { 'content-type': 'application/x-www-form-urlencoded' },
    options,
    options.timeoutMs ?? HTTP_TIMEOUT_MS,
  );
}

/** A multipart upload (`file` plus fields) with the 300 s upload timeout. */
export function upload<T>(
  route: string,
  file: Blob,
  fileName: string,
  fields: Params = {},
  options: RequestOptions = {},
) {
  const form = uploadForm(file, fileName, fields, options);
  return send<T>(route, form, {}, options, uploadTimeout(options));
}

/**
 * An upload to one of ShowDoc's actions that succeed without the envelope (`page/upload`,
 * `page/uploadImg`: `{url, success, message}`): resolves with that body as it is; envelope errors
 * (10102, 10101 …) are handled as for any call.
 */
export function uploadBare<T>(
  route: string,
  file: Blob,
  fileName: string,
  fields: Params = {},
  options: RequestOptions = {},
) {
  const form = uploadForm(file, fileName, fields, options);
  return send<T>(route, form, {}, options, uploadTimeout(options), true);
}

function uploadForm(file: Blob, fileName: string, fields: Params, options: RequestOptions) {
  const form = new FormData();
  for (const [key, value] of encodeForm(withAuth(fields, options.token))) form.append(key, value);
  form.append('file', file, fileName);
  return form;
}

const uploadTimeout = (options: RequestOptions) => options.timeoutMs ?? UPLOAD_TIMEOUT_MS;
