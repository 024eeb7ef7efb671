/**
 * Admission control: how many requests one worker runs at once, and what happens to the rest.
 *
 * Without it Node accepts everything, every request gets a slice of the event loop, and under
 * overload each one waits behind all the others (measured: reads up to 28 s, saves starved to 14%
 * of their solo rate, /healthz 2 s). Here each lane — reads, and writes in a lane of their own so a
 * flood of reads never starves saves — runs at most `maxInflight` requests; up to `maxQueue` more
 * wait in order, each for at most `queueTimeoutMs`; anything past that is answered at once with
 * 503 and `Retry-After`, in ShowDoc's envelope on the API, so a client sees a clear "busy" instead
 * of a silent wait. `/healthz` is mounted before this and never waits.
 */
import type { ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import { errors, type Logger } from '../models/platform';
import { errorBody } from './envelope';
import { routeOfRequest } from './showdocRoute';

export interface AdmissionLimits {
  /** Requests one lane runs at once; 0 turns admission control off. */
  maxInflight: number;
  /** Requests one lane holds waiting for a slot; past it they are refused at once. */
  maxQueue: number;
  /** Longest wait in the queue before a request is refused. */
  queueTimeoutMs: number;
}

export type Lane = 'read' | 'write';

/**
 * Actions that change something. ShowDoc clients POST reads and writes alike, so the method says
 * nothing: the action's name does (`page/save`, `catalog/delete`, `item/updateByApi` …).
 */
const WRITE_ACTION =
  /^(add|save|update|delete|del|create|reset|set|archive|attorn|sort|star|unstar|top|exit|register|login|logout|upload(?!list)|attachmentupload|batch|binding|recover|copy|mark|submit|sync|ban|white|recommend|redeem|rotate|redeliver|revoke|promote|confirm|import|generate|run|send|logevent|select|feedback|session(new|reset|delete)|agentcancel|harddelete)/i;

/** Which lane a request queues in: anything not under the API counts as a read. */
export function laneOf(req: Request): Lane {
  const route = routeOfRequest(req);
  return route.kind === 'route' && WRITE_ACTION.test(route.action) ? 'write' : 'read';
}

interface Waiter {
  admit: () => void;
  timer: NodeJS.Timeout;
}

class LaneState {
  inflight = 0;
  readonly queue: Waiter[] = [];
  refused = 0;
}

export interface AdmissionStats {
  read: { inflight: number; queued: number; refused: number };
  write: { inflight: number; queued: number; refused: number };
}

export interface Admission {
  (req: Request, res: Response, next: NextFunction): void;
  /**
   * For an answer sent before Express (a reused answer, api/answerCache.ts): takes a slot of
   * `lane` for `res` when one is free and nobody waits for it — true, and the answer may go out
   * now, the slot freed as for any request — else false, and the request goes the normal way (to
   * wait in the lane's queue, or be refused). Reused answers so count in the lane's limit per
   * turn of the event loop like any read, and a flood of them cannot starve the saves.
   */
  admitNow(lane: Lane, res: ServerResponse): boolean;
  stats(): AdmissionStats;
}

/** The busy answer: the envelope on the API (its clients switch on error_code), text elsewhere. */
function refuse(req: Request, res: Response, retryAfterSeconds: number, message: string): void {
  res.locals.logPath ??= req.originalUrl.split('?')[0].split('/').slice(0, 4).join('/');
  res.set('Retry-After', String(retryAfterSeconds));
  res.set('Cache-Control', 'no-store');
  // The connection may be one of many a flood keeps open: let the client reconnect later.
  res.set('Connection', 'close');
  const pathname = req.originalUrl.split('?')[0];
  if (pathname.startsWith('/api') || pathname.startsWith('/server')) {
    const error = errors.busy(message, { httpStatus: 503 });
    res.status(503).json(errorBody(error.code, error.message));
  } else res.status(503).type('text/plain').send(message);
}

export function admission(limits: AdmissionLimits, logger: Logger): Admission {
  const lanes: Record<Lane, LaneState> = { read: new LaneState(), write: new LaneState() };
  const retryAfter = Math.max(1, Math.ceil(limits.queueTimeoutMs / 1000));
  let lastWarn = 0;

  function warnRefused(lane: Lane, why: string): void {
    // One line per ten seconds at most: an overload must not also flood the log.
    const now = Date.now();
    if (now - lastWarn < 10_000) return;
    lastWarn = now;
    logger.warn(
      { lane, why, inflight: lanes[lane].inflight, queued: lanes[lane].queue.length },
      'overloaded: refusing requests with 503',
    );
  }

  function release(lane: LaneState): void {
    const next = lane.queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.admit(); // the slot passes straight on; inflight stays the same
    } else lane.inflight -= 1;
  }

  function run(lane: LaneState, res: ServerResponse, next: () => void): void {
    let done = false;
    // 'close' fires once the answer is sent or the client went away, whichever comes first. The
    // slot is let go on the next turn of the event loop, not at once: a request answered without
    // waiting for anything (a cached read) would otherwise free its slot within the same turn,
    // and one turn would run every request its connections brought — hundreds under a flood —
    // while the saves' database round trips, new connections and /healthz waited for that turn
    // to end (the overload cell: saves fell to 0.03 of their solo rate). So a lane starts at
    // most its limit of requests per turn, and the turns stay short.
    res.once('close', () => {
      if (done) return;
      done = true;
      setImmediate(release, lane);
    });
    next();
  }

  const middleware = ((req: Request, res: Response, next: NextFunction) => {
    if (limits.maxInflight <= 0) return next();
    const name = laneOf(req);
    const lane = lanes[name];
    if (lane.inflight < limits.maxInflight) {
      lane.inflight += 1;
      run(lane, res, next);
      return;
    }
    if (lane.queue.length >= limits.maxQueue) {
      lane.refused += 1;
      warnRefused(name, 'queue full');
      refuse(req, res, retryAfter, 'Server busy, try again shortly');
      return;
    }
    const waiter: Waiter = {
      admit: () => {
        res.off('close', onGoneWhileQueued);
        run(lane, res, next);
      },
      timer: setTimeout(() => {
        lane.queue.splice(lane.queue.indexOf(waiter), 1);
        res.off('close', onGoneWhileQueued);
        lane.refused += 1;
        warnRefused(name, 'queue timeout');
        refuse(req, res, retryAfter, 'Server busy, try again shortly');
      }, limits.queueTimeoutMs),
    };
    // A client that gave up while waiting leaves the queue, so nobody serves a closed socket.
    function onGoneWhileQueued(): void {
      const at = lane.queue.indexOf(waiter);
      if (at >= 0) lane.queue.splice(at, 1);
      clearTimeout(waiter.timer);
    }
    res.once('close', onGoneWhileQueued);
    lane.queue.push(waiter);
  }) as Admission;

  middleware.admitNow = (name: Lane, res: ServerResponse) => {
    if (limits.maxInflight <= 0) return true;
    const lane = lanes[name];
    if (lane.inflight >= limits.maxInflight || lane.queue.length > 0) return false;
    lane.inflight += 1;
    run(lane, res, () => {});
    return true;
  };

  middleware.stats = () => ({
    read: {
      inflight: lanes.read.inflight,
      queued: lanes.read.queue.length,
      refused: lanes.read.refused,
    },
    write: {
      inflight: lanes.write.inflight,
      queued: lanes.write.queue.length,
      refused: lanes.write.refused,
    },
  });
  return middleware;
}
