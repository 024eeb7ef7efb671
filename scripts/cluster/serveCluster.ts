/**
 * scripts/serve.ts with WORKERS > 1: this process becomes the primary (scripts/cluster/primary.ts)
 * under the supervisor. Same contract as the single process: ready once every worker is,
 * SIGINT/SIGTERM stop everything cleanly (a second signal forces the exit), exit 1 with a message
 * when it cannot start, 70 when it must be restarted (a worker slot that cannot come back).
 */
import type { Config } from '../../models/platform/config';
import { watchSupervisor } from '../supervisor';
import { startPrimary, type Primary } from './primary';

const EXIT_FATAL = 70;

function publicUrl(host: string, port: number): string {
  const shown =
    host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${shown}:${port}/`;
}

export async function serveCluster(config: Config, print: (text: string) => void): Promise<void> {
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
      requestStop(`${signal} received: stopping the workers and closing the database…`),
    );
  const supervisor = watchSupervisor(() =>
    requestStop('Supervisor gone: stopping the workers and closing the database…'),
  );

  try {
    primary = await startPrimary(config, print, (reason) =>
      requestStop(`${reason} Stopping so the supervisor restarts Quire.`, EXIT_FATAL),
    );
  } catch (error) {
    process.stderr.write(`Quire could not start: ${(error as Error).message}\n`);
    process.exit(1);
  }
  if (stopRequested) return stopAndExit();
  print(
    `Quire is ready at ${publicUrl(config.host, primary.port)} (${primary.workers} workers)` +
      `${config.role === 'all' ? '' : ` (role: ${config.role})`}`,
  );
  supervisor.ready(primary.port);
}
