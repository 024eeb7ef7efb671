/**
 * A multi-worker Quire's primary process (WORKERS > 1): `npm start`'s supervisor process itself
 * (server/start.mjs, compiled to dist-server/cluster.js, so it carries no TypeScript loader, no
 * configuration code and no app), or `node --import tsx server/serve.ts` from the sources. The
 * primary (server/cluster/primary.ts) is the supervisor of the workers: it replaces a worker that
 * dies, so nothing above it needs to restart anything. Same contract as the single process:
 * ready once every worker is, SIGINT/SIGTERM stop everything cleanly (a second signal forces the
 * exit), exit 1 with a message when it cannot start or when a worker slot cannot come back.
 */
import { watchSupervisor } from '../supervisor';
import { startPrimary, type ClusterOptions, type Primary } from './primary';

export interface ServeClusterOptions extends ClusterOptions {
  /** ROLE, for the ready line. */
  role: string;
}

function publicUrl(host: string, port: number): string {
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

export async function serveCluster(
  options: ServeClusterOptions,
  print: (text: string) => void,
): Promise<void> {
  let primary: Primary | undefined;
  let stopRequested = false;
  let exitCode = 0;

  const stopAndExit = () => {
    primary!.stop().then(
      () => {
        if (exitCode === 0) print('Quire stopped.');
        process.exit(exitCode);
      },
      (error: unknown) => {
        process.stderr.write(`Error while stopping: ${(error as Error).message}\n`);
        process.exit(1);
      },
    );
  };
  const requestStop = (reason: string, code = 0) => {
    if (stopRequested) {
      print('Second signal: exiting without waiting.');
      process.exit(1);
    }
    stopRequested = true;
    exitCode = code;
    print(reason);
    if (primary) stopAndExit();
  };

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () =>
      requestStop(`${signal} received: stopping the workers, then the database…`),
    );
  // Run under a supervisor of its own (a test, a service manager speaking IPC): the same rules.
  const supervisor = watchSupervisor(() =>
    requestStop('Supervisor gone: stopping the workers, then the database…'),
  );

  try {
    primary = await startPrimary(options, print, (reason) =>
      requestStop(`${reason} Giving up: stopping Quire.`, 1),
    );
  } catch (error) {
    process.stderr.write(`Quire could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  if (stopRequested) return stopAndExit();
  print(
    `Quire is ready at ${publicUrl(options.host, primary.port)} (${primary.workers} workers)` +
      `${options.role === 'all' ? '' : ` (role: ${options.role})`}`,
  );
  supervisor.ready(primary.port);
}
