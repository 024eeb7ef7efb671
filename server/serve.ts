/**
 * The serving process `npm start` supervises (server/start.mjs → server/supervisor.ts): run this
 * process's role (server/quire.ts), stop cleanly on SIGINT/SIGTERM (a second signal forces the
 * exit) or when the supervisor goes away, and survive bad input (api/lastResort.ts). Runs
 * stand-alone too (`node --import tsx server/serve.ts`), then without restarts.
 *
 * With WORKERS > 1 this process is the primary of N worker processes (server/cluster/): only
 * the routing loads here, the app and the engine load in the workers. (`npm start` does not use
 * this file then: its supervisor process is the primary itself, server/start.mjs.)
 *
 * Exit codes: 0 after a clean stop; 1 with a message on stderr when it cannot start (the
 * supervisor passes that on and does not restart); 70 after a fatal error outside any request
 * (the supervisor restarts it).
 */
import { collectStartupGarbage, failStart, loadConfigOrExit, stopDeadline } from './startup';
import { watchSupervisor } from './supervisor';

const EXIT_FATAL = 70;

const config = loadConfigOrExit();

const print = (text: string) => process.stdout.write(`${text}\n`);

if (config.workers > 1) {
  const { serveCluster } = await import('./cluster/serveCluster');
  await serveCluster(
    {
      port: config.port,
      host: config.host,
      workers: config.workers,
      workerNodeFlags: config.workerNodeFlags,
      shutdownGraceMs: config.shutdownGraceMs,
      role: config.role,
    },
    print,
  );
} else await serveOne();

async function serveOne(): Promise<void> {
  const { installLastResort, trackRequests } = await import('../api/lastResort');
  const { startQuire } = await import('./quire');

  // Signal handlers go in before anything starts, so a signal during start-up is never the
  // default "die at once" (which would skip flushing the database).
  let quire: Awaited<ReturnType<typeof startQuire>> | undefined;
  let stopRequested = false;

  function stopAndExit(code = 0): void {
    stopDeadline(config.shutdownGraceMs);
    quire!.stop().then(
      () => {
        if (code === 0) print('Quire stopped.');
        process.exit(code);
      },
      (error: unknown) => failStart(`Error while stopping: ${(error as Error).message}`),
    );
  }

  function requestStop(reason: string, code = 0): void {
    if (stopRequested) {
      print('Second signal: exiting without waiting.');
      process.exit(1);
    }
    stopRequested = true;
    print(reason);
    if (quire) stopAndExit(code);
  }

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.on(signal, () =>
      requestStop(`${signal} received: finishing requests and closing the database…`),
    );
  const supervisor = watchSupervisor(() =>
    requestStop('Supervisor gone: finishing requests and closing the database…'),
  );

  try {
    quire = await startQuire(config, { print });
  } catch (error) {
    failStart(`Quire could not start: ${(error as Error).message}`);
  }
  trackRequests(quire.server);
  installLastResort({
    logger: quire.logger,
    onFatal: () => {
      if (!stopRequested)
        requestStop('Fatal error: stopping so the supervisor restarts Quire.', EXIT_FATAL);
    },
  });
  if (stopRequested) stopAndExit();
  else {
    supervisor.ready(quire.port);
    if (config.gcAfterStart) collectStartupGarbage();
  }
}
