/**
 * The primary of a multi-worker Quire (WORKERS > 1). `npm start` runs it in its supervisor
 * process (server/start.mjs → server/cluster/serveCluster.ts), so the whole deployment is that
 * process and its workers; `node --import tsx server/serve.ts` runs it the same way from the
 * sources. It stays small on purpose — connection routing, relays and the workers, no app code
 * and no database engine:
 *
 * - **Routing.** Listens on PORT itself and hands each new connection, with its first bytes, to a
 *   worker over IPC (server/cluster/route.ts says which): the lead worker (slot 0) owns `/collab`,
 *   a Socket.IO session goes back to its worker, the rest in turn.
 * - **Relays.** Domain events from one worker go to all others (models/platform/eventBusIpc.ts);
 *   the Socket.IO cluster adapter's messages too (`@socket.io/cluster-adapter`'s primary side).
 * - **Workers.** Starts the lead first — it opens the embedded engine in DATA_DIR and serves it on
 *   its unix socket (server/cluster/worker.ts), creates the indexes and the first admin — then
 *   the rest, which reach the engine on that socket. Replaces a worker that dies, with back-off
 *   per slot. Its connections are gone with it; clients reconnect. When the lead dies the engine
 *   goes with it: every acknowledged write is in its journal, the replacement recovers from it,
 *   and the other workers' database drivers reconnect to the new engine on their own (a request
 *   that needs the database during the gap fails at once with the envelope's internal error; the
 *   next ones, once the new lead is up, succeed).
 * - **Stop.** Stops accepting, stops the other workers (each drains its requests and writes its
 *   drafts through the engine), then the lead (its engine flushes its journal last).
 */
import cluster, { type Worker } from 'node:cluster';
import net from 'node:net';
import { setupPrimary as setupSocketIoPrimary } from '@socket.io/cluster-adapter';
import { serverEntry } from '../paths';
import { routeOf, type Route } from './route';
import type { PrimaryMessage, WorkerMessage } from './messages';

const FIRST_DELAY_MS = 100;
const MAX_DELAY_MS = 10_000;
/** A worker that stayed up this long resets its slot's back-off. */
const STABLE_AFTER_MS = 30_000;
/** A connection that sends nothing for this long is dropped before any worker sees it. */
const FIRST_BYTES_TIMEOUT_MS = 30_000;
/**
 * How long a stopping worker gets beyond SHUTDOWN_GRACE_MS before it is killed (it exits itself
 * 15 s past the grace, server/startup.ts stopDeadline; this is for one that cannot even do that).
 */
const WORKER_STOP_MARGIN_MS = 20_000;
/** SHUTDOWN_GRACE_MS's default, for a caller that does not pass it. */
const DEFAULT_GRACE_MS = 10_000;
/**
 * Workers' heap flags come from WORKER_NODE_FLAGS (models/platform/config.ts, where the default's
 * measurement is noted); they replace whatever heap flags the primary itself runs with.
 * `--expose-gc` is always given: GC_AFTER_START decides in the worker whether it is used
 * (server/startup.ts collectStartupGarbage).
 */
const WORKER_GC_FLAG = '--expose-gc';
/**
 * glibc malloc arenas per worker (its default: 8 per core). Node's threads (libuv's pool, V8's
 * GC helpers) each get an arena of their own that keeps its freed pages: measured with the seed
 * on 2 cores, 2 arenas kept ~5–7 MB less at rest and ~20 MB less at peak over the HTTP cells
 * than 16, at the same CPU per page/save and page/info. An operator's MALLOC_ARENA_MAX wins.
 */
const WORKER_MALLOC_ARENAS = '2';
const HEAP_FLAG = /^--(max-semi-space-size|heap-growing-percent|expose-gc)(=|$)/;
/** A slot whose replacements fail this many times in a row stops everything (`onFatal`). */
const MAX_FAILED_STARTS = 5;

interface Slot {
  index: number;
  worker?: Worker;
  ready: boolean;
  startedAt: number;
  delay: number;
  failedStarts: number;
}

/** What the primary needs of the configuration (it loads no configuration code of its own). */
export interface ClusterOptions {
  port: number;
  host: string;
  workers: number;
  /** Node flags of each worker (Config.workerNodeFlags). */
  workerNodeFlags: string[];
  /** SHUTDOWN_GRACE_MS (each worker reads it too; the primary bounds their stop with it). */
  shutdownGraceMs?: number;
}

export interface Primary {
  port: number;
  workers: number;
  /** Pids of the primary's workers now (for measurements and tests). */
  workerPids(): number[];
  /** Stops the other workers, then the lead (and with it the engine). */
  stop(): Promise<void>;
}

function listen(server: net.Server, port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

export async function startPrimary(
  config: ClusterOptions,
  print: (text: string) => void,
  onFatal: (reason: string) => void,
): Promise<Primary> {
  const slots: Slot[] = Array.from({ length: config.workers }, (_, index) => ({
    index,
    ready: false,
    startedAt: 0,
    delay: FIRST_DELAY_MS,
    failedStarts: 0,
  }));
  let stopping = false;
  /** Set once every worker was ready once: from then on a worker that dies is replaced. */
  let started = false;
  let next = 0;
  /** Connections that arrived while no worker was ready (only during start-up). */
  const waiting: Array<{ socket: net.Socket; head: Buffer; route: Route }> = [];

  function pick(route: Route): Slot | undefined {
    if (route.to === 'lead') return slots[0].ready ? slots[0] : undefined;
    if (route.to === 'slot' && slots[route.slot]?.ready) return slots[route.slot];
    for (let i = 0; i < slots.length; i++) {
      const slot = slots[(next + i) % slots.length];
      if (slot.ready) {
        next = (slot.index + 1) % slots.length;
        return slot;
      }
    }
    return undefined;
  }

  function handOver(socket: net.Socket, head: Buffer, route: Route): void {
    const slot = pick(route);
    if (!slot) {
      // The lead is being replaced (its documents reload in the new one) or nobody is up yet.
      if (route.to === 'lead' || slots.every((s) => !s.worker)) socket.destroy();
      else waiting.push({ socket, head, route });
      return;
    }
    const message: PrimaryMessage = { quire: 'connection', head: head.toString('base64') };
    slot.worker!.send(message, socket, { keepOpen: false }, (error) => {
      if (error) socket.destroy();
    });
  }

  const server = net.createServer((socket) => {
    socket.setTimeout(FIRST_BYTES_TIMEOUT_MS, () => socket.destroy());
    socket.on('error', () => socket.destroy());
    socket.once('data', (head: Buffer) => {
      // The descriptor is shared with the worker until the worker has it and this process closes
      // its copy: if this process kept reading (pause() alone does not stop the handle), it
      // would swallow bytes meant for the worker, such as a WebSocket's first frame.
      socket.pause();
      (socket as net.Socket & { _handle?: { readStop(): number } })._handle?.readStop();
      socket.setTimeout(0);
      // The 'error' listener stays: a reset while the descriptor is in transit must not be an
      // unhandled error here (it would end the primary, and every worker with it).
      handOver(socket, head, routeOf(head));
    });
  });

  setupSocketIoPrimary();
  cluster.setupPrimary({
    // The bundle's worker when this runs the bundle (no loader), else the source under tsx.
    exec: serverEntry('worker'),
    execArgv: [
      ...process.execArgv.filter((flag) => !HEAP_FLAG.test(flag)),
      ...config.workerNodeFlags,
      WORKER_GC_FLAG,
    ],
  });

  // Events from one worker go to every other (eventBusIpc.ts); in the order they came.
  // Once every copy is in its worker's pipe, the sender hears `event-ack` (its API answer waits
  // for that, so the next request anywhere sees the event).
  cluster.on('message', (from, message: WorkerMessage) => {
    if (message?.quire !== 'event') return;
    const handedOver: Promise<void>[] = [];
    for (const slot of slots)
      if (slot.worker && slot.worker !== from && slot.worker.isConnected()) {
        const worker = slot.worker;
        handedOver.push(
          new Promise((resolve) => worker.send(message, undefined, undefined, () => resolve())),
        );
      }
    const { ack } = message;
    if (ack === undefined) return;
    void Promise.all(handedOver).then(() => {
      if (from.isConnected()) from.send({ quire: 'event-ack', ack } satisfies PrimaryMessage);
    });
  });

  let port = config.port;
  const workerEnv = (slot: Slot) => ({
    QUIRE_WORKER_SLOT: String(slot.index),
    QUIRE_WORKER_PORT: String(port),
    MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || WORKER_MALLOC_ARENAS,
  });

  function fork(slot: Slot): Promise<void> {
    return new Promise((resolve, reject) => {
      const worker = cluster.fork(workerEnv(slot));
      slot.worker = worker;
      slot.ready = false;
      slot.startedAt = Date.now();
      worker.on('message', (message: WorkerMessage) => {
        if (message?.quire !== 'ready') return;
        slot.ready = true;
        slot.failedStarts = 0;
        for (const w of waiting.splice(0)) handOver(w.socket, w.head, w.route);
        // A replacement: the others are serving already.
        if (started) worker.send({ quire: 'started' } satisfies PrimaryMessage);
        resolve();
      });
      worker.once('exit', (code, signal) => {
        const wasReady = slot.ready;
        slot.ready = false;
        if (slot.worker === worker) slot.worker = undefined;
        if (stopping) return;
        if (!started) {
          reject(
            new Error(`worker ${slot.index} exited (${signal ?? `code ${code}`}) while starting`),
          );
          return;
        }
        if (!wasReady && ++slot.failedStarts >= MAX_FAILED_STARTS) {
          onFatal(
            `Quire worker ${slot.index} could not be restarted after ${slot.failedStarts} attempts.`,
          );
          return;
        }
        if (Date.now() - slot.startedAt >= STABLE_AFTER_MS) slot.delay = FIRST_DELAY_MS;
        print(
          `Quire worker ${slot.index} (pid ${worker.process.pid}) exited (${signal ?? `code ${code}`}); ` +
            `replacing it in ${slot.delay} ms.`,
        );
        setTimeout(() => {
          if (!stopping) fork(slot).catch(() => {});
        }, slot.delay);
        slot.delay = Math.min(slot.delay * 2, MAX_DELAY_MS);
      });
    });
  }

  async function stopWorker(slot: Slot, hold?: Promise<void>): Promise<void> {
    const worker = slot.worker;
    if (!worker || worker.process.exitCode !== null || worker.process.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
    if (hold) {
      worker.send({ quire: 'drain' } satisfies PrimaryMessage);
      await hold;
      if (worker.isConnected()) worker.send({ quire: 'others-stopped' } satisfies PrimaryMessage);
      else worker.process.kill('SIGTERM');
    } else worker.process.kill('SIGTERM');
    const killer = setTimeout(
      () => worker.process.kill('SIGKILL'),
      (config.shutdownGraceMs ?? DEFAULT_GRACE_MS) + WORKER_STOP_MARGIN_MS,
    );
    await exited;
    clearTimeout(killer);
  }

  let stopped: Promise<void> | undefined;
  const stop = () =>
    (stopped ??= (async () => {
      stopping = true;
      server.close();
      for (const w of waiting.splice(0)) w.socket.destroy();
      // All drain at once (a socket or a request on the lead must not wait for the others to
      // be gone), but the others write through the lead's engine, so it closes last.
      const others = Promise.all(slots.slice(1).map((slot) => stopWorker(slot))).then(() => {});
      await Promise.all([others, stopWorker(slots[0], others)]);
    })());

  try {
    await listen(server, config.port, config.host);
    port = (server.address() as net.AddressInfo).port;
    // The lead first: it creates the first admin and the indexes, the others then find them.
    await fork(slots[0]);
    await Promise.all(slots.slice(1).map(fork));
    started = true;
    for (const slot of slots) slot.worker?.send({ quire: 'started' } satisfies PrimaryMessage);
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    port,
    workers: slots.length,
    workerPids: () => slots.flatMap((s) => (s.worker?.process.pid ? [s.worker.process.pid] : [])),
    stop,
  };
}
