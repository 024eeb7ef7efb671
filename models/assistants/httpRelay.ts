/**
 * The HTTP test tool's server relay (`httpRelay/send`): sends one request a logged-in user
 * describes and answers what came back, for targets the browser cannot read itself (no CORS,
 * mixed content). It is a door into the server's network, so:
 * - only public addresses, checked after DNS resolution, and the connection goes to exactly the
 *   address that was checked (models/platform/addressPolicy.ts); ALLOW_PRIVATE_HOSTS opens named exceptions;
 * - redirects are followed by hand (at most MAX_REDIRECTS), each hop checked again; credentials
 *   (Authorization, Cookie) are dropped when a redirect leaves the first origin, as browsers do;
 * - MAX_TIME_MS for the whole exchange, MAX_RESPONSE_BYTES kept of the answer (the rest is cut);
 * - a per-user throttle (models/platform/throttle.ts `httpRelay`).
 * Nothing of the request or the answer is logged.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP } from 'node:net';
import { type Actor } from '../access';
import {
  type AddressPolicy,
  type CheckedAddress,
  errors,
  pinnedLookup,
  resolveChecked,
  throttle,
} from '../platform';

export const RELAY_LIMITS = {
  maxRedirects: 5,
  maxTimeMs: 15_000,
  maxResponseBytes: 2 * 1024 * 1024,
  maxRequestBytes: 1024 * 1024,
  maxHeaders: 100,
} as const;

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const;
/** Headers the relay sets itself (or that would make no sense relayed). */
const DROPPED_HEADERS = new Set([
  'host',
  // The answer is shown as text: no compressed bodies.
  'accept-encoding',
  'content-length',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'upgrade',
  'proxy-authorization',
  'proxy-connection',
  'te',
  'trailer',
]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie']);
const TEXT_TYPES =
  /^(text\/|application\/([\w.+-]*\+)?(json|xml|javascript|x-www-form-urlencoded)|image\/svg)/i;

export interface RelayInput {
  method: string;
  url: string;
  /** `[[name, value], …]` as the dialog sends them (query parameters are already in the URL). */
  headers: [string, string][];
  body: string;
}

export interface RelayAnswer {
  status: number;
  status_text: string;
  /** In arrival order, repeated names kept (Set-Cookie). */
  headers: [string, string][];
  /** UTF-8 text; for a binary answer (`binary` 1) it is empty and `size` says how big it was. */
  body: string;
  binary: 0 | 1;
  size: number;
  /** 1 when the answer was longer than the relay keeps. */
  truncated: 0 | 1;
  /** The address that answered, after redirects. */
  url: string;
  redirects: number;
  duration_ms: number;
}

function parseTarget(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw errors.failed('The URL is not valid (it must start with http:// or https://)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw errors.failed('Only http:// and https:// addresses can be tested');
  return url;
}

function cleanHeaders(headers: [string, string][]): [string, string][] {
  if (headers.length > RELAY_LIMITS.maxHeaders)
    throw errors.failed(`At most ${RELAY_LIMITS.maxHeaders} headers`);
  const out: [string, string][] = [];
  for (const [name, value] of headers) {
    const key = name.trim();
    if (!key) continue;
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(key))
      throw errors.failed(`Invalid header name: ${key}`);
    if (/[\r\n\0]/.test(value)) throw errors.failed(`Invalid value of header ${key}`);
    if (!DROPPED_HEADERS.has(key.toLowerCase())) out.push([key, value]);
  }
  return out;
}

interface Hop {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: Buffer;
  size: number;
  truncated: boolean;
}

/** One exchange with the checked address; the body is read up to the size cap. */
function exchange(
  url: URL,
  target: CheckedAddress,
  method: string,
  headers: [string, string][],
  body: Buffer | null,
  signal: AbortSignal,
): Promise<Hop> {
  // The connection goes to the checked address whatever the name resolves to by now; TLS still
  // verifies the certificate against the host name.
  const lookup = pinnedLookup(target);
  // Headers as a flat list keep the user's spelling and order; Node then adds no Host itself.
  const flat: string[] = ['Host', url.host];
  for (const [name, value] of headers) flat.push(name, value);
  if (body) flat.push('Content-Length', String(body.length));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<Hop>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method,
        headers: flat,
        lookup,
        signal,
        agent: false,
        // SNI carries names only (an address there is deprecated and ignored).
        ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) ? {} : { servername: url.hostname }),
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        let size = 0;
        let truncated = false;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (kept >= RELAY_LIMITS.maxResponseBytes) {
            truncated = true;
            finish();
            response.destroy();
            return;
          }
          const room = RELAY_LIMITS.maxResponseBytes - kept;
          chunks.push(chunk.subarray(0, room));
          kept += Math.min(room, chunk.length);
          if (chunk.length > room) {
            truncated = true;
            finish();
            response.destroy();
          }
        });
        let done = false;
        const finish = () => {
          if (done) return;
          done = true;
          const pairs: [string, string][] = [];
          for (let i = 0; i + 1 < response.rawHeaders.length; i += 2)
            pairs.push([response.rawHeaders[i], response.rawHeaders[i + 1]]);
          resolve({
            status: response.statusCode ?? 0,
            statusText: response.statusMessage ?? '',
            headers: pairs,
            body: Buffer.concat(chunks),
            size,
            truncated,
          });
        };
        response.on('end', finish);
        response.on('error', (error) => (done ? undefined : reject(error)));
      },
    );
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

function networkError(error: unknown, url: URL): Error {
  const code = (error as { code?: string; name?: string })?.code;
  const name = (error as { name?: string })?.name;
  if (name === 'AbortError' || name === 'TimeoutError' || code === 'ABORT_ERR')
    return errors.timeout(`No answer from ${url.host} within ${RELAY_LIMITS.maxTimeMs / 1000} s`);
  const reason = code ?? 'the connection failed';
  return errors.failed(`Cannot reach ${url.host}: ${reason}`);
}

/** httpRelay/send. */
export async function relayHttpRequest(
  actor: Actor,
  input: RelayInput,
  policy: AddressPolicy,
): Promise<RelayAnswer> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await throttle('httpRelay', String(actor.uid));
  const method = input.method.trim().toUpperCase() || 'GET';
  if (!(METHODS as readonly string[]).includes(method))
    throw errors.failed(`Unsupported method ${method}`);
  let url = parseTarget(input.url);
  let headers = cleanHeaders(input.headers);
  let body: Buffer | null =
    input.body !== '' && method !== 'GET' && method !== 'HEAD'
      ? Buffer.from(input.body, 'utf8')
      : null;
  if (body && body.length > RELAY_LIMITS.maxRequestBytes)
    throw errors.failed(`The request body is over ${RELAY_LIMITS.maxRequestBytes} bytes`);
  let currentMethod = method;
  const origin = url.origin;
  const signal = AbortSignal.timeout(RELAY_LIMITS.maxTimeMs);
  const started = performance.now();

  for (let redirects = 0; ; redirects += 1) {
    const target = await resolveChecked(policy, url.hostname);
    let hop: Hop;
    try {
      hop = await exchange(url, target, currentMethod, headers, body, signal);
    } catch (error) {
      throw networkError(error, url);
    }
    const location = hop.headers.find(([name]) => name.toLowerCase() === 'location')?.[1];
    if (hop.status >= 300 && hop.status < 400 && hop.status !== 304 && location) {
      if (redirects >= RELAY_LIMITS.maxRedirects)
        throw errors.failed(`More than ${RELAY_LIMITS.maxRedirects} redirects`);
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw errors.failed(`The redirect goes to an invalid address: ${location}`);
      }
      if (next.protocol !== 'http:' && next.protocol !== 'https:')
        throw errors.failed(`The redirect leaves HTTP: ${next.protocol}`);
      // Browsers' rules: 303 (and 301/302 after a POST) continue as GET without the body.
      if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
        if (currentMethod !== 'HEAD') currentMethod = 'GET';
        body = null;
        headers = headers.filter(([name]) => !/^content-/i.test(name));
      }
      if (next.origin !== origin)
        headers = headers.filter(([name]) => !CREDENTIAL_HEADERS.has(name.toLowerCase()));
      url = next;
      continue;
    }
    const type = hop.headers.find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? '';
    const binary = hop.body.length > 0 && type !== '' && !TEXT_TYPES.test(type);
    return {
      status: hop.status,
      status_text: hop.statusText,
      headers: hop.headers,
      body: binary ? '' : hop.body.toString('utf8'),
      binary: binary ? 1 : 0,
      size: hop.size,
      truncated: hop.truncated ? 1 : 0,
      url: url.toString(),
      redirects,
      duration_ms: Math.round(performance.now() - started),
    };
  }
}
