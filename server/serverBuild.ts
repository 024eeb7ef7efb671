/**
 * `npm start` runs the server as plain JavaScript: the supervisor, the primary and the workers
 * would each carry the tsx loader (its compile cache, source maps and an esbuild service child,
 * some 40–60 MB per process) if they ran the TypeScript sources. This bundles the serving entry
 * points into dist-server/ (node_modules stay external, so each dependency is loaded from
 * node_modules as before; shared code goes to common chunks loaded once per process) when the
 * bundle is missing or older than any server source. Like webBuild.ts it builds into a temporary
 * folder that then replaces dist-server/, so a failed or concurrent build never leaves a
 * half-written one. The admin CLI, the tests and the bench keep running the sources under tsx.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type BuildOptions } from 'esbuild';
import { ROOT } from './paths';
import { buildInto, newestMtime } from './webBuild';

/** Output names in dist-server/ → their sources (server/paths.ts `serverEntry` knows them). */
export const SERVER_ENTRIES = {
  serve: 'server/serve.ts',
  worker: 'server/cluster/worker.ts',
  /** The lead worker's database engine thread (server/cluster/engineThread.ts). */
  'engine-thread': 'server/cluster/engineThreadMain.ts',
  supervisor: 'server/supervisor.ts',
  /** The cluster primary `npm start` runs in its own process with WORKERS > 1. */
  cluster: 'server/cluster/serveCluster.ts',
  /** `npm run bench`'s server (scripts/bench/run.ts), measured as `npm start` runs. */
  'bench-server': 'scripts/bench/server.ts',
} as const;

/** Everything the bundle is made of (dependencies stay in node_modules, read at run time). */
const SOURCES = ['api', 'models', 'realtime', 'server', 'scripts', 'package.json', 'tsconfig.json'];

/** True when dist-server/serve.js is missing or older than the newest server source. */
export function serverBuildIsStale(root: string): boolean {
  const built = fs.statSync(path.join(root, 'dist-server', 'serve.js'), { throwIfNoEntry: false });
  if (!built) return true;
  const sources = Math.max(...SOURCES.map((entry) => newestMtime(path.join(root, entry))));
  return sources > built.mtimeMs;
}

/** esbuild's options for the bundle of `root` written to `outdir` (the tests read them too). */
export function serverBuildOptions(root: string, outdir: string): BuildOptions {
  return {
    absWorkingDir: root,
    entryPoints: Object.fromEntries(
      Object.entries(SERVER_ENTRIES).map(([name, source]) => [name, path.join(root, source)]),
    ),
    bundle: true,
    // Chunks sit beside the entries, one folder below the root: server/paths.ts finds the
    // root from there as it does from scripts/.
    splitting: true,
    chunkNames: '[name]-[hash]',
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    outdir,
    logLevel: 'warning',
  };
}

export async function buildServer(root: string): Promise<void> {
  await buildInto(path.join(root, 'dist-server'), 'serve.js', async (into) => {
    await build(serverBuildOptions(root, into));
  });
}

/** Builds when stale; says so through `print`. */
export async function ensureServerBuilt(
  root: string,
  print: (text: string) => void,
): Promise<boolean> {
  if (!serverBuildIsStale(root)) return false;
  print('Building the server (dist-server/ is missing or older than its sources)…');
  await buildServer(root);
  return true;
}

// `npm run build` builds it too (after the web app), so tests and CI start from a fresh bundle.
// (No top-level await: jest loads this module as CommonJS.)
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  buildServer(ROOT).catch((error: unknown) => {
    process.stderr.write(`Could not build the server: ${(error as Error).message}\n`);
    process.exitCode = 1;
  });
