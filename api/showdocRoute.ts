/**
 * The one place that turns a request URL into a ShowDoc route (reference accounts §0.1):
 *
 *   /api/<controller>/<action>[/<k1>/<v1>/…]
 *   /server/api/<controller>/<action>[/…]
 *   /server/index.php?s=/api/<controller>/<action>[/…]   (also /server/?s=…, /server/index.php/api/…)
 *
 * Controller names match case-insensitively in lowerCamel, UpperCamel or snake_case (`itemGroup`,
 * `ItemGroup`, `item_group`); action names case-insensitively. Extra path segments are key/value
 * parameters that win over body and query.
 */
import type { Request } from 'express';
import qs from 'qs';
import { stripPollutionKeys } from './sanitize';

export type RouteResolution =
  /** Not a ShowDoc URL: let the rest of the app (web app, health) answer. */
  | { kind: 'none' }
  | { kind: 'error'; httpStatus: 400 | 404; code: 10400 | 10404 }
  | {
      kind: 'route';
      controller: string;
      action: string;
      /** Lookup keys: `itemgroup`, `loginbyverify`. */
      controllerKey: string;
      actionKey: string;
      pathParams: Record<string, string>;
      /** For logs: `/api/<controller>/<action>`, without parameter segments (they may hold tokens). */
      logPath: string;
      /** True for the `?s=` form, whose `s` query field is the route, not a parameter. */
      routeInQuery: boolean;
    };

const NOT_FOUND = { kind: 'error', httpStatus: 404, code: 10404 } as const;
const BAD_REQUEST = { kind: 'error', httpStatus: 400, code: 10400 } as const;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `itemGroup`, `ItemGroup`, `item_group` → `itemgroup`. */
export function controllerKey(name: string): string {
  return name.replace(/_/g, '').toLowerCase();
}

/** `loginByVerify`, `loginbyverify` → `loginbyverify`. */
export function actionKey(name: string): string {
  return name.toLowerCase();
}

function decode(segment: string): string | undefined {
  try {
    return decodeURIComponent(segment);
  } catch {
    return undefined;
  }
}

/** Parses `/<module>/<controller>/<action>/<k>/<v>…`. */
export function parseRouteString(route: string, routeInQuery: boolean): RouteResolution {
  const segments = route.replace(/^\/+/, '').split('/');
  while (segments.length > 3 && segments[segments.length - 1] === '') segments.pop();
  const [module = '', controller = '', action = ''] = segments;
  if (!module || !controller || !action) return BAD_REQUEST;
  if (module.toLowerCase() !== 'api' || !NAME.test(controller) || !NAME.test(action))
    return NOT_FOUND;

  const pairs: Record<string, string> = {};
  const rest = segments.slice(3);
  for (let i = 0; i < rest.length; i += 2) {
    const key = decode(rest[i]);
    const value = decode(rest[i + 1] ?? '');
    if (key === undefined || value === undefined) return BAD_REQUEST;
    if (key !== '') pairs[key] = value;
  }
  return {
    kind: 'route',
    controller,
    action,
    controllerKey: controllerKey(controller),
    actionKey: actionKey(action),
    pathParams: stripPollutionKeys(pairs) as Record<string, string>,
    logPath: `/api/${controller}/${action}`,
    routeInQuery,
  };
}

/**
 * The query string as Express parses it (the app's `query parser`): PHP-style forms
 * (`a[]=1&a[]=2`, `a[b]=1`), without prototypes. The answer front reads `s` with it too, so
 * both agree on the route of an `index.php?s=` URL.
 */
export function parseQueryString(text: string): Record<string, unknown> {
  return qs.parse(text, {
    allowPrototypes: false,
    depth: 10,
    arrayLimit: 1000,
    parameterLimit: 10_000,
  });
}

/**
 * @param pathname the URL path, still percent-encoded
 * @param s the parsed `s` query field (the route in `index.php?s=` URLs)
 */
export function resolveShowdocRoute(pathname: string, s: unknown): RouteResolution {
  const lower = pathname.toLowerCase();
  if (lower === '/api' || lower.startsWith('/api/')) return parseRouteString(pathname, false);
  if (lower !== '/server' && !lower.startsWith('/server/')) return { kind: 'none' };

  const inner = pathname.slice('/server'.length); // '', '/', '/index.php…', '/api/…'
  const innerLower = inner.toLowerCase();
  if (innerLower.startsWith('/api/') || innerLower === '/api')
    return parseRouteString(inner, false);
  if (innerLower.startsWith('/index.php/'))
    return parseRouteString(inner.slice('/index.php'.length), false);
  if (inner === '' || inner === '/' || innerLower === '/index.php') {
    if (typeof s !== 'string' || s === '') return BAD_REQUEST;
    return parseRouteString(s, true);
  }
  return NOT_FOUND;
}

const resolved = new WeakMap<Request, RouteResolution>();

/**
 * The request's ShowDoc route, resolved once per request: admission control (its lane) and the
 * transport (its action) both ask, and Express parses `req.query` again on every read of it.
 */
export function routeOfRequest(req: Request): RouteResolution {
  let route = resolved.get(req);
  if (!route) {
    const pathname = req.originalUrl.split('?')[0];
    const lower = pathname.slice(0, 7).toLowerCase();
    route =
      lower.startsWith('/api') || lower.startsWith('/server')
        ? resolveShowdocRoute(pathname, (req.query as Record<string, unknown>)?.s)
        : { kind: 'none' };
    resolved.set(req, route);
  }
  return route;
}
