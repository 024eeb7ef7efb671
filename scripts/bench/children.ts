/**
 * Starting and stopping the benchmark's child processes (the Quire server, the bare Node ceiling).
 * Each runs as `node [--import <tsx loader>] <script>` — one process, so the pid we measure is the
 * server itself — and reports `{type: 'ready', port}` over IPC. Children that are still running
 * when this process exits are killed, so an interrupted bench leaves nothing behind.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { CONFIG_KEYS } from '../../models/platform';
import { ROOT } from '../../server/paths';
import { inspectorUrlsIn } from './gc';

const TSX_LOADER = pathToFileURL(path.join(ROOT, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;
const STARTUP_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 20_000;
const STDERR_KEPT = 8_000;

export interface BenchChild {
  pid: number;
  port: number;
  /** Worker processes serving (the Quire server; 1 = a single process). */
  workers: number;
  url: string;
  /** SIGTERM, then SIGKILL if it has not exited in time. Resolves when it has exited. */
  stop(): Promise<void>;
  /** The last few KB it wrote to stderr (for error messages). */
  stderr(): string;
  /** Inspector addresses its processes announced (started with gc.ts's INSPECT_ARG), in order. */
  inspectorUrls(): string[];
}

const running = new Set<ChildProcess>();
let exitHookInstalled = false;

function killLeftovers(): void {
  for (const child of running) child.kill('SIGKILL');
}

/** The parent's environment without any Quire setting, plus the given ones. */
function childEnv(env: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env };
  for (const key of CONFIG_KEYS) delete base[key];
  // Their data folders are throwaway temp folders on purpose, and CI may itself run in a container.
  return { ...base, ALLOW_EPHEMERAL_DATA: 'true', ...env };
}

/**
 * A TypeScript script runs under the tsx loader; a compiled one (dist-server/) without it, as
 * `npm start` runs it.
 */
const loaderArgs = (script: string) => (script.endsWith('.ts') ? ['--import', TSX_LOADER] : []);

function installExitHook(): void {
  if (exitHookInstalled) return;
  process.on('exit', killLeftovers);
  exitHookInstalled = true;
}

/**
 * A helper process of the bench itself (not measured as the server): `script` under the tsx
 * loader, with an IPC channel, its output on ours. Killed with the bench if still running.
 */
export function forkHelper(script: string, nodeArgs: string[] = []): ChildProcess {
  installExitHook();
  const child = fork(path.join(ROOT, script), [], {
    cwd: ROOT,
    execArgv: [...nodeArgs, ...loaderArgs(script)],
    env: childEnv({}),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  running.add(child);
  child.once('exit', () => running.delete(child));
  return child;
}

/**
 * The next IPC message of `type` from a helper process that `accept` takes (default: any), or
 * an error naming `who` when the helper exits first or gives none within `timeoutMs`.
 */
export function replyFrom<R extends { type: string }, T extends R['type']>(
  child: ChildProcess,
  type: T,
  options: {
    who: string;
    timeoutMs: number;
    accept?: (message: Extract<R, { type: T }>) => boolean;
  },
): Promise<Extract<R, { type: T }>> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      cleanup();
      reject(new Error(`${options.who} gave no "${type}" in ${options.timeoutMs / 1000} s`));
    }, options.timeoutMs);
    const onMessage = (message: R) => {
      if (message.type !== type) return;
      const reply = message as Extract<R, { type: T }>;
      if (options.accept && !options.accept(reply)) return;
      cleanup();
      resolve(reply);
    };
    const onExit = (code: number | null) => {
      cleanup();
      reject(new Error(`${options.who} exited (${code}) waiting for "${type}"`));
    };
    function cleanup() {
      clearTimeout(timer);
      child.off('message', onMessage);
      child.off('exit', onExit);
    }
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

export function startChild(
  script: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
): Promise<BenchChild> {
  installExitHook();
  const child = spawn(
    process.execPath,
    [...nodeArgs, ...loaderArgs(script), path.join(ROOT, script)],
    {
      cwd: ROOT,
      env: childEnv(env),
      // stdout (the JSON request log) goes to /dev/null: writing it is part of the server's real
      // work, reading it back here would load the generator.
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    },
  );
  running.add(child);
  let stderr = '';
  // Whole lines only: an address split between two chunks is read once its line is complete.
  let partialLine = '';
  const inspectors: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => {
    const text = chunk.toString();
    stderr = (stderr + text).slice(-STDERR_KEPT);
    const lines = (partialLine + text).split('\n');
    partialLine = lines.pop()!.slice(-STDERR_KEPT);
    inspectors.push(...inspectorUrlsIn(lines.join('\n')));
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });

  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`${script} did not become ready in ${STARTUP_TIMEOUT_MS / 1000} s:\n${stderr}`),
      );
    }, STARTUP_TIMEOUT_MS);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(new Error(`${script} exited (${signal ?? code}) before it was ready:\n${stderr}`));
    });
    child.on('message', (message: { type?: string; port?: number; workers?: number }) => {
      if (message?.type !== 'ready' || typeof message.port !== 'number') return;
      clearTimeout(timer);
      const port = message.port;
      resolve({
        pid: child.pid!,
        port,
        workers: message.workers ?? 1,
        url: `http://127.0.0.1:${port}`,
        stderr: () => stderr,
        inspectorUrls: () => [...inspectors],
        async stop() {
          if (child.exitCode === null && child.signalCode === null) {
            child.kill('SIGTERM');
            const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
            await exited;
            clearTimeout(killer);
          }
          if (child.connected) child.disconnect();
        },
      });
    });
  });
}
