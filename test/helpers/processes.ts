/**
 * Runs Quire's entry scripts as real child processes (`npm start`, the admin CLI) the way an
 * operator does, in a temporary working directory so no developer `.env` is read. Every child is
 * tracked; `killAllChildren()` in afterAll makes sure none outlives the test file.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG_KEYS } from '../../models/platform/config';
import { openDatabase } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { ROOT } from '../../server/paths';

// `node --import <tsx loader>` runs the script in this one process (the tsx CLI would add a
// wrapper process, and a signal or kill aimed at it could orphan the real one).
export const TSX_LOADER = pathToFileURL(
  path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs'),
).href;
const children = new Set<ChildProcess>();

/** The parent's environment without any Quire setting, plus the given ones. */
export function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of CONFIG_KEYS) delete base[key];
  // Their data folders are throwaway temp folders on purpose, and CI may itself run in a container.
  return { ...base, ALLOW_EPHEMERAL_DATA: 'true', ...env };
}

export interface Finished {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface RunningScript {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the stdout so far once it matches (rejects if the process exits first). */
  waitForOutput(pattern: RegExp): Promise<string>;
  /** Resolves when the process has exited. */
  exited: Promise<Finished>;
}

export function startScript(
  script: 'start' | 'cli',
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): RunningScript {
  // `npm start` runs plain JavaScript (server/start.mjs, then the compiled server); the admin
  // CLI runs its TypeScript source under tsx, as `npm run quire` does.
  const command =
    script === 'start'
      ? [path.join(ROOT, 'server', 'start.mjs')]
      : ['--import', TSX_LOADER, path.join(ROOT, 'scripts', 'cli.ts')];
  const child = spawn(process.execPath, [...command, ...args], {
    cwd: options.cwd,
    env: childEnv(options.env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve(text: string): void; reject(e: Error): void }[] = [];
  child.stdout!.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters])
      if (w.pattern.test(out)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(out);
      }
  });
  child.stderr!.on('data', (chunk: Buffer) => (err += chunk.toString()));
  const exited = new Promise<Finished>((resolve) => {
    child.once('close', (code, signal) => {
      children.delete(child);
      for (const w of waiters.splice(0))
        w.reject(
          new Error(
            `${script} exited (${code ?? signal}) before printing ${w.pattern}:\n${out}\n${err}`,
          ),
        );
      resolve({ code, signal, stdout: out, stderr: err });
    });
  });
  return {
    child,
    stdout: () => out,
    stderr: () => err,
    exited,
    waitForOutput(pattern) {
      if (pattern.test(out)) return Promise.resolve(out);
      if (child.exitCode !== null || child.signalCode !== null)
        return Promise.reject(new Error(`${script} already exited:\n${out}\n${err}`));
      return new Promise((resolve, reject) => waiters.push({ pattern, resolve, reject }));
    },
  };
}

/** Runs the admin CLI to completion. */
export function runCli(
  args: string[],
  options: { env: Record<string, string>; cwd: string },
): Promise<Finished> {
  return startScript('cli', args, options).exited;
}

export function killAllChildren(): Promise<void> {
  return killAll(children, 'close');
}

/** SIGKILLs every child given; resolves once each has emitted `event`. */
export async function killAll(
  processes: Iterable<ChildProcess>,
  event: 'exit' | 'close',
): Promise<void> {
  await Promise.all(
    [...processes].map(
      (child) =>
        new Promise<void>((resolve) => {
          child.once(event, () => resolve());
          child.kill('SIGKILL');
        }),
    ),
  );
}

/** Opens a stopped installation's data directory in this process to check what a script wrote. */
export async function inspectDataDir<T>(dataDir: string, check: () => Promise<T>): Promise<T> {
  const db = await openDatabase({
    mongodbUri: '',
    dataDir,
    logger: createLogger({ level: 'silent' }),
    role: 'tool',
  });
  try {
    return await check();
  } finally {
    await db.close();
  }
}
