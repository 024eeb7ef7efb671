/**
 * The lead worker runs the embedded engine in a thread of its own (engineThreadMain.ts) instead
 * of on its event loop. The engine's work — decoding commands, matching, the journal — then runs
 * beside the lead's HTTP work, and the operating system shares the cores between the three
 * (the lead, its engine, the other worker) by what each needs: under a stream of saves the engine
 * no longer takes a third of the lead's turn, so the lead answers its own requests (and
 * `/healthz`) as fast as the other worker. The lead's own connection is the unix socket every
 * other process uses. The thread is part of the lead: if it dies, the lead dies with it, and the
 * primary replaces both (the engine recovers from its journal, as after any crash).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { EngineLockedError, type EmbeddedMongoOptions } from '../../models/embedded';
import type { EngineHandle } from '../../models/platform';
import { serverEntry } from '../paths';

export type EngineThreadRequest = { kind: 'stop' } | { kind: 'collect-garbage' };

/** The engine threads this process runs (the lead's one). */
const running = new Set<Worker>();

/**
 * server/startupGarbage.ts's collection in every engine thread of this process, and from then on
 * one whenever a thread falls idle after work (engineThreadMain.ts).
 */
export function collectEngineThreadGarbage(): void {
  for (const thread of running)
    thread.postMessage({ kind: 'collect-garbage' } satisfies EngineThreadRequest);
}

export type EngineThreadMessage =
  | { kind: 'ready'; uri: string; socketUri?: string; repairs: string[] }
  | { kind: 'stopped' }
  | { kind: 'failed'; name: string; message: string; holderPid?: number };

/** The failure the thread reported, as the error the in-process engine would have thrown. */
function rebuilt(failure: Extract<EngineThreadMessage, { kind: 'failed' }>, dataDir: string) {
  if (failure.name === 'EngineLockedError' && failure.holderPid !== undefined)
    return new EngineLockedError(dataDir, failure.holderPid);
  const error = new Error(failure.message);
  error.name = failure.name;
  return error;
}

/**
 * The thread running `entry`. From the sources (`node --import tsx`), Node 20 gives a thread none
 * of the loader's hooks: the thread registers tsx itself before it imports the entry.
 */
function threadOf(entry: string, workerData: EmbeddedMongoOptions): Worker {
  if (!/\.[cm]?tsx?$/.test(entry)) return new Worker(entry, { workerData });
  const tsx = JSON.stringify(pathToFileURL(tsxEsmApi()).href);
  const source = JSON.stringify(pathToFileURL(entry).href);
  return new Worker(
    `import(${tsx}).then(({ register }) => { register(); return import(${source}); });`,
    { eval: true, workerData },
  );
}

/** tsx's ESM API module (its `import` export), whatever the caller's own module system. */
function tsxEsmApi(): string {
  const require = createRequire(import.meta.url);
  const manifest = require.resolve('tsx/package.json');
  const { exports } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as {
    exports: Record<string, { import: { default: string } }>;
  };
  return path.join(path.dirname(manifest), exports['./esm/api'].import.default);
}

/** Starts the engine in its thread; resolves once it serves, with how to reach and stop it. */
export function startEngineThread(options: EmbeddedMongoOptions): Promise<EngineHandle> {
  const thread = threadOf(serverEntry('engine-thread'), options);
  running.add(thread);
  let stopping: Promise<void> | null = null;
  let stopped: () => void = () => {};
  let stopFailed: (error: Error) => void = () => {};

  return new Promise<EngineHandle>((resolve, reject) => {
    let started = false;
    thread.on('message', (message: EngineThreadMessage) => {
      if (message.kind === 'ready') {
        started = true;
        resolve({
          uri: message.uri,
          ...(message.socketUri ? { socketUri: message.socketUri } : {}),
          repairs: message.repairs,
          // A thread already gone (the lead stopping after losing it) has nothing left to stop.
          stop: () =>
            (stopping ??= !running.has(thread)
              ? Promise.resolve()
              : new Promise<void>((done, fail) => {
                  stopped = done;
                  stopFailed = fail;
                  thread.postMessage({ kind: 'stop' } satisfies EngineThreadRequest);
                })),
        });
      } else if (message.kind === 'stopped') stopped();
      else if (message.kind === 'failed') {
        const error = rebuilt(message, options.dataDir);
        if (started) stopFailed(error);
        else reject(error);
      }
    });
    thread.on('error', (error) => {
      if (!started) reject(error);
      else lost(`the database engine's thread failed: ${error.message}`);
    });
    thread.on('exit', (code) => {
      running.delete(thread);
      if (!started)
        reject(new Error(`the database engine's thread exited (${code}) before it served`));
      else if (!stopping) lost(`the database engine's thread exited (${code})`);
      else stopped();
    });
  });
}

/**
 * The engine is gone while the lead serves: the lead's fatal error, as an engine failure in its
 * own event loop would be (the process's last-resort handler stops it; the primary replaces it).
 */
function lost(reason: string): void {
  setImmediate(() => {
    throw new Error(reason);
  });
}
