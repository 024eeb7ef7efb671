/**
 * THE error-code table of the ShowDoc-compatible API, and the one error type models throw.
 *
 * Codes and their meanings come from the API reference (accounts §1, pages §0.5). Clients switch
 * on the code (10102 → login screen, 10303/10307 → item-password screen, …), so a code is part of
 * the wire contract: never renumber one. Handlers usually pass their own message; the table text
 * is the fallback, exactly as in ShowDoc.
 */

export const ERROR_MESSAGES = {
  1: 'No permission to visit this item', // item/star's odd code (reference accounts §1.2)
  999: 'No search results', // item/info with a keyword that matches nothing (spec 002 §8)
  10001: 'Operation failed',
  10002: 'Parameter error',
  10003: 'Data not found',
  10004: 'Data already exists',
  10005: 'Timeout',
  10010: 'Access password incorrect',
  10011: 'LDAP error',
  10100: 'Limit reached',
  10101: 'Operation failed',
  10102: 'You are not logged in or your login has expired',
  10103: 'No permission',
  10104: 'Login required',
  10105: 'Wrong password',
  10106: 'User not found',
  10107: 'User disabled',
  10204: 'Account locked after too many failed logins, try again later',
  10206: 'Captcha incorrect',
  10208: 'Wrong password',
  10209: 'User not found',
  10210: 'Wrong username or password',
  10301: 'No permission',
  10302: 'No access permission',
  10303: 'No edit permission',
  10304: 'No manage permission',
  10305: 'No delete permission',
  10306: 'api_key or api_token is incorrect',
  10310: 'Collaborator limit reached',
  10312: 'Please log in first',
  10400: 'Bad request',
  10401: 'Item not found',
  10402: 'Item deleted',
  10403: 'Forbidden',
  10404: 'Invalid request',
  10429: 'Too many requests, please try again later', // ShowDoc's agent/agent guest limit
  10500: 'Internal error',
  10501: 'Page not found',
  10502: 'Page deleted',
  10503: 'Service is starting, try again shortly', // Quire's own: answered (HTTP 503) before ready
  10504: 'Server busy, try again shortly', // Quire's own: HTTP 503 + Retry-After past the admission limits
  10505: 'Database unavailable, try again shortly', // Quire's own: HTTP 503 + Retry-After while the database cannot be reached
  10601: 'Upload failed',
  10602: 'File not found',
  10603: 'File too large',
  10604: 'File type not supported',
} as const satisfies Record<number, string>;

export type ErrorCode = keyof typeof ERROR_MESSAGES;

/** The table text for a code; unknown codes get ShowDoc's generic text. */
export function defaultMessage(code: number): string {
  return (ERROR_MESSAGES as Record<number, string>)[code] ?? `error code: ${code}`;
}

/**
 * A business error: becomes `{error_code, error_message}` in the response. Business errors travel
 * with HTTP 200 like ShowDoc's; transport-level ones (router 404/400, oversize body, not ready)
 * carry their HTTP status too.
 */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;

  constructor(code: ErrorCode, message?: string, options: { httpStatus?: number } = {}) {
    super(message ?? defaultMessage(code));
    this.name = 'ApiError';
    this.code = code;
    this.httpStatus = options.httpStatus ?? 200;
  }
}

export function isApiError(value: unknown): value is ApiError {
  return value instanceof ApiError;
}

/** Shorthand for the most common answer, ShowDoc's catch-all 10101 with a specific message. */
export function failure(message: string): ApiError {
  return errors.failed(message);
}

type ErrorOptions = { httpStatus?: number };

/** A factory for one code: the caller's message, else the table text. */
function factory(code: ErrorCode) {
  return (message?: string, options?: ErrorOptions) => new ApiError(code, message, options);
}

/**
 * The named way to raise each code of the table, so call sites say what went wrong
 * (`errors.notLoggedIn()`) rather than which number the wire carries. Messages are the caller's:
 * ShowDoc clients and the tests read them, so a call keeps the exact text it had.
 */
export const errors = {
  /** item/star's odd code for an item the caller may not see (reference accounts §1.2). */
  starDenied: factory(1),
  noSearchResults: factory(999),
  operationFailed: factory(10001),
  paramError: factory(10002),
  notFound: factory(10003),
  alreadyExists: factory(10004),
  timeout: factory(10005),
  visitPasswordWrong: factory(10010),
  ldap: factory(10011),
  /** The newer ShowDoc controllers' code for a refused input (missing field, limit reached). */
  refused: factory(10100),
  /** ShowDoc's catch-all failure: almost every rule a request breaks. */
  failed: factory(10101),
  /** A parameter of the wrong shape (an object where a scalar belongs, a bad list). */
  badParam: (name: string) => new ApiError(10101, `Invalid parameter: ${name}`),
  notLoggedIn: factory(10102),
  noPermission: factory(10103),
  loginRequired: factory(10104),
  wrongPassword: factory(10105),
  userNotFound: factory(10106),
  userDisabled: factory(10107),
  accountLocked: factory(10204),
  captchaWrong: factory(10206),
  /** The caller's own password (confirmations of dangerous actions). */
  confirmPasswordWrong: factory(10208),
  /** The user an action names does not exist. */
  targetUserNotFound: factory(10209),
  badCredentials: factory(10210),
  noItemPermission: factory(10301),
  noVisitPermission: factory(10302),
  /** No edit right, or the item's visit password is needed (clients show the password screen). */
  noEditPermission: factory(10303),
  noManagePermission: factory(10304),
  noDeletePermission: factory(10305),
  badApiKey: factory(10306),
  memberLimit: factory(10310),
  logInFirst: factory(10312),
  badRequest: factory(10400),
  itemNotFound: factory(10401),
  itemDeleted: factory(10402),
  forbidden: factory(10403),
  invalidRequest: factory(10404),
  /** agent/agent over its rate limit (ShowDoc's AgentController). */
  tooManyRequests: factory(10429),
  internal: factory(10500),
  pageNotFound: factory(10501),
  pageDeleted: factory(10502),
  starting: factory(10503),
  /** More requests than the worker's admission limits take (api/admission.ts). */
  busy: factory(10504),
  /** The database cannot be reached (its host restarting, the network cut): try again shortly. */
  databaseUnavailable: factory(10505),
  uploadFailed: factory(10601),
  fileNotFound: factory(10602),
  fileTooLarge: factory(10603),
  fileTypeNotSupported: factory(10604),
} as const;
