/**
 * The built web app (dist/) with an SPA fallback: any GET that is not a file, an API call or the
 * socket path gets index.html, so deep links such as /user/login or /123/456 load the app.
 * Hashed assets are cached for a year; index.html is revalidated every time.
 */
import fs from 'node:fs';
import path from 'node:path';
import express, { type Request, type Response, type NextFunction, Router } from 'express';

const NOT_APP = /^\/(api|server|socket\.io|collab|healthz)(\/|$)/i;

export function webApp(distDir: string): Router {
  const router = Router();
  const indexFile = path.join(distDir, 'index.html');

  router.use(
    express.static(distDir, {
      index: false, // "/" goes through the fallback below, with its no-cache header
      setHeaders(res, file) {
        if (file.includes(`${path.sep}assets${path.sep}`))
          res.set('Cache-Control', 'public, max-age=31536000, immutable');
      },
    }),
  );

  router.get('/{*splat}', (req: Request, res: Response, next: NextFunction) => {
    // A missing file (has an extension) is a 404, not the app: a broken asset link should fail.
    if (NOT_APP.test(req.path) || path.extname(req.path) !== '') return next();
    if (!fs.existsSync(indexFile)) {
      res.status(503).type('text/plain').send('The web app is not built yet: run `npm run build`.');
      return;
    }
    res.set('Cache-Control', 'no-cache');
    res.sendFile(indexFile);
  });

  return router;
}
