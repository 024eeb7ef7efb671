/**
 * `npm run quire -- engine:serve --host <address> [--port 27017]`: the embedded engine on its own,
 * serving DATA_DIR over TCP, as the database host of a scaled install whose `ROLE=api` and
 * `ROLE=realtime` processes connect with `MONGODB_URI=mongodb://<address>:<port>/quire`. It is the
 * stand-in for MongoDB where a replica set is more than an install needs (and what the
 * network-namespace topology test, test/topology/, runs as its database host).
 *
 * The engine has no authentication: it must listen on a private network only. A wildcard address
 * (0.0.0.0, ::) is refused because the engine tells drivers the address it listens on as its
 * replica-set member name, and a driver would then try to reach "0.0.0.0". It also listens on its
 * unix socket in DATA_DIR, so the admin CLI on the same host works while it serves.
 *
 * Stops on SIGINT/SIGTERM: the journal is flushed and the lock released. Every acknowledged write
 * is fsynced first, so a crash (SIGKILL, power loss) loses none either.
 */
import net from 'node:net';
import { engineSocketPath, startEmbeddedMongo } from '../models/embedded';
import { engineSocketFits } from '../models/platform';

export const DEFAULT_ENGINE_PORT = 27017;

export interface EngineServeOptions {
  dataDir: string;
  host: string;
  port: number;
  /** Operator messages (stdout). */
  print(text: string): void;
  /** Warnings (stderr). */
  warn(text: string): void;
}

export class EngineServeError extends Error {}

function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host.startsWith('127.');
}

/** Checks the address an operator gave; returns the message that refuses it, if any. */
export function refuseHost(host: string | undefined): string | undefined {
  if (!host)
    return 'Missing --host: the address the Quire processes reach the engine at (a private network).';
  if (host === '0.0.0.0' || host === '::' || host === '[::]')
    return `Refusing --host ${host}: give the one address the Quire processes connect to (drivers are told it as the server's name).`;
  if (host !== 'localhost' && net.isIP(host) === 0)
    return `--host must be an IP address (or localhost), not '${host}'.`;
  return undefined;
}

/** Serves until SIGINT/SIGTERM; resolves with the exit code. */
export async function serveEngine(options: EngineServeOptions): Promise<number> {
  const { dataDir, host, port, print, warn } = options;
  const refusal = refuseHost(host);
  if (refusal) throw new EngineServeError(refusal);
  const socketPath = engineSocketFits(dataDir) ? engineSocketPath(dataDir) : undefined;
  const engine = await startEmbeddedMongo({
    dataDir,
    host,
    port,
    network: !isLoopback(host),
    ...(socketPath ? { socketPath } : {}),
  });
  for (const repair of engine.repairs) warn(`Recovered from an unclean stop: ${repair}`);
  if (!isLoopback(host))
    warn(
      'The engine has no authentication: keep this address on a private network (firewall it from everything but the Quire hosts).',
    );
  const shown = host.includes(':') ? `[${host}]` : host;
  print(`Quire engine serving ${dataDir} at mongodb://${shown}:${engine.port}/quire`);

  return new Promise((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      print(`${signal}: stopping the engine (flushing its journal)…`);
      engine.stop().then(
        () => {
          print('Quire engine stopped.');
          resolve(0);
        },
        (error: unknown) => {
          warn(`Error while stopping the engine: ${(error as Error).message}`);
          resolve(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
