/**
 * An HTTP client that speaks ShowDoc's API the way its web client does: POST, form-encoded,
 * `user_token` added to every call, answers in the `{error_code, data}` envelope.
 */

/** A desktop browser's user agent: ShowDoc refuses crawler-looking ones (incl. HeadlessChrome). */
export const BROWSER_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export type ParamValue =
  string | number | boolean | null | undefined | ParamValue[] | { [k: string]: ParamValue };
export type ApiParams = Record<string, ParamValue>;

export interface CallOptions {
  /** Send the params as a JSON body instead of a form. */
  json?: boolean;
  method?: string;
  headers?: Record<string, string>;
  /** Overrides the client's token for this call ('' = none). */
  token?: string;
  /** Route form: `/api/<route>` (default), `/server/api/<route>` or `/server/index.php?s=/api/<route>`. */
  form?: 'api' | 'server' | 'index.php';
}

export interface ApiAnswer {
  status: number;
  body: { error_code: number; data?: unknown; error_message?: string } & Record<string, unknown>;
  headers: Headers;
}

/** PHP-style form encoding: arrays as `a[]=`, objects as `a[b]=`. */
function appendForm(form: URLSearchParams, key: string, value: ParamValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) value.forEach((v) => appendForm(form, `${key}[]`, v));
  else if (typeof value === 'object')
    for (const [k, v] of Object.entries(value)) appendForm(form, `${key}[${k}]`, v);
  else form.append(key, String(value));
}

export class ShowdocClient {
  constructor(
    readonly baseUrl: string,
    readonly token = '',
  ) {}

  withToken(token: string): ShowdocClient {
    return new ShowdocClient(this.baseUrl, token);
  }

  /** `route` is `<controller>/<action>[/k/v…]`; returns whatever came back. */
  async call(route: string, params: ApiParams = {}, options: CallOptions = {}): Promise<ApiAnswer> {
    const token = options.token ?? this.token;
    const all: ApiParams = token ? { user_token: token, ...params } : { ...params };
    const method = (options.method ?? 'POST').toUpperCase();
    const path = route.replace(/^\/+/, '');
    const url = new URL(
      options.form === 'server'
        ? `/server/api/${path}`
        : options.form === 'index.php'
          ? `/server/index.php?s=/api/${path}`
          : `/api/${path}`,
      this.baseUrl,
    );
    const headers: Record<string, string> = { 'user-agent': BROWSER_UA, ...options.headers };
    let body: string | undefined;
    if (method === 'GET' || method === 'HEAD') {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(all)) appendForm(form, k, v);
      form.forEach((v, k) => url.searchParams.append(k, v));
    } else if (options.json) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(all);
    } else {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(all)) appendForm(form, k, v);
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = form.toString();
    }
    const response = await fetch(url, { method, headers, body });
    const text = await response.text();
    let parsed: ApiAnswer['body'];
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new Error(
        `${method} ${url.pathname} answered ${response.status} with non-JSON: ${text.slice(0, 200)}`,
      );
    }
    return { status: response.status, body: parsed, headers: response.headers };
  }

  /** Calls and returns `data`; fails the test with the server's answer when error_code ≠ 0. */
  async ok<T = unknown>(
    route: string,
    params: ApiParams = {},
    options: CallOptions = {},
  ): Promise<T> {
    const answer = await this.call(route, params, options);
    if (answer.status !== 200 || answer.body.error_code !== 0)
      throw new Error(`${route} failed: HTTP ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body.data as T;
  }

  /** Calls expecting a failure envelope; returns it (with the HTTP status). */
  async fail(
    route: string,
    params: ApiParams = {},
    options: CallOptions = {},
  ): Promise<{ status: number; error_code: number; error_message: string }> {
    const answer = await this.call(route, params, options);
    if (answer.body.error_code === 0)
      throw new Error(`${route} unexpectedly succeeded: ${JSON.stringify(answer.body)}`);
    return {
      status: answer.status,
      error_code: answer.body.error_code,
      error_message: String(answer.body.error_message),
    };
  }
}
