/**
 * Security headers on every answer (helmet): a Content Security Policy the web app, KaTeX,
 * mermaid and highlight.js work under (proved by test/e2e/csp.test.ts in a real browser),
 * `frame-ancestors 'self'` + X-Frame-Options against clickjacking, nosniff, and a Referrer-Policy
 * that keeps page addresses inside the site.
 *
 * Why each allowance: Ant Design, KaTeX and mermaid write inline `style` attributes and style
 * elements ('unsafe-inline' for styles only — scripts stay 'self'); pages show images from
 * anywhere (img-src https: http:) and embed https iframes (videos); data:/blob: serve pasted
 * images, KaTeX fonts and downloads; the editor's HTTP test tool sends from the browser to the
 * API under test (connect-src https: http: — no new way out, since img-src already reaches any
 * host). HSTS and upgrade-insecure-requests are left to the TLS proxy:
 * set here they would break a plain-HTTP install on a LAN.
 */
import type { NextFunction, Request, Response } from 'express';
import helmet from 'helmet';

/**
 * The headers are the same on every answer: helmet works them out once, here, and each answer
 * gets them in one pass (helmet's twelve middlewares per request were ~4% of a page read's CPU).
 */
export function securityHeaders() {
  const headers = securityHeaderList();
  return (_req: Request, res: Response, next: NextFunction) => {
    for (const [name, value] of headers) res.setHeader(name, value);
    next();
  };
}

/** The security headers as helmet sets them, in its order (the answer cache's front sends them too). */
export function securityHeaderList(): Array<[string, string]> {
  const headers: [string, string][] = [];
  const record = {
    setHeader: (name: string, value: string | number | readonly string[]) =>
      headers.push([name, String(value)]),
    removeHeader: () => {},
    getHeader: () => undefined,
  };
  let finished = false;
  helmetMiddleware()({} as Request, record as unknown as Response, (error?: unknown) => {
    if (error) throw error;
    finished = true;
  });
  if (!finished) throw new Error('helmet did not finish synchronously');
  return headers;
}

function helmetMiddleware() {
  return helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:', 'blob:', 'https:', 'http:'],
        'font-src': ["'self'", 'data:'],
        'connect-src': ["'self'", 'https:', 'http:'],
        'frame-src': ["'self'", 'https:'],
        'worker-src': ["'self'", 'blob:'],
        'media-src': ["'self'", 'data:', 'blob:', 'https:'],
        'object-src': ["'none'"],
        'base-uri': ["'self'"],
        'form-action': ["'self'"],
        'frame-ancestors': ["'self'"],
      },
    },
    xFrameOptions: { action: 'sameorigin' },
    referrerPolicy: { policy: 'same-origin' },
    strictTransportSecurity: false,
    // Attachments and images are linked from other sites (ShowDoc's file URLs are public).
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    // OAuth and share windows open across origins.
    crossOriginOpenerPolicy: false,
  });
}
