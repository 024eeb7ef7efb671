/**
 * The built web app (dist/) with an SPA fallback: any GET that is not a file, an API call or the
 * socket path gets index.html, so deep links such as /user/login or /123/456 load the app.
 *
 * The build writes a brotli (.br) and a gzip (.gz) copy next to every text file (vite.config.ts);
 * a request is answered with the best copy its Accept-Encoding allows (q-values honoured, brotli
 * preferred among equals), so nothing is compressed per request. A Range request gets the plain file: its byte offsets are
 * offsets into the decoded file, which a compressed copy cannot serve.
 * Hashed assets (assets/*) are cached for a year; index.html is revalidated every time.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type NextFunction, Router } from 'express';
import Negotiator from 'negotiator';

const NOT_APP = /^\/(api|server|socket\.io|collab|healthz)(\/|$)/i;

/** Server preference among equally acceptable encodings: brotli is about 15% smaller than gzip. */
const ENCODINGS = [
  { name: 'br', suffix: '.br' },
  { name: 'gzip', suffix: '.gz' },
] as const;
const PREFERRED = ENCODINGS.map((e) => e.name);

/** negotiator 1.x takes the server's order for ties; @types/negotiator (0.6) does not know it. */
type EncodingNegotiator = {
  encoding(
    available: readonly string[],
    options: { preferred: readonly string[] },
  ): string | undefined;
};

const IMMUTABLE = 'public, max-age=31536000, immutable';

/** Points the request at another file; the request log keeps the path the client asked for. */
function rewrite(req: Request, res: Response, url: string): void {
  res.locals.logPath ??= req.path;
  req.url = url;
}

export function webApp(distDir: string): Router {
  const router = Router();
  const root = path.resolve(distDir);
  const indexFile = path.join(root, 'index.html');
  const isAsset = (file: string) => file.startsWith(path.join(root, 'assets') + path.sep);

  const serveFile = express.static(root, {
    index: false, // "/" goes through the fallback below, with its no-cache header
    setHeaders(res, file) {
      res.set('Cache-Control', isAsset(file) ? IMMUTABLE : 'no-cache');
    },
  });

  /** Points req.url at the best compressed copy of `file`, when there is one the client takes. */
  function negotiate(req: Request, res: Response, file: string): void {
    const copies = ENCODINGS.filter((e) => fs.existsSync(file + e.suffix));
    if (copies.length === 0) return;
    // The answer depends on Accept-Encoding even when it is the plain file (ranges included).
    res.vary('Accept-Encoding');
    if (req.headers.range) return;
    const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
    const chosen = negotiator.encoding([...copies.map((c) => c.name), 'identity'], {
      preferred: PREFERRED,
    });
    const copy = copies.find((c) => c.name === chosen);
    if (!copy) return;
    // serve-static keeps a Content-Type already set, and sizes the body from the copy it sends.
    res.type(path.extname(file));
    res.set('Content-Encoding', copy.name);
    rewrite(
      req,
      res,
      req.url.replace(/^[^?]*/, (p) => p + copy.suffix),
    );
  }

  /** The file under dist/ a request path names, or null when it leaves dist/ or is not a file. */
  function fileFor(requestPath: string): string | null {
    let decoded: string;
    try {
      decoded = decodeURIComponent(requestPath);
    } catch {
      return null;
    }
    if (decoded.includes('\0')) return null;
    const file = path.join(root, path.normalize(decoded));
    if (!file.startsWith(root + path.sep)) return null;
    return fs.statSync(file, { throwIfNoEntry: false })?.isFile() ? file : null;
  }

  /** A copy gone between the check and the send (a rebuild) must not label the 404 as encoded. */
  const fallThrough = (res: Response, next: NextFunction) => (err?: unknown) => {
    if (!res.headersSent) res.removeHeader('Content-Encoding');
    next(err);
  };

  router.use((req: Request, res: Response, next: NextFunction) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    if (NOT_APP.test(req.path)) return next();
    const file = fileFor(req.path);
    if (!file) return next();
    negotiate(req, res, file);
    serveFile(req, res, fallThrough(res, next));
  });

  router.get('/{*splat}', (req: Request, res: Response, next: NextFunction) => {
    // A missing file (has an extension) is a 404, not the app: a broken asset link should fail.
    if (NOT_APP.test(req.path) || path.extname(req.path) !== '') return next();
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    rewrite(req, res, '/index.html');
    negotiate(req, res, indexFile);
    serveFile(req, res, fallThrough(res, next));
  });

  return router;
}
