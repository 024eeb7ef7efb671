/**
 * Reused answers of repeated reads. A reader's `page/info` is the same answer, byte for byte, for
 * as long as the request is the same and nothing it was built from has changed; this keeps such
 * answers and serves a repeated request from memory, in front of Express (a kept answer costs
 * a tenth of building it: the router, the action's promises and the envelope are skipped).
 *
 * When an answer may be reused — all of these, or it is built again:
 * - the action is in `REUSABLE` (reads without side effects whose answer depends only on the
 *   request, the clock and what they read);
 * - the request is the same: method, URL, body, and every header an action reads identity from
 *   (X-API-Token, Authorization, Cookie, Host);
 * - the clock has not reached a moment at which a time rule the build applied turns (a token's
 *   expiry, a share link's: the read trace's `expiresAt`), and the answer is less than
 *   `MAX_REUSE_SECONDS` old;
 * - its build read only the read caches, and each value it read is still the one kept
 *   (models/platform/requestClient.ts's read trace). A build that asked the database, the
 *   client's address (the visit-password throttle) or shared another request's load is not kept.
 *   Every write drops what it changed from the read caches before it answers — in the other
 *   processes as the event bus relays it — so an answer built from a dropped value is never
 *   served again.
 *
 * Only success answers are kept; errors and their wording are built each time. The same headers
 * go out as on the way through Express (security headers, no-store, the envelope's type and
 * length) and the request is logged the same. Bounded by ANSWER_CACHE_MB per worker: answers
 * past their time go first, then the oldest.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type Logger,
  nowSeconds,
  readCachesVersion,
  readsStillCurrent,
  type ReadTrace,
} from '../models/platform';
import type { Admission } from './admission';
import { ENVELOPE_TYPE } from './envelope';
import { readSmallFormText, smallFormLength } from './formBody';
import { CRAWLER_UA } from './crawlers';
import { logRequest } from './requestLog';
import { parseQueryString, resolveShowdocRoute } from './showdocRoute';
import type { AppState } from './state';

/** `controller/action` (lookup keys) whose success answers may be reused. */
const REUSABLE = new Set(['page/info', 'item/info']);

/**
 * The longest an answer is reused (seconds), whatever it was read from: a bound on how long a
 * time rule no model noted could be missed, and on how long an answer nobody asks for stays.
 */
export const MAX_REUSE_SECONDS = 10;

export interface Answer {
  /** The envelope in one buffer: a kept answer goes out in one write with its headers. */
  body: Buffer;
  /** The answer's status line headers, flat (name, value, …): the same as through Express. */
  head: string[];
  /** Served while the clock (Unix seconds) is before this. */
  validUntil: number;
  trace: ReadTrace;
  /** `readCachesVersion()` when the trace was last found current: unchanged since, it still is. */
  checkedAt: number;
  weight: number;
}

export interface AnswerCacheStats {
  answers: number;
  bytes: number;
  /** Requests answered from the cache. */
  hits: number;
  /** Answers built and kept. */
  kept: number;
}

/** A request the front read and let through: the transport builds its answer, maybe to keep. */
export interface LetThrough {
  key: string;
  /** The form body the front already read (the stream is spent), undefined for a GET. */
  body?: string;
  /**
   * An answer was kept but the read lane had no free slot: the request waits its turn there, and
   * the transport sends the kept answer if it is still good by then.
   */
  waitsForLane?: true;
}

const letThrough = new WeakMap<IncomingMessage, LetThrough>();

/** Per process (one per Quire app); `maxBytes` 0 keeps nothing. */
export class AnswerCache {
  private readonly answers = new Map<string, Answer>();
  private bytes = 0;
  private hits = 0;
  private kept = 0;
  /** The headers every kept answer starts with, flat: security headers, then no-store. */
  private readonly fixedHead: string[];

  constructor(
    readonly maxBytes: number,
    /** The security headers every answer carries (api/securityHeaders.ts). */
    headers: ReadonlyArray<readonly [string, string]> = [],
  ) {
    this.fixedHead = [...headers.flat(), 'Cache-Control', 'no-store'];
  }

  get enabled(): boolean {
    return this.maxBytes > 0;
  }

  /** Sends the kept answer for `key` when it may still be served; false when there is none. */
  send(key: string, res: ServerResponse): boolean {
    const answer = this.lookup(key);
    if (answer) this.serve(answer, res);
    return answer !== undefined;
  }

  /** Sends an answer `lookup` found. */
  serve(answer: Answer, res: ServerResponse): void {
    this.hits++;
    res.writeHead(200, answer.head);
    res.end(answer.body);
  }

  /** The kept answer for `key` when it may still be served. */
  lookup(key: string): Answer | undefined {
    const answer = this.answers.get(key);
    if (!answer) return undefined;
    const version = readCachesVersion();
    if (
      nowSeconds() >= answer.validUntil ||
      (answer.checkedAt !== version && !readsStillCurrent(answer.trace))
    ) {
      this.remove(key, answer);
      return undefined;
    }
    answer.checkedAt = version;
    return answer;
  }

  /**
   * Keeps an answer whose build began in `second` and saw what `trace` holds, when the build read
   * nothing the trace cannot follow and nothing it read has changed since.
   */
  keep(key: string, parts: Buffer[], second: number, trace: ReadTrace): void {
    const validUntil = Math.min(second + MAX_REUSE_SECONDS, trace.expiresAt);
    const now = nowSeconds();
    if (now >= validUntil || !readsStillCurrent(trace)) return;
    const body = parts.length === 1 ? parts[0] : Buffer.concat(parts);
    const { length } = body;
    // Keys hold the body; the trace a few references per value read.
    const weight = length + key.length * 2 + trace.seen.length * 8 + 200;
    if (weight > this.maxBytes / 4) return;
    const previous = this.answers.get(key);
    if (previous) this.remove(key, previous);
    const head = [
      ...this.fixedHead,
      'Content-Type',
      ENVELOPE_TYPE,
      'Content-Length',
      String(length),
    ];
    const checkedAt = readCachesVersion();
    this.answers.set(key, { body, head, validUntil, trace, checkedAt, weight });
    this.bytes += weight;
    this.kept++;
    // Insertion order is about the age order: answers past their time go first, then the oldest.
    for (const [oldKey, old] of this.answers) {
      if (now < old.validUntil && this.bytes <= this.maxBytes) break;
      this.remove(oldKey, old);
    }
  }

  stats(): AnswerCacheStats {
    return { answers: this.answers.size, bytes: this.bytes, hits: this.hits, kept: this.kept };
  }

  private remove(key: string, answer: Answer): void {
    this.answers.delete(key);
    this.bytes -= answer.weight;
  }
}

/** What identifies a request's answer, given its route and body. */
function answerKey(route: string, req: IncomingMessage, body: string): string {
  const h = req.headers;
  return `${req.method} ${route}\n${req.url}\n${h['x-api-token'] ?? ''}\n${h.authorization ?? ''}\n${h.cookie ?? ''}\n${h.host ?? ''}\n${body}`;
}

/**
 * The request the front read and let through, for the transport: the body it read and where to
 * keep the answer. Taken once.
 */
export function takeLetThrough(req: IncomingMessage): LetThrough | undefined {
  const found = letThrough.get(req);
  if (found) letThrough.delete(req);
  return found;
}

export interface AnswerFrontOptions {
  cache: AnswerCache;
  /** The read lane's limit applies to reused answers too (api/admission.ts). */
  admission: Pick<Admission, 'admitNow'>;
  state: AppState;
  logger: Logger;
  bodyLimitBytes: number;
}

/**
 * The front: a request for a reusable action is read here; a kept answer is sent at once,
 * anything else goes on to `next` (the Express app) with the body already read.
 */
export function answerFront(
  options: AnswerFrontOptions,
  next: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { cache, state, logger, bodyLimitBytes, admission } = options;
  if (!cache.enabled) return next;

  const routeOf = (req: IncomingMessage): { key: string; logPath: string } | null => {
    const url = req.url ?? '';
    const query = url.indexOf('?');
    // ShowDoc's web client names the route in the query (`/server/index.php?s=/api/page/info`):
    // read as Express reads it, so both resolve the same route.
    const pathname = query === -1 ? url : url.slice(0, query);
    const s = query === -1 ? undefined : parseQueryString(url.slice(query + 1)).s;
    const route = resolveShowdocRoute(pathname, s);
    if (route.kind !== 'route') return null;
    const key = `${route.controllerKey}/${route.actionKey}`;
    return REUSABLE.has(key) ? { key, logPath: route.logPath } : null;
  };

  return (req, res) => {
    const method = req.method;
    const url = req.url;
    if (
      (method !== 'POST' && method !== 'GET') ||
      !url ||
      !(url.startsWith('/api/') || url.startsWith('/server/')) ||
      state.phase !== 'ready' ||
      (state.database && !state.database.reachable()) ||
      CRAWLER_UA.test(req.headers['user-agent'] ?? '')
    )
      return next(req, res);
    const route = routeOf(req);
    if (!route) return next(req, res);
    const started = process.hrtime.bigint();

    /** Serves the kept answer, or lets the request through to be built (and maybe kept). */
    const answerOrBuild = (body: string | undefined) => {
      const key = answerKey(route.key, req, body ?? '');
      // A kept answer goes out now when the read lane has room; else the request waits its turn
      // in the lane like any read (and is then answered from memory by the transport).
      const answer = cache.lookup(key);
      if (answer && admission.admitNow('read', res)) {
        cache.serve(answer, res);
        return logRequest(logger, req.method ?? '', route.logPath, 200, started);
      }
      letThrough.set(req, answer ? { key, body, waitsForLane: true } : { key, body });
      next(req, res);
    };

    if (method === 'GET') {
      if (req.headers['content-length'] !== undefined || req.headers['transfer-encoding'])
        return next(req, res);
      return answerOrBuild(undefined);
    }

    if (smallFormLength(req, bodyLimitBytes) === 0) return next(req, res);
    readSmallFormText(req, answerOrBuild);
  };
}
