/**
 * The ShowDoc transport, in request order: refuse crawlers → resolve the route → refuse while not
 * ready or while the database is out of reach → parse the body (form or JSON, size-limited) →
 * find the action → run it → envelope. One middleware, called in that order.
 * Everything under /api and /server passes through here; nothing else does.
 */
import express, {
  type NextFunction,
  type Request,
  type RequestHandler,
  type Response,
} from 'express';
import {
  ApiError,
  assertDepth,
  errors,
  events,
  type Logger,
  MAX_INPUT_DEPTH,
  newReadTrace,
  nowSeconds,
  runForClient,
} from '../models/platform';
import { type AnswerCache, type LetThrough, takeLetThrough } from './answerCache';
import { sendParts, successParts } from './envelope';
import { findContract } from './contracts';
import { CRAWLER_UA } from './crawlers';
import { acceptSmallForm, readSmallForm, smallFormLength } from './formBody';
import { Params, parseInput } from './params';
import type { ActionConfig, ActionContext, ControllerRegistry } from './registry';
import { toParamRecord } from './sanitize';
import { routeOfRequest, type RouteResolution } from './showdocRoute';
import type { AppState } from './state';

type ResolvedRoute = Extract<RouteResolution, { kind: 'route' }>;

/** Most fields one form may carry (PHP arrays count each element). */
const FORM_PARAMETER_LIMIT = 10_000;

function tokenFrom(req: Request, params: Params): string {
  const header = req.get('x-api-token');
  if (header) return header.trim();
  const bearer = /^Bearer\s+(\S+)/i.exec(req.get('authorization') ?? '');
  if (bearer) return bearer[1];
  try {
    return params.str('user_token');
  } catch {
    return ''; // a non-string user_token is simply no token
  }
}

export function showdocTransport(options: {
  registry: ControllerRegistry;
  state: AppState;
  logger: Logger;
  bodyLimitBytes: number;
  actionConfig: ActionConfig;
  /** Where reusable answers are kept (api/answerCache.ts); its front reads their requests. */
  answers?: AnswerCache;
}): RequestHandler {
  const { registry, state, logger, bodyLimitBytes, actionConfig, answers } = options;

  // ShowDoc clients send forms by default, JSON sometimes; uploads (multipart) have their own route.
  const parseJson = express.json({
    limit: bodyLimitBytes,
    type: ['application/json', 'application/*+json'],
  });
  const parseForm = express.urlencoded({
    extended: true,
    limit: bodyLimitBytes,
    parameterLimit: FORM_PARAMETER_LIMIT,
  });

  /** Refuses what must not reach an action; the route, or null when the URL is not ShowDoc's. */
  function admit(req: Request, res: Response): ResolvedRoute | null {
    if (CRAWLER_UA.test(req.get('user-agent') ?? '')) {
      res.locals.logPath = '/api (crawler)';
      res.status(403).type('text/plain').send('Forbidden');
      return null;
    }
    const route = routeOfRequest(req);
    if (route.kind === 'none') return null;
    if (route.kind === 'error') {
      res.locals.logPath = req.originalUrl.split('?')[0].split('/').slice(0, 3).join('/');
      throw new ApiError(route.code, undefined, { httpStatus: route.httpStatus });
    }
    res.locals.logPath = route.logPath;
    // Answers carry tokens, private pages and member lists: no browser or proxy keeps them.
    res.setHeader('Cache-Control', 'no-store');
    if (state.phase !== 'ready') throw errors.starting(undefined, { httpStatus: 503 });
    // The database host is known to be gone: say so at once (the error handler adds
    // Retry-After) rather than hold the request until mongoose's buffering gives up.
    if (state.database && !state.database.reachable())
      throw errors.databaseUnavailable(undefined, { httpStatus: 503 });
    return route;
  }

  async function run(
    req: Request,
    res: Response,
    route: ResolvedRoute,
    form: boolean,
    through: LetThrough | undefined,
  ): Promise<void> {
    // JSON.parse does not recurse, but everything that reads the parameters after it may: a body
    // nested past MAX_INPUT_DEPTH is refused like the other malformed bodies (400, 10101).
    const bodyIsJson = !form && req.body !== undefined && Boolean(req.is('json'));
    if (bodyIsJson && req.body && typeof req.body === 'object')
      assertDepth(req.body, 'The request body', MAX_INPUT_DEPTH, { httpStatus: 400 });

    const handler = registry.find(route.controller, route.action);
    if (!handler) throw errors.invalidRequest(undefined, { httpStatus: 404 });

    const query = toParamRecord(req.query);
    if (route.routeInQuery) delete query.s;
    const params = new Params({
      path: route.pathParams,
      body: toParamRecord(req.body),
      query,
      bodyIsJson,
    });
    const contract = findContract(route.controllerKey, route.action);
    const ctx: ActionContext = {
      req,
      res,
      params,
      input: contract ? (parseInput(contract.input, params) as Record<string, unknown>) : {},
      controller: route.controller,
      action: route.action,
      ip: req.ip ?? '',
      logger,
      config: actionConfig,
      token: () => tokenFrom(req, params),
    };
    // A request the answer cache's front let through is built with a read trace, to be kept.
    const trace = through && answers ? newReadTrace() : undefined;
    const second = trace ? nowSeconds() : 0;
    const data = await runForClient(
      ctx.ip,
      async () => {
        const answer = await handler(ctx);
        // A write's events reach the other processes before its answer (read-your-writes there
        // too); inside the request's scope, so only its own events are waited for.
        await events.delivered();
        return answer;
      },
      trace,
    );
    if (res.headersSent) return;
    // Written directly: no ETag (answers are no-store, and hashing a big menu costs more than
    // building it), and RawJson parts spliced in as they are.
    const parts = successParts(data);
    if (trace && through && answers) answers.keep(through.key, parts, second, trace);
    sendParts(res, parts);
  }

  // One middleware rather than a router of five: every API request passed each layer's path
  // matching and the router's exit through setImmediate (measured in page/info's profile).
  return (req: Request, res: Response, next: NextFunction) => {
    const through = takeLetThrough(req);
    const route = admit(req, res);
    if (!route) {
      if (!res.headersSent) next();
      return;
    }
    // Let through by the answer cache's front to wait its turn in the read lane with an answer
    // kept: sent now if it is still good (api/answerCache.ts).
    if (through?.waitsForLane && answers?.send(through.key, res)) return;
    const formRead = (error?: unknown) => {
      if (error) return next(error);
      run(req, res, route, true, through).catch(next);
    };
    // The front read the body already (its stream is spent).
    if (through?.body !== undefined)
      return acceptSmallForm(req, through.body, FORM_PARAMETER_LIMIT, formRead);
    if (smallFormLength(req, bodyLimitBytes) > 0)
      return readSmallForm(req, FORM_PARAMETER_LIMIT, formRead);
    parseJson(req, res, (jsonError?: unknown) => {
      if (jsonError) return next(jsonError);
      parseForm(req, res, (formError?: unknown) => {
        if (formError) return next(formError);
        run(req, res, route, false, through).catch(next);
      });
    });
  };
}
