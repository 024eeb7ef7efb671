/**
 * Quire processes for multi-process tests (Redis scale-out, roles): each one a real child process
 * (`node --import tsx`), started from `scripts/start.ts` (what an operator runs) or from
 * test/helpers/quireChild.ts (the same `startQuire`, minus the web build), with only the Quire
 * settings given here. Every child is tracked; `stopAllQuires()` in afterAll ends what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG_KEYS } from '../../models/platform/config';
import { ROOT } from '../../scripts/paths';

const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const ENTRIES = {
  start: path.join(ROOT, 'scripts', 'start.ts'),
  /** What `npm start` supervises (one process, or with WORKERS > 1 the primary of the workers). */
  serve: path.join(ROOT, 'scripts', 'serve.ts'),
  child: path.join(ROOT, 'test', 'helpers', 'quireChild.ts'),
};
const READY = /Quire is ready at (http:\/\/\S+)\//;
const running = new Set<ChildProcess>();

export interface QuireProcess {
  /** `http://127.0.0.1:<port>` (no trailing slash). */
  url: string;
  child: ChildProcess;
  output(): string;
  /** SIGTERM and wait for the exit; resolves with the exit code. */
  stop(): Promise<number | null>;
}

export function startQuireProcess(
  entry: keyof typeof ENTRIES,
  env: Record<string, string>,
  options: { cwd: string; startTimeoutMs?: number },
): Promise<QuireProcess> {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of CONFIG_KEYS) delete base[key];
  const child = spawn(process.execPath, ['--import', TSX_LOADER, ENTRIES[entry]], {
    cwd: options.cwd,
    env: { ...base, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  let output = '';
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      running.delete(child);
      resolve(code);
    }),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`Quire (${entry}) not ready in time:\n${output}`));
    }, options.startTimeoutMs ?? 60_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const match = READY.exec(output);
      if (!match) return;
      clearTimeout(timer);
      resolve({
        url: match[1],
        child,
        output: () => output,
        async stop() {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`Quire (${entry}) exited (${code}) before it was ready:\n${output}`));
    });
  });
}

/** Kills whatever is still running (after a failed test). */
export async function stopAllQuires(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once('exit', () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}
