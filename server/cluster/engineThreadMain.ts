/**
 * The embedded engine's own thread in the lead worker (server/cluster/engineThread.ts starts it):
 * opens the data directory, serves the engine on its unix socket (and loopback TCP) and stops
 * when told to. Everything else in the process reaches it through that socket, as the other
 * workers do.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type EmbeddedMongoOptions, startEmbeddedMongo } from '../../models/embedded';
import type { EngineThreadMessage, EngineThreadRequest } from './engineThread';

const port = parentPort;
if (!port) throw new Error('engineThreadMain runs as a worker thread only');

function send(message: EngineThreadMessage): void {
  port!.postMessage(message);
}

try {
  const engine = await startEmbeddedMongo(workerData as EmbeddedMongoOptions);
  port.on('message', (request: EngineThreadRequest) => {
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
