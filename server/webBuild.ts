/**
 * `npm start` builds the web app only when it has to: dist/ missing, or older than any file under
 * web/ or the Vite config. The build goes to a temporary folder that then replaces dist/, so a
 * failed or concurrent build never leaves a half-written dist/ behind.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** The newest mtime of a file or of anything under a folder (0 when it does not exist). */
export function newestMtime(target: string): number {
  const stat = fs.statSync(target, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted file changes its folder's mtime
  for (const entry of fs.readdirSync(target))
    newest = Math.max(newest, newestMtime(path.join(target, entry)));
  return newest;
}

/** True when dist/index.html is missing or older than the newest web source. */
export function webBuildIsStale(root: string): boolean {
  const built = fs.statSync(path.join(root, 'dist', 'index.html'), { throwIfNoEntry: false });
  if (!built) return true;
  const sources = Math.max(
    newestMtime(path.join(root, 'web')),
    newestMtime(path.join(root, 'vite.config.ts')),
  );
  return sources > built.mtimeMs;
}

function run(command: string, args: string[], cwd: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ['ignore', 'inherit', 'inherit'],
      env: { ...process.env, NODE_ENV: 'production' },
    });
    child.once('error', reject);
    child.once('exit', (code, signal) =>
      code === 0 ? resolve() : reject(new Error(`web build failed (${signal ?? `exit ${code}`})`)),
    );
  });
}

/**
 * Builds into a temporary folder beside `out`, then swaps it in: a failed build leaves the old
 * `out` as it was, and of two concurrent builds the one that finishes first serves (`marker` is
 * a file of a complete build).
 */
export async function buildInto(
  out: string,
  marker: string,
  write: (into: string) => Promise<void>,
): Promise<void> {
  const staging = `${out}.building-${process.pid}`;
  const retired = `${out}.old-${process.pid}`;
  try {
    await write(staging);
    if (fs.existsSync(out)) fs.renameSync(out, retired);
    try {
      fs.renameSync(staging, out);
    } catch (error) {
      // Another start built it at the same time and put its copy in first: that one serves.
      if (!fs.existsSync(path.join(out, marker))) throw error;
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(retired, { recursive: true, force: true });
  }
}

export async function buildWeb(root: string): Promise<void> {
  await buildInto(path.join(root, 'dist'), 'index.html', async (into) => {
    await run(
      process.execPath,
      [
        path.join(root, 'node_modules', 'vite', 'bin', 'vite.js'),
        'build',
        '--outDir',
        into,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      root,
    );
  });
}

/** Builds when stale; says so through `print`. */
export async function ensureWebBuilt(
  root: string,
  print: (text: string) => void,
): Promise<boolean> {
  if (!webBuildIsStale(root)) return false;
  print('Building the web app (dist/ is missing or older than web/)…');
  await buildWeb(root);
  return true;
}
