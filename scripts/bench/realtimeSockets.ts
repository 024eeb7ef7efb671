/**
 * Socket.IO scenarios: how long a page-lock change and a "save and notify" reminder take to reach
 * every watching socket, and what the server's memory does with many idle connections. Idle
 * sockets are socket.io-client over the websocket transport, as the web app connects, each with
 * its own connection (`forceNew`); the watching sockets live in client processes
 * (socketClients.ts) and speak the protocol themselves (leanSocket.ts).
 * Latency is measured from just before the REST call that causes the push to the moment each
 * socket receives it, so it includes the call itself and the time the client process holding
 * the socket needs to take in every delivery before it.
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../realtime/socketEvents';
import { pageMarkdown, pageTitle } from './content';
import { openMany, type Opened } from './openMany';
import { startCpuMeter, type CpuUse } from './procstat';
import { monotonicUs, type RoundMatch } from './socketClientProtocol';
import type { SocketClients } from './socketClients';
import { LatencyLog } from './stats';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const CONNECT_TIMEOUT_MS = 20_000;
/** How long one round waits for every delivery before counting the missing ones as errors. */
const ROUND_TIMEOUT_MS = 10_000;
const PAUSE_BETWEEN_ROUNDS_MS = 100;
/**
 * Rounds run before the measured ones, as the HTTP cells warm up first: the first pushes of a
 * kind meet cold code (the JIT, the notice path's caches) in the server and the clients. Their
 * errors count; their latencies do not. Even, so lock rounds keep taking on even numbers.
 * Measured on the 2-core machine (lock rounds, 1,000 watchers): a fresh server and fresh client
 * processes run slow (last delivery 30–75 ms against ~20 ms after) for about the first ten rounds,
 * and fresh client processes against a warm server still for rounds 3–9 — the load tool's own
 * parsers being compiled is most of it — so 4 rounds left cold code in the measured ones.
 */
export const WARMUP_ROUNDS = 12;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function connectSocket(url: string, token: string): Promise<ClientSocket> {
  const socket: ClientSocket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    forceNew: true,
    reconnection: false,
    timeout: CONNECT_TIMEOUT_MS,
    auth: { user_token: token },
  });
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', (error) => {
      socket.close();
      reject(error);
    });
  });
}

export type Connected = Opened<ClientSocket>;

/** Opens `count` sockets, `batch` at a time, tokens taken round-robin. */
export function connectMany(
  url: string,
  tokens: string[],
  count: number,
  batch = 100,
): Promise<Connected> {
  return openMany(count, batch, (i) => connectSocket(url, tokens[i % tokens.length]));
}

export function closeAll(sockets: ClientSocket[]): void {
  for (const socket of sockets) socket.disconnect();
}

export interface PropagationResult {
  latencies: LatencyLog;
  /** Per round, the latency of the first delivery: the server's part, before the client's queue. */
  firstDeliveries: LatencyLog;
  /** Deliveries that did not arrive in time, plus REST calls that failed. */
  errors: number;
  firstError?: string;
  cpu: CpuUse | null;
}

/**
 * Runs WARMUP_ROUNDS, then `rounds` measured rounds: `trigger(round)` makes the server push the
 * round's event; every socket's first delivery matching `match(round)` is timed (in the client
 * process holding the socket, on the machine's monotonic clock, against this process's round
 * start).
 */
export async function propagation(options: {
  clients: SocketClients;
  match: (round: number) => RoundMatch;
  trigger: (round: number) => Promise<string | null>;
  rounds: number;
  serverPid: number;
  ownPids: number[];
}): Promise<PropagationResult> {
  const { clients, rounds } = options;
  const latencies = new LatencyLog();
  const firstDeliveries = new LatencyLog();
  let errors = 0;
  let firstError: string | undefined;

  const round = async (number: number, measured: boolean) => {
    const match = options.match(number);
    await clients.arm(number, match);
    const startedAt = monotonicUs();
    const failure = await options.trigger(number);
    const { times, missing } = await clients.collect(failure ? 0 : ROUND_TIMEOUT_MS);
    if (failure) {
      errors++;
      firstError ??= failure;
    } else {
      if (measured && times.length) {
        let first = Infinity;
        for (const t of times) {
          const latency = (t - startedAt) / 1000;
          latencies.add(latency);
          if (latency < first) first = latency;
        }
        firstDeliveries.add(first);
      }
      if (missing) {
        errors += missing;
        firstError ??= `${missing} of ${clients.sockets} sockets got no "${match.event}" within ${ROUND_TIMEOUT_MS / 1000} s`;
      }
    }
    await sleep(PAUSE_BETWEEN_ROUNDS_MS);
  };

  for (let number = 0; number < WARMUP_ROUNDS; number++) await round(number, false);
  const cpu = startCpuMeter(options.serverPid, [...options.ownPids, ...clients.pids]);
  for (let number = WARMUP_ROUNDS; number < WARMUP_ROUNDS + rounds; number++)
    await round(number, true);
  return { latencies, firstDeliveries, errors, firstError, cpu: cpu.stop() };
}

/** POSTs a form to the API; null when it answered error_code 0, else what went wrong. */
export async function apiCall(
  url: string,
  route: string,
  fields: Record<string, string | number>,
): Promise<string | null> {
  try {
    const response = await fetch(`${url}/api/${route}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
    });
    const text = await response.text();
    return response.status === 200 && text.startsWith('{"error_code":0')
      ? null
      : `${route}: HTTP ${response.status} ${text.slice(0, 160)}`;
  } catch (error) {
    return `${route}: ${(error as Error).message}`;
  }
}

export interface TargetPage {
  url: string;
  itemId: number;
  pageId: number;
  /** 1-based page number of the content generator. */
  pageNumber: number;
  /** Token of the item's owner, who locks and saves. */
  ownerToken: string;
  serverPid: number;
  ownPids: number[];
}

/** Even rounds take the lock, odd rounds release it (`lock_to=1000`), as the editor does. */
export function lockPropagation(clients: SocketClients, target: TargetPage, rounds: number) {
  return propagation({
    clients,
    rounds,
    serverPid: target.serverPid,
    ownPids: target.ownPids,
    match: (round) => ({ event: 'lock', pageId: target.pageId, locked: round % 2 === 0 }),
    trigger: (round) =>
      apiCall(target.url, 'page/setLock', {
        page_id: target.pageId,
        item_id: target.itemId,
        ...(round % 2 === 1 ? { lock_to: 1000 } : {}),
        user_token: target.ownerToken,
      }),
  });
}

/** Each round saves the page with "save and notify"; every subscriber's sockets get a `notice`. */
export function noticePropagation(clients: SocketClients, target: TargetPage, rounds: number) {
  const marker = (round: number) => `bench notice ${process.pid}-${round}`;
  return propagation({
    clients,
    rounds,
    serverPid: target.serverPid,
    ownPids: target.ownPids,
    match: (round) => ({ event: 'notice', marker: marker(round) }),
    trigger: (round) =>
      apiCall(target.url, 'page/save', {
        page_id: target.pageId,
        item_id: target.itemId,
        page_title: pageTitle(target.pageNumber),
        page_content: encodeURIComponent(pageMarkdown(target.pageNumber, 100 + round)),
        is_urlencode: 1,
        is_notify: 1,
        notify_content: marker(round),
        user_token: target.ownerToken,
      }),
  });
}
