/**
 * The one address policy of every connection the server opens on its own (the HTTP test relay,
 * the AI service, LDAP, the OAuth2 endpoints, the S3 endpoint, the release feed). Only public
 * unicast addresses: loopback, private networks, link-local (cloud metadata at 169.254.169.254),
 * carrier NAT (Alibaba's metadata at 100.100.100.200), unique-local IPv6, multicast, reserved and
 * the IPv6 forms that embed an IPv4 address are refused — unless the operator lists the host
 * name, the address or its range in ALLOW_PRIVATE_HOSTS (alias HTTP_RELAY_ALLOW_HOSTS): a
 * self-hosted model server on localhost or a LAN directory is legitimate, so the answer is an
 * explicit allow-list rather than a blanket refusal.
 *
 * The decision is made on the addresses a host name resolves to, and the connection then goes to
 * exactly the address that was checked (no second lookup an attacker's DNS could answer
 * differently): `resolveChecked` before connecting, `pinnedLookup` / `policyFetch` /
 * `checkedLookup` to connect.
 */
import http from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { Readable } from 'node:stream';
import { lookup as dnsLookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { perContext } from './context';
import { type ApiError, errors, isApiError } from './errors';

/** ipaddr.js range names, as the refusal explains them. */
const RANGE_WORDS: Record<string, string> = {
  loopback: 'a loopback address',
  private: 'a private network address',
  linkLocal: 'a link-local address (cloud metadata services live there)',
  uniqueLocal: 'a private network address',
  carrierGradeNat: 'a carrier-grade NAT address (cloud metadata services live there)',
  unspecified: 'an unspecified address',
  broadcast: 'a broadcast address',
  multicast: 'a multicast address',
  reserved: 'a reserved address',
};

/** Marks the ApiErrors this module throws, so a caller can tell a refusal from a failure. */
const REFUSED = Symbol('addressRefused');

export interface CheckedAddress {
  address: string;
  family: 4 | 6;
}

export interface AddressPolicy {
  /** ALLOW_PRIVATE_HOSTS entries: host names, addresses, CIDR ranges (lower case). */
  allowHosts: readonly string[];
  /** Who is refused, for the message ("The relay"); "Quire" when unset. */
  subject?: string;
}

const configured = perContext((): { allowHosts: readonly string[] } => ({ allowHosts: [] }));

/** Set once at start from the configuration (ALLOW_PRIVATE_HOSTS + HTTP_RELAY_ALLOW_HOSTS). */
export function configureAddressPolicy(allowHosts: readonly string[]): void {
  configured().allowHosts = [...allowHosts];
}

/** The instance's policy, for the fetchers that have no request context to be handed one. */
export function addressPolicy(subject?: string): AddressPolicy {
  return { allowHosts: configured().allowHosts, subject };
}

/** True for an error saying the policy refused the address (not a network failure). */
export function isAddressRefusal(error: unknown): error is ApiError {
  return isApiError(error) && (error as unknown as Record<symbol, unknown>)[REFUSED] === true;
}

function refused(message: string): ApiError {
  const error = errors.forbidden(message);
  Object.defineProperty(error, REFUSED, { value: true });
  return error;
}

function allowedByList(policy: AddressPolicy, hostname: string, ip: ipaddr.IPv4 | ipaddr.IPv6) {
  for (const entry of policy.allowHosts) {
    if (entry === hostname) return true;
    try {
      if (entry.includes('/')) {
        const [range, bits] = ipaddr.parseCIDR(entry);
        if (range.kind() === ip.kind() && ip.match([range, bits] as never)) return true;
      } else if (ipaddr.isValid(entry) && ipaddr.process(entry).toString() === ip.toString())
        return true;
    } catch {
      // Config validation accepted it; a mismatch of kinds is simply "not this entry".
    }
  }
  return false;
}

/** Throws 10403 naming the address when the server must not connect to it. */
export function checkAddress(policy: AddressPolicy, hostname: string, address: string): void {
  // `process` turns IPv4-mapped IPv6 (::ffff:127.0.0.1) back into the IPv4 it hides.
  const ip = ipaddr.process(address);
  if (allowedByList(policy, hostname, ip)) return;
  const range = ip.range();
  if (range === 'unicast') return;
  const why = RANGE_WORDS[range] ?? `a special-purpose address (${range})`;
  const shown = hostname === address ? address : `${hostname} (${address})`;
  throw refused(`${policy.subject ?? 'Quire'} does not connect to ${shown}: ${why}`);
}

/**
 * Resolves `hostname` and checks every address it has (one private answer is enough to refuse:
 * the client could not know which one a connection would use). Returns the first, to connect to.
 */
export async function resolveChecked(
  policy: AddressPolicy,
  hostname: string,
): Promise<CheckedAddress> {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  let answers: { address: string; family: number }[];
  if (ipaddr.isValid(bare)) {
    answers = [{ address: bare, family: bare.includes(':') ? 6 : 4 }];
  } else {
    try {
      answers = await dnsLookup(bare, { all: true, verbatim: true });
    } catch {
      throw errors.failed(`Cannot resolve the host name ${bare}`);
    }
  }
  if (!answers.length) throw errors.failed(`Cannot resolve the host name ${bare}`);
  for (const answer of answers) checkAddress(policy, bare, answer.address);
  const first = answers[0];
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

function answer(options: unknown, callback: LookupCallback, target: CheckedAddress) {
  if ((options as { all?: boolean }).all) callback(null, [target]);
  else callback(null, target.address, target.family);
}

/** A `lookup` that always answers the address already checked (for one connection). */
export function pinnedLookup(target: CheckedAddress): LookupFunction {
  return ((_hostname, options, callback) =>
    answer(options, callback as LookupCallback, target)) as LookupFunction;
}

/**
 * A `lookup` for long-lived agents (S3): each connection resolves and checks anew and connects to
 * what was checked. Node skips `lookup` for address literals, so those are checked by
 * `checkLiteralHost` where the client is made.
 */
export function checkedLookup(policy: () => AddressPolicy): LookupFunction {
  return ((hostname, options, callback) => {
    resolveChecked(policy(), hostname).then(
      (target) => answer(options, callback as LookupCallback, target),
      (error: Error) => (callback as LookupCallback)(error, ''),
    );
  }) as LookupFunction;
}

/** For clients that connect to a fixed URL: an address literal is checked here, a name later. */
export function checkLiteralHost(policy: AddressPolicy, hostname: string): void {
  const bare = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (isIP(bare)) checkAddress(policy, bare, bare);
}

const MAX_REDIRECTS = 5;

function bodyOf(body: RequestInit['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof URLSearchParams) return Buffer.from(body.toString());
  if (body instanceof ArrayBuffer) return Buffer.from(body);
  if (ArrayBuffer.isView(body)) return Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  throw new TypeError('policyFetch sends string and byte bodies only');
}

function exchange(url: URL, target: CheckedAddress, init: RequestInit, body: Buffer | null) {
  const headers = new Headers(init.headers);
  if (body) headers.set('content-length', String(body.length));
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<http.IncomingMessage>((resolve, reject) => {
    const request = client.request(url, {
      method: init.method ?? 'GET',
      headers: Object.fromEntries(headers),
      lookup: pinnedLookup(target),
      signal: init.signal ?? undefined,
      agent: false,
      // TLS verifies the certificate against the name; SNI carries names only.
      ...(isIP(url.hostname.replace(/^\[|\]$/g, '')) ? {} : { servername: url.hostname }),
    });
    request.on('response', resolve);
    request.on('error', reject);
    request.end(body ?? undefined);
  });
}

/**
 * `fetch` under the policy: every hop (redirects are followed by hand, at most MAX_REDIRECTS) is
 * resolved, checked, and connected to at the checked address. Answers a standard Response whose
 * body streams (the AI client reads server-sent events from it).
 */
export async function policyFetch(
  input: string | URL | Request,
  init: RequestInit = {},
  policy: AddressPolicy = addressPolicy(),
): Promise<Response> {
  let url = new URL(input instanceof Request ? input.url : String(input));
  let options: RequestInit = input instanceof Request ? { ...init, method: input.method } : init;
  if (input instanceof Request && !init.headers) options.headers = input.headers;
  let body = bodyOf(
    init.body ?? (input instanceof Request && input.body ? await input.text() : null),
  );
  for (let hop = 0; ; hop += 1) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new TypeError(`Unsupported protocol ${url.protocol}`);
    const target = await resolveChecked(policy, url.hostname);
    const response = await exchange(url, target, options, body);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (status >= 300 && status < 400 && location && options.redirect !== 'manual') {
      response.resume();
      if (hop >= MAX_REDIRECTS) throw new TypeError('Too many redirects');
      url = new URL(location, url);
      // As fetch does: 303 (and a POST answered 301/302) continue as a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && options.method === 'POST')) {
        options = { ...options, method: 'GET' };
        body = null;
      }
      continue;
    }
    const headers = new Headers();
    for (const [name, value] of Object.entries(response.headers)) {
      if (Array.isArray(value)) for (const one of value) headers.append(name, one);
      else if (value !== undefined) headers.set(name, value);
    }
    const empty = status === 204 || status === 304 || options.method === 'HEAD';
    if (empty) response.resume();
    return new Response(empty ? null : (Readable.toWeb(response) as ReadableStream), {
      status,
      statusText: response.statusMessage,
      headers,
    });
  }
}
