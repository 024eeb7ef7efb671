/**
 * Where a login (or the token-login bridge) may send the user afterwards (spec 000 §5): only
 * letters, digits and `/ : ? . _ * + -`, no dot and no double slash — so never another site
 * (`//evil`, `https://…`) and never a path climbing out (`/../`). Quire also requires a leading
 * `/`: a redirect is always a path of this app.
 */
const ALLOWED = /^[A-Za-z0-9/:?._*+-]+$/;

export const DEFAULT_AFTER_LOGIN = '/item/index';

export function isSafeRedirect(target: string): boolean {
  return (
    ALLOWED.test(target) &&
    target.startsWith('/') &&
    !target.includes('.') &&
    !target.includes('//')
  );
}

/**
 * The redirect to put on the login link when a login turns out invalid: the current path with
 * its query when that passes the rule (a query has `=`, which does not), else the bare path.
 */
export function currentPathAsRedirect(pathname: string, search: string): string {
  const full = pathname + search;
  if (isSafeRedirect(full)) return full;
  return isSafeRedirect(pathname) ? pathname : DEFAULT_AFTER_LOGIN;
}
