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
  10500: 'Internal error',
  10501: 'Page not found',
  10502: 'Page deleted',
  10503: 'Service is starting, try again shortly', // Quire's own: answered (HTTP 503) before ready
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
  return new ApiError(10101, message);
}
