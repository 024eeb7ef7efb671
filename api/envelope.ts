/**
 * ShowDoc's response envelope (reference accounts §0.3): `{error_code: 0, data}` on success,
 * `{error_code, error_message}` (no `data`) on failure. An empty payload is `[]`, as PHP's empty
 * array serialises, and clients rely on that.
 */

export interface SuccessBody {
  error_code: 0;
  data: unknown;
}

export interface ErrorBody {
  error_code: number;
  error_message: string;
}

export function successBody(data: unknown): SuccessBody {
  return { error_code: 0, data: data === undefined || data === null ? [] : data };
}

export function errorBody(code: number, message: string): ErrorBody {
  return { error_code: code, error_message: message };
}
