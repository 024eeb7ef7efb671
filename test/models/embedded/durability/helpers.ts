/**
 * Shared pieces of the durability tests: temp data directories and child processes that run a
 * TypeScript fixture (the in-memory MiniStore lives in its own module, which fixtures import too).
 */
import { afterAll } from '@jest/globals';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export { MiniStore } from './mini-store';

export const REPO_ROOT = path.resolve(__dirname, '../../../..');
export const FIXTURES = path.join(__dirname, 'fixtures');

export function makeTempDir(label: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `quire-durability-${label}-`));
}

export function removeDir(dir: string): void {
  fs.rmSync(dir, { recursive: true, force: true });
}

/** A maker of temp data directories that are all removed after the file's tests. */
export function tempDirsRemovedAfterAll(): (label: string) => string {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs.splice(0)) removeDir(dir);
  });
  return (label) => {
    const dir = makeTempDir(label);
    dirs.push(dir);
    return dir;
  };
}

const closedPromises = new WeakMap<
  ChildProcessWithoutNullStreams,
  Promise<{ code: number | null; signal: string | null }>
>();

/** Runs a fixture with tsx (`node --import tsx` starts fastest); the test must kill or await it. */
export function spawnFixture(fixture: string, args: string[]): ChildProcessWithoutNullStreams {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(FIXTURES, fixture), ...args],
    {
      cwd: REPO_ROOT,
      stdio: 'pipe',
    },
  );
  closedPromises.set(
    child,
    new Promise((resolve) => child.once('close', (code, signal) => resolve({ code, signal }))),
  );
  return child;
}

/** Collects a child's stdout lines; `waitFor` resolves on the first line matching. */
export class LineReader {
  readonly lines: string[] = [];
  private partial = '';
  private waiters: { test: (line: string) => boolean; resolve: (line: string) => void }[] = [];

  constructor(stream: NodeJS.ReadableStream) {
    stream.setEncoding('utf8');
    stream.on('data', (chunk: string) => {
      const parts = (this.partial + chunk).split('\n');
      this.partial = parts.pop() ?? '';
      for (const line of parts) this.push(line);
    });
  }

  private push(line: string): void {
    this.lines.push(line);
    this.waiters = this.waiters.filter((w) => {
      if (!w.test(line)) return true;
      w.resolve(line);
      return false;
    });
  }

  waitFor(test: (line: string) => boolean): Promise<string> {
    const seen = this.lines.find(test);
    if (seen !== undefined) return Promise.resolve(seen);
    return new Promise((resolve) => this.waiters.push({ test, resolve }));
  }

  /** Like waitFor, but gives up (with null) after `ms`, leaving no timer behind. */
  async waitForWithin(test: (line: string) => boolean, ms: number): Promise<string | null> {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), ms)));
    try {
      return await Promise.race([this.waitFor(test), expired]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Resolves once the child has exited and its output has been read to the end. */
export function exited(
  child: ChildProcessWithoutNullStreams,
): Promise<{ code: number | null; signal: string | null }> {
  const closed = closedPromises.get(child);
  if (!closed) throw new Error('not a child started by spawnFixture');
  return closed;
}

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

export interface ReadyFixture {
  child: ChildProcessWithoutNullStreams;
  /** Its stdout, line by line. */
  reader: LineReader;
  /** The `ready …` line it printed. */
  ready: string;
  stderr(): string;
}

/** Spawns a fixture and waits for its `ready …` line; throws with its stderr if it dies first. */
export async function spawnReady(fixture: string, args: string[]): Promise<ReadyFixture> {
  const child = spawnFixture(fixture, args);
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const reader = new LineReader(child.stdout);
  const ready = await Promise.race([
    reader.waitFor((line) => line.startsWith('ready ')),
    exited(child).then(() => null),
  ]);
  if (ready === null) throw new Error(`${fixture} died before it was ready: ${stderr}`);
  return { child, reader, ready, stderr: () => stderr };
}

/** SIGKILLs a ready fixture; what it ended with and what it wrote to stderr. */
export async function killFixture(
  fixture: ReadyFixture,
): Promise<{ signal: string | null; stderr: string }> {
  fixture.child.kill('SIGKILL');
  const { signal } = await exited(fixture.child);
  return { signal, stderr: fixture.stderr() };
}
