/**
 * A small process supervisor: forks one child script, restarts it with back-off when it dies
 * unexpectedly, passes SIGINT/SIGTERM on for a graceful stop, and ends with the child's code.
 * `npm start` runs the server under it (server/start.mjs → server/serve.ts); the speed work's
 * worker processes are meant to be further `superviseProcess` calls, hence the narrow surface.
 *
 * What counts as "unexpected": the child had told us it was ready (an IPC `{ type: 'ready' }`)
 * and then exited without us asking — a crash, a kill -9, the out-of-memory killer. A child that
 * exits before it was ever ready (bad configuration, port taken, database refused) is not
 * restarted: its message has already gone to stderr and its exit code becomes ours, as without
 * a supervisor. A restarted child that fails to become ready is retried with the same back-off
 * up to MAX_FAILED_STARTS times, then given up on.
 *
 * The child runs in its own process group, so a terminal's Ctrl-C reaches it once (through us),
 * not twice; and it watches the IPC channel, so a supervisor killed with -9 does not leave an
 * orphan serving (see `watchSupervisor`).
 */
import { fork, type ChildProcess } from 'node:child_process';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 10_000;
/** A child that stayed up this long resets the back-off: the next crash restarts at once. */
const STABLE_AFTER_MS = 30_000;
const MAX_FAILED_STARTS = 5;

/** What the child sends over IPC. */
export type ChildMessage = { type: 'ready'; port?: number };

export interface SupervisorOptions {
  /** Absolute path of the child script. */
  script: string;
  args?: string[];
  /** Node's options for the child (default: this process's, e.g. the tsx loader). */
  execArgv?: string[];
  /** Environment of every start; `restartEnv` adds to it for restarts (e.g. the port it got). */
  env: NodeJS.ProcessEnv;
  /** One line per supervisor event, for the operator. */
  print: (text: string) => void;
}

export interface Supervised {
  /** The current child (changes on restart). */
  child(): ChildProcess;
  /** Resolves with the code this process should exit with. */
  done: Promise<number>;
}

export function superviseProcess(options: SupervisorOptions): Supervised {
  let env = { ...options.env };
  let current: ChildProcess;
  let stopping = false;
  let failedStarts = 0;
  let delay = FIRST_DELAY_MS;
  let everReady = false;
  let resolveDone: (code: number) => void;
  const done = new Promise<number>((resolve) => (resolveDone = resolve));

  function start(): void {
    const startedAt = Date.now();
    let ready = false;
    const child = fork(options.script, options.args ?? [], {
      env,
      execArgv: options.execArgv ?? process.execArgv,
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      detached: true,
    });
    current = child;
    options.print(`Quire server process started (pid ${child.pid}).`);
    child.on('message', (message: ChildMessage) => {
      if (message?.type !== 'ready') return;
      ready = everReady = true;
      failedStarts = 0;
      // A restart must come back on the same port, also when the first start picked a free one.
      if (message.port) env = { ...env, PORT: String(message.port) };
    });
    child.on('exit', (code, signal) => {
      if (stopping || (!everReady && !ready)) {
        resolveDone(code ?? (signal ? 1 : 0));
        return;
      }
      if (code === 0 && !signal) {
        resolveDone(0); // the child chose to stop cleanly
        return;
      }
      if (!ready && ++failedStarts >= MAX_FAILED_STARTS) {
        options.print(
          `Quire server could not be restarted after ${failedStarts} attempts; giving up.`,
        );
        resolveDone(code ?? 1);
        return;
      }
      if (Date.now() - startedAt >= STABLE_AFTER_MS) delay = FIRST_DELAY_MS;
      options.print(
        `Quire server (pid ${child.pid}) exited unexpectedly (${signal ?? `code ${code}`}); ` +
          `restarting in ${delay} ms.`,
      );
      setTimeout(start, delay);
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    });
    child.on('error', (error) => options.print(`Quire server process error: ${error.message}`));
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      stopping = true;
      // exitCode/signalCode are null while it runs; between restarts there is nothing to stop.
      if (current.exitCode === null && current.signalCode === null) current.kill(signal);
      else resolveDone(0);
    });
  }

  start();
  return { child: () => current!, done };
}

/**
 * For the child: tell the supervisor it is ready, and stop when the supervisor goes away (its
 * IPC channel closes) so no orphan keeps the port and the database. Without a supervisor (run
 * directly), both are no-ops.
 */
export function watchSupervisor(stop: () => void): { ready(port: number): void } {
  if (!process.send) return { ready: () => {} };
  process.on('disconnect', stop);
  return {
    ready(port) {
      process.send?.({ type: 'ready', port } satisfies ChildMessage);
    },
  };
}
