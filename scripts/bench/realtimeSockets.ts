/**
 * Socket.IO scenarios: how long a page-lock change and a "save and notify" reminder take to reach
 * every watching socket, and what the server's memory does with many idle connections. Clients
 * are socket.io-client over the websocket transport, as the web app connects, each with its own
 * connection (`forceNew`). Latency is measured from just before the REST call that causes the
 * push to the moment each socket receives it, so it includes the call itself and the time this
 * (single) client process needs to take in every delivery.
 */
import { performance } from 'node:perf_hooks';
import { io, type Socket } from 'socket.io-client';
import type {
  ClientToServerEvents,
  LockPayload,
  NoticePayload,
  ServerToClientEvents,
  WatchAck,
} from '../../realtime/socketEvents';
import { pageMarkdown, pageTitle } from './content';
import { startCpuMeter, type CpuUse } from './procstat';
import { LatencyLog } from './stats';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const CONNECT_TIMEOUT_MS = 20_000;
const ACK_TIMEOUT_MS = 15_000;
/** How long one round waits for every delivery before counting the missing ones as errors. */
const ROUND_TIMEOUT_MS = 10_000;
const PAUSE_BETWEEN_ROUNDS_MS = 100;

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

export interface Connected {
  sockets: ClientSocket[];
  failures: number;
  firstError?: string;
}

/** Opens `count` sockets, `batch` at a time, tokens taken round-robin. */
export async function connectMany(
  url: string,
  tokens: string[],
  count: number,
  batch = 100,
): Promise<Connected> {
  const result: Connected = { sockets: [], failures: 0 };
  for (let start = 0; start < count; start += batch) {
    const settled = await Promise.allSettled(
      Array.from({ length: Math.min(batch, count - start) }, (_, i) =>
        connectSocket(url, tokens[(start + i) % tokens.length]),
      ),
    );
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled') result.sockets.push(outcome.value);
      else {
        result.failures++;
        result.firstError ??= String((outcome.reason as Error)?.message ?? outcome.reason);
      }
    }
  }
  return result;
}

export function closeAll(sockets: ClientSocket[]): void {
  for (const socket of sockets) socket.disconnect();
}

/** Watches the page on every socket; returns how many were refused. */
export async function watchPage(
  sockets: ClientSocket[],
  pageId: number,
  batch = 200,
): Promise<number> {
  let refused = 0;
  for (let start = 0; start < sockets.length; start += batch) {
    const acks = await Promise.allSettled(
      sockets
        .slice(start, start + batch)
        .map(
          (s) =>
            s
              .timeout(ACK_TIMEOUT_MS)
              .emitWithAck('watch', { page_id: pageId }) as Promise<WatchAck>,
        ),
    );
    refused += acks.filter((a) => a.status === 'rejected' || !('ok' in a.value)).length;
  }
  return refused;
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

interface Round {
  number: number;
  startedAt: number;
  got: Uint8Array;
  count: number;
  done: () => void;
}

/**
 * Runs `rounds` rounds: `trigger(round)` makes the server push `event`; every socket's first
 * matching delivery of that round is timed.
 */
async function propagation<N extends 'lock' | 'notice'>(options: {
  sockets: ClientSocket[];
  event: N;
  matches: (payload: Parameters<ServerToClientEvents[N]>[0], round: number) => boolean;
  trigger: (round: number) => Promise<string | null>;
  rounds: number;
  serverPid: number;
  ownPids: number[];
}): Promise<PropagationResult> {
  const { sockets, rounds } = options;
  const latencies = new LatencyLog();
  const firstDeliveries = new LatencyLog();
  let errors = 0;
  let firstError: string | undefined;
  let current: Round | null = null;

  const listeners = sockets.map((socket, index) => {
    const listener = (payload: Parameters<ServerToClientEvents[N]>[0]) => {
      const round = current;
      if (!round || round.got[index] || !options.matches(payload, round.number)) return;
      round.got[index] = 1;
      const latency = performance.now() - round.startedAt;
      latencies.add(latency);
      if (round.count === 0) firstDeliveries.add(latency);
      if (++round.count === sockets.length) round.done();
    };
    socket.on(options.event, listener as never);
    return listener;
  });

  const cpu = startCpuMeter(options.serverPid, options.ownPids);
  for (let number = 0; number < rounds; number++) {
    let done!: () => void;
    const allArrived = new Promise<void>((resolve) => (done = resolve));
    const round: Round = {
      number,
      startedAt: performance.now(),
      got: new Uint8Array(sockets.length),
      count: 0,
      done,
    };
    current = round;
    const failure = await options.trigger(number);
    if (failure) {
      errors++;
      firstError ??= failure;
    } else {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        allArrived,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, ROUND_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      if (round.count < sockets.length) {
        errors += sockets.length - round.count;
        firstError ??= `${sockets.length - round.count} of ${sockets.length} sockets got no "${options.event}" within ${ROUND_TIMEOUT_MS / 1000} s`;
      }
    }
    current = null;
    await sleep(PAUSE_BETWEEN_ROUNDS_MS);
  }
  const cpuUse = cpu.stop();
  sockets.forEach((socket, i) => socket.off(options.event, listeners[i] as never));
  return { latencies, firstDeliveries, errors, firstError, cpu: cpuUse };
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
export function lockPropagation(sockets: ClientSocket[], target: TargetPage, rounds: number) {
  return propagation({
    sockets,
    event: 'lock',
    rounds,
    serverPid: target.serverPid,
    ownPids: target.ownPids,
    matches: (payload: LockPayload, round) =>
      payload.page_id === target.pageId && payload.locked === (round % 2 === 0),
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
export function noticePropagation(sockets: ClientSocket[], target: TargetPage, rounds: number) {
  const marker = (round: number) => `bench notice ${process.pid}-${round}`;
  return propagation({
    sockets,
    event: 'notice',
    rounds,
    serverPid: target.serverPid,
    ownPids: target.ownPids,
    matches: (payload: NoticePayload, round) => payload.message_content.includes(marker(round)),
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
