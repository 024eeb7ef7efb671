/**
 * The public mock URLs (reference pages §7), outside the ShowDoc envelope:
 *
 *   /server/mock-data/<unique_key>
 *   /server/mock-path/<item_id>?path=<path>
 *   /server/index.php?s=mock-data/<unique_key>  and  ?s=mock-path/<item_id>&path=<path>
 *
 * Any method, no token, no visit password. Answers are raw `application/json` (the expansion) or
 * plain text with ShowDoc's statuses (404 `no such key` / `no such path`, 400). Mounted before
 * the ShowDoc transport, which would take these URLs for malformed API routes. Cross-origin reads
 * are allowed: a mock stands in for an API that front-end code on another origin calls, and it
 * carries nothing private (no credentials are accepted).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { errors } from '../models/platform';
import { serveMockByKey, serveMockByPath, type MockAnswer } from '../models/mocks';
import type { AppState } from './state';

type MockRoute = { kind: 'data'; key: string } | { kind: 'path'; itemId: string };

const PATH_FORM = /^\/server\/mock-(data|path)\/([^/]*)\/?$/i;
const QUERY_FORM = /^\/?mock-(data|path)\/([^/]*)\/?$/i;
const INDEX_FORMS = new Set(['/server', '/server/', '/server/index.php']);
/** Every mock URL is under /server: the rest pass without reading their query. */
const MAYBE_MOCK = /^\/server/i;

function routeOf(pathname: string, s: unknown): MockRoute | null {
  let match = PATH_FORM.exec(pathname);
  if (!match && INDEX_FORMS.has(pathname.toLowerCase()) && typeof s === 'string')
    match = QUERY_FORM.exec(s);
  if (!match) return null;
  let value: string;
  try {
    value = decodeURIComponent(match[2]);
  } catch {
    return null;
  }
  return match[1].toLowerCase() === 'data'
    ? { kind: 'data', key: value }
    : { kind: 'path', itemId: value };
}

function send(res: Response, answer: MockAnswer): void {
  res.set('Access-Control-Allow-Origin', '*');
  if (answer.status === 200) res.status(200).type('application/json').send(answer.json);
  else res.status(answer.status).type('text/plain').send(answer.text);
}

/** A plain middleware, not a router: a router's exit costs every other request a setImmediate. */
export function mockServing(state: AppState): RequestHandler {
  async function serve(req: Request, res: Response, route: MockRoute): Promise<void> {
    res.locals.logPath = `/server/mock-${route.kind}`; // keys are capabilities: not logged
    if (state.phase !== 'ready') throw errors.starting(undefined, { httpStatus: 503 });
    if (route.kind === 'data') return send(res, await serveMockByKey(route.key));
    const itemId = /^\d{1,15}$/.test(route.itemId) ? Number(route.itemId) : 0;
    const query = req.query as Record<string, unknown>;
    const path = typeof query.path === 'string' ? query.path : '';
    send(res, await serveMockByPath(itemId, path));
  }

  return (req: Request, res: Response, next: NextFunction) => {
    const pathname = req.originalUrl.split('?')[0];
    const route = MAYBE_MOCK.test(pathname)
      ? routeOf(pathname, (req.query as Record<string, unknown>).s)
      : null;
    if (!route) return next();
    serve(req, res, route).catch(next);
  };
}
