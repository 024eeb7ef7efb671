/**
 * The embedded engine's own thread in the lead worker (server/cluster/engineThread.ts starts it):
 * opens the data directory, serves the engine on its unix socket (and loopback TCP) and stops
 * when told to. Everything else in the process reaches it through that socket, as the other
 * workers do.
 */
import { performance } from 'node:perf_hooks';
import { parentPort, workerData } from 'node:worker_threads';
import { type EmbeddedMongoOptions, startEmbeddedMongo } from '../../models/embedded';
import { collectStartupGarbage } from '../startupGarbage';
import type { EngineThreadMessage, EngineThreadRequest } from './engineThread';

const port = parentPort;
if (!port) throw new Error('engineThreadMain runs as a worker thread only');

function send(message: EngineThreadMessage): void {
  port!.postMessage(message);
}

/** How often the thread looks at how busy it was, and the shares of that time that count. */
const IDLE_CHECK_MS = 5000;
const BUSY_SHARE = 0.05;
const IDLE_SHARE = 0.01;

/**
 * After start-up, one full collection each time the thread falls idle after work: a seed, an
 * import or a stream of saves leaves its garbage in this thread's heap, and V8 would keep those
 * pages resident while nothing runs (the lead's own heap gets its collection at start only). A
 * collection costs the engine a few milliseconds, and only once per quiet spell. Needs Node's
 * `--expose-gc` (npm start gives it); GC_AFTER_START=false never asks for it.
 */
let collecting = false;
function collectWhenIdle(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc || collecting) return;
  collecting = true;
  let worked = false;
  let last = performance.eventLoopUtilization();
  setInterval(() => {
    const now = performance.eventLoopUtilization();
    const { utilization } = performance.eventLoopUtilization(now, last);
    last = now;
    if (utilization >= BUSY_SHARE) worked = true;
    else if (worked && utilization < IDLE_SHARE) {
      worked = false;
      gc();
    }
  }, IDLE_CHECK_MS).unref();
}

try {
  const engine = await startEmbeddedMongo(workerData as EmbeddedMongoOptions);
  port.on('message', (request: EngineThreadRequest) => {
    if (request.kind === 'collect-garbage') {
      collectStartupGarbage();
      collectWhenIdle();
      return;
    }
    if (request.kind !== 'stop') return;
    engine.stop().then(
      () => {
        send({ kind: 'stopped' });
        port.close();
      },
      (error: unknown) => {
        send({ kind: 'failed', name: 'Error', message: (error as Error).message });
        port.close();
      },
    );
  });
  send({
    kind: 'ready',
    uri: engine.uri,
    ...(engine.socketUri ? { socketUri: engine.socketUri } : {}),
    repairs: engine.repairs,
  });
} catch (error) {
  const e = error as Error & { holderPid?: number };
  send({
    kind: 'failed',
    name: e.name,
    message: e.message,
    ...(e.holderPid !== undefined ? { holderPid: e.holderPid } : {}),
  });
  port.close();
}
