/**
 * The HTTP test tool's request (spec 001 §2): read from the page being edited — a RunApi API page
 * (JSON with `info.url`, spec 001 §3 "API doc format") or ShowDoc's Markdown API template
 * (请求URL / 请求方式 / 参数 sections) — edited in the dialog, then turned into what is sent, with
 * the item's global parameters (RunApi `global_param`: query, body, header lists) added where the
 * request does not set the same name itself. Pure functions: no React, no network.
 */
export interface KeyValue {
  name: string;
  value: string;
  enabled: boolean;
}

export type BodyMode = 'form' | 'json' | 'text';

export interface HttpTestRequest {
  method: string;
  url: string;
  query: KeyValue[];
  headers: KeyValue[];
  bodyMode: BodyMode;
  bodyFields: KeyValue[];
  bodyText: string;
}

export interface GlobalParams {
  query?: unknown;
  body?: unknown;
  header?: unknown;
}

/** What goes on the wire: the query is inside `url`. */
export interface Sendable {
  method: string;
  url: string;
  headers: [string, string][];
  body: string;
}

export const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];

export function emptyRequest(): HttpTestRequest {
  return {
    method: 'GET',
    url: '',
    query: [],
    headers: [],
    bodyMode: 'form',
    bodyFields: [],
    bodyText: '',
  };
}

const text = (value: unknown): string =>
  value === undefined || value === null
    ? ''
    : typeof value === 'string'
      ? value
      : JSON.stringify(value);

/** RunApi parameter rows (`{name, value, disable}`) as key/value rows; junk entries dropped. */
function rows(list: unknown): KeyValue[] {
  if (!Array.isArray(list)) return [];
  return list
    .filter((p): p is Record<string, unknown> => !!p && typeof p === 'object')
    .filter((p) => text(p.name) !== '')
    .map((p) => ({
      name: text(p.name),
      value: text(p.value),
      enabled: !(Number(p.disable) >= 1) && p.enable !== 0 && p.enable !== '0',
    }));
}

/** The URL's own query string moves into the query rows (so it can be edited there). */
function splitQuery(url: string, query: KeyValue[]): { url: string; query: KeyValue[] } {
  const mark = url.indexOf('?');
  if (mark < 0) return { url, query };
  const own = [...new URLSearchParams(url.slice(mark + 1))].map(([name, value]) => ({
    name,
    value,
    enabled: true,
  }));
  const names = new Set(own.map((row) => row.name));
  return { url: url.slice(0, mark), query: [...own, ...query.filter((q) => !names.has(q.name))] };
}

function fromRunApi(doc: Record<string, unknown>): HttpTestRequest | null {
  const info = doc.info as Record<string, unknown> | undefined;
  if (!info || typeof info.url !== 'string' || info.url === '') return null;
  const request = (doc.request ?? {}) as Record<string, unknown>;
  const params = (request.params ?? {}) as Record<string, unknown>;
  let url = info.url.trim();
  // Path variables: `{id}` and `:id` take the documented example value.
  for (const variable of rows(request.pathVariable))
    url = url
      .split(`{${variable.name}}`)
      .join(variable.value)
      .replace(new RegExp(`:${variable.name}(?=/|$|\\?)`, 'g'), variable.value);
  const split = splitQuery(url, rows(request.query));
  const mode = text(params.mode);
  const json = text(params.json);
  return {
    method: (text(info.method) || 'GET').toUpperCase(),
    url: split.url,
    query: split.query,
    headers: rows(request.headers),
    bodyMode: mode === 'json' ? 'json' : 'form',
    bodyFields: mode === 'urlencoded' ? rows(params.urlencoded) : rows(params.formdata),
    bodyText: json,
  };
}

/** The text under a Markdown heading or bold label whose title matches `title`, to the next one. */
function section(markdown: string, title: RegExp): string {
  const lines = markdown.split(/\r?\n/);
  const start = lines.findIndex(
    (line) => /^\s*(#{1,6}\s|\*\*)/.test(line) && title.test(line.replace(/[#*：:\s]/g, '')),
  );
  if (start < 0) return '';
  const out: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (/^\s*#{1,6}\s/.test(line) || /^\s*\*\*[^*]+\*\*\s*$/.test(line)) break;
    out.push(line);
  }
  return out.join('\n');
}

function fromMarkdown(markdown: string): HttpTestRequest | null {
  const urlText = section(markdown, /^(请求URL|请求地址|接口地址|URL|RequestURL)$/i) || markdown;
  const url = /https?:\/\/[^\s`'"<>|)]+/.exec(urlText)?.[0];
  if (!url) return null;
  const methodText = section(markdown, /^(请求方式|请求方法|Method)$/i);
  const method = /\b(GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\b/i.exec(methodText)?.[1] ?? 'GET';
  // The template's parameter table: the first column names the parameter; header row and the
  // `|:---|` rule are skipped.
  const names = section(markdown, /^(参数|请求参数|Parameters?)$/i)
    .split(/\r?\n/)
    .filter((line) => line.trim().startsWith('|'))
    .map((line) => line.split('|')[1]?.trim() ?? '')
    .filter((name) => name && !/^:?-+:?$/.test(name) && !/^(参数名|参数|name)$/i.test(name));
  const fields = names.map((name) => ({ name, value: '', enabled: true }));
  const upper = method.toUpperCase();
  const split = splitQuery(url, upper === 'GET' || upper === 'HEAD' ? fields : []);
  return {
    ...emptyRequest(),
    method: upper,
    url: split.url,
    query: split.query,
    bodyFields: upper === 'GET' || upper === 'HEAD' ? [] : fields,
  };
}

/** The request a page describes, or an empty one to fill in. */
export function requestFromPage(content: string): HttpTestRequest {
  const trimmed = content.trim();
  if (trimmed.startsWith('{')) {
    try {
      const parsed = JSON.parse(trimmed) as unknown;
      if (parsed && typeof parsed === 'object') {
        const request = fromRunApi(parsed as Record<string, unknown>);
        if (request) return request;
      }
    } catch {
      // Not JSON after all: maybe Markdown that starts with a brace.
    }
  }
  return fromMarkdown(content) ?? emptyRequest();
}

function active(list: KeyValue[]): KeyValue[] {
  return list.filter((row) => row.enabled && row.name.trim() !== '');
}

/** Global rows whose names the request does not set (case-insensitively for headers). */
function withGlobals(own: KeyValue[], global: unknown, caseless = false): KeyValue[] {
  const key = (name: string) => (caseless ? name.toLowerCase() : name);
  const names = new Set(own.map((row) => key(row.name)));
  return [...own, ...active(rows(global)).filter((row) => !names.has(key(row.name)))];
}

/** How many global parameters the request would pick up (shown in the dialog). */
export function globalCount(global: GlobalParams | null): number {
  if (!global) return 0;
  return [global.query, global.body, global.header].reduce<number>(
    (sum, list) => sum + active(rows(list)).length,
    0,
  );
}

const hasBody = (method: string) => method !== 'GET' && method !== 'HEAD';

/** The request as it is sent. Throws a plain Error('url') when the URL is not http(s). */
export function toSendable(request: HttpTestRequest, global: GlobalParams | null): Sendable {
  let url: URL;
  try {
    url = new URL(request.url.trim());
  } catch {
    throw new Error('url');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('url');
  for (const row of withGlobals(active(request.query), global?.query))
    url.searchParams.append(row.name, row.value);
  const headers = withGlobals(active(request.headers), global?.header, true).map(
    (row): [string, string] => [row.name.trim(), row.value],
  );
  const method = request.method.toUpperCase();
  let body = '';
  const setType = (type: string) => {
    if (!headers.some(([name]) => name.toLowerCase() === 'content-type'))
      headers.push(['Content-Type', type]);
  };
  if (hasBody(method)) {
    if (request.bodyMode === 'form') {
      const fields = withGlobals(active(request.bodyFields), global?.body);
      if (fields.length) {
        body = new URLSearchParams(fields.map((row) => [row.name, row.value])).toString();
        setType('application/x-www-form-urlencoded');
      }
    } else if (request.bodyText !== '') {
      body = request.bodyText;
      if (request.bodyMode === 'json') setType('application/json');
    }
  }
  return { method, url: url.toString(), headers, body };
}

const SAFELISTED_HEADERS = new Set([
  'accept',
  'accept-language',
  'content-language',
  'content-type',
]);
const SIMPLE_TYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];

/**
 * True when a browser would send this request to another origin without asking first (no CORS
 * preflight) although it changes things (POST): trying it from the browser and then, if the
 * answer is unreadable, again through the relay could run it twice — so it goes through the
 * relay only.
 */
export function relayOnly(request: Sendable): boolean {
  if (request.method !== 'POST') return false;
  return request.headers.every(([name, value]) => {
    const lower = name.toLowerCase();
    if (!SAFELISTED_HEADERS.has(lower)) return false;
    if (lower !== 'content-type') return true;
    return SIMPLE_TYPES.includes(value.split(';')[0].trim().toLowerCase());
  });
}

/** The body pretty-printed when it is JSON, else as it came. */
export function formatBody(body: string): { text: string; json: boolean } {
  const trimmed = body.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[')) {
    try {
      return { text: JSON.stringify(JSON.parse(trimmed), null, 2), json: true };
    } catch {
      // Not JSON: shown as text.
    }
  }
  return { text: body, json: false };
}
