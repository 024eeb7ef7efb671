/** Folders of the installed package, independent of the working directory. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// From scripts/ (the sources) and from dist-server/ (the bundle, server/serverBuild.ts) alike,
// the root is one folder up.
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const WEB_SRC = path.join(ROOT, 'web');
export const WEB_DIST = path.join(ROOT, 'dist');
export const SERVER_DIST = path.join(ROOT, 'dist-server');

/** True when this code runs from the bundle `npm start` runs, false from the sources (tsx, jest). */
const COMPILED = !/\.[cm]?tsx?$/.test(import.meta.url);

/**
 * A serving entry point as this process runs: the bundled one under dist-server/ when this
 * process runs the bundle, else its TypeScript source (run with the same tsx loader).
 */
export function serverEntry(name: 'serve' | 'worker' | 'engine-thread'): string {
  if (COMPILED) return path.join(SERVER_DIST, `${name}.js`);
  return path.join(ROOT, 'server', SOURCE_OF_ENTRY[name]);
}

const SOURCE_OF_ENTRY = {
  serve: 'serve.ts',
  worker: 'cluster/worker.ts',
  'engine-thread': 'cluster/engineThreadMain.ts',
} as const;
