/**
 * Quire processes for multi-process tests (Redis scale-out, roles): each one a real child process
 * (`node --import tsx`, or plain `node` for `server/start.mjs`, what an operator runs) or from
 * test/helpers/quireChild.ts (the same `startQuire`, minus the web build), with only the Quire
 * settings given here. Every child is tracked; `stopAllQuires()` in afterAll ends what is left.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { socketUriFor } from '../../models/embedded';
import { engineSocketPath, openDatabase, type Database } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { ROOT } from '../../server/paths';
import { childEnv, killAll, TSX_LOADER } from './processes';

const ENTRIES = {
  /** What `npm start` runs: plain JavaScript, the server compiled to dist-server/ (no loader). */
  start: path.join(ROOT, 'server', 'start.mjs'),
  /**
   * The single process `npm start` supervises, or with WORKERS > 1 the primary of the workers
   * (which `npm start` runs in its own process instead).
   */
  serve: path.join(ROOT, 'server', 'serve.ts'),
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
  const loader = entry === 'start' ? [] : ['--import', TSX_LOADER];
  const child = spawn(process.execPath, [...loader, ENTRIES[entry]], {
    cwd: options.cwd,
    env: childEnv(env),
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
export function stopAllQuires(): Promise<void> {
  return killAll(running, 'exit');
}

/** Processes on one database: `owner` holds the embedded engine, the others reach it by socket. */
export interface SharedEngine {
  /** ROLE=all, DATA_DIR `<dir>/a`: the process that owns the embedded engine. */
  owner: QuireProcess;
  /** The engine's socket URI (MONGODB_URI for the other processes). */
  uri: string;
  /** Starts another process on the owner's engine, DATA_DIR `<dir>/<name>`. */
  join(
    entry: keyof typeof ENTRIES,
    name: string,
    env: Record<string, string>,
  ): Promise<QuireProcess>;
  /** Opens the same database in this test process (to make its users and items). */
  openHere(): Promise<Database>;
}

export async function startSharedEngine(
  dir: string,
  env: Record<string, string>,
): Promise<SharedEngine> {
  const ownerDir = path.join(dir, 'a');
  const owner = await startQuireProcess(
    'child',
    { ...env, ROLE: 'all', DATA_DIR: ownerDir },
    { cwd: dir },
  );
  const uri = socketUriFor(engineSocketPath(ownerDir));
  return {
    owner,
    uri,
    join: (entry, name, extra) =>
      startQuireProcess(
        entry,
        { ...extra, MONGODB_URI: uri, DATA_DIR: path.join(dir, name) },
        { cwd: dir },
      ),
    openHere: () =>
      openDatabase({
        mongodbUri: uri,
        dataDir: ownerDir,
        logger: createLogger({ level: 'silent' }),
        role: 'tool',
      }),
  };
}

/**
 * The worker processes of a cluster primary (`npm start`'s process, or server/serve.ts with
 * WORKERS > 1): slot → pid, read from /proc (empty once the primary is gone).
 */
export function workerPids(primary: number): Map<number, number> {
  const found = new Map<number, number>();
  if (!fs.existsSync(`/proc/${primary}/task`)) return found;
  for (const task of fs.readdirSync(`/proc/${primary}/task`)) {
    const children = fs.readFileSync(`/proc/${primary}/task/${task}/children`, 'utf8');
    for (const pid of children.split(' ').filter(Boolean).map(Number)) {
      try {
        const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
        const slot = environ.find((v) => v.startsWith('QUIRE_WORKER_SLOT='));
        if (slot) found.set(Number(slot.split('=')[1]), pid);
      } catch {
        // exited meanwhile
      }
    }
  }
  return found;
}
