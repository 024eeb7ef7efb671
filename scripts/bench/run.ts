/**
 * The whole benchmark. `openBenchSession()` seeds a fresh data directory through the models and
 * starts Quire and the bare Node ceiling as child processes; `measureBench()` checks that the
 * seeded data answers as expected, runs the HTTP cells (ceiling first, `page/save` last because
 * it writes), then the realtime scenarios and the kanban and whiteboard cells, reads the server's
 * memory, and runs the webhooks cell (its held deliveries stay queued); `runBench()` does both,
 * stops everything, deletes the directory and adds the page editor and spreadsheet sections
 * (their own server and Chromium) and the optional engine bench.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../server/paths';
import { ensureServerBuilt } from '../../server/serverBuild';
import { startChild, type BenchChild } from './children';
import { measureEditor } from '../measure-editor';
import { measureSheet } from '../measure-sheet';
import { runEngineBench } from './engine';
import { INSPECT_ARG } from './gc';
import { planRequests, runHttpCell, type Endpoint, type HttpCell, type RequestPlan } from './http';
import type { BenchOptions } from './options';
import { startMemorySampler, type MemorySampler } from './memorySampler';
import { machineInfo, stackMemory, treeMemory, waitForQuiet } from './procstat';
import { measureHugeItem } from './huge';
import type { PushCell } from './itemCells';
import { kanbanUserCount, runKanbanCell } from './kanban';
import { runOverloadCell, type OverloadCell } from './overload';
import { realtimeUserCount, runRealtime } from './realtime';
import type { BenchReport, RealtimeCell } from './report';
import { seedDataDir, type SeedResult } from './seed';
import { runWebhookCell, webhookServerEnv, type WebhookCell } from './webhooks';
import { runWhiteboardCell, whiteboardUserCount } from './whiteboard';

/**
 * `npm start`'s flag for its own process (package.json), the cluster primary: it keeps little
 * but relays every event, and Node's default young generation let it grow from ~50 to ~90 MB
 * RSS under the save cells; 1 MB semi-spaces keep it near 70 MB (measured on the 2-core
 * machine, page/save as fast).
 */
const PRIMARY_NODE_FLAG = '--max-semi-space-size=1';

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/** POSTs a form to the API and returns the envelope. */
async function call(url: string, route: string, fields: Record<string, string | number>) {
  const response = await fetch(`${url}/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  });
  return (await response.json()) as { error_code: number; data?: unknown; error_message?: string };
}

/** The seeded data answers as the cells assume: a page reads back, the keyword finds its pages. */
async function sanityProblems(url: string, seed: SeedResult): Promise<string[]> {
  const problems: string[] = [];
  const token = seed.userToken;
  const page = seed.pages[0];
  if (page) {
    const info = await call(url, 'page/info', { page_id: page.pageId, user_token: token });
    const data = info.data as { page_id?: string } | undefined;
    if (info.error_code !== 0 || String(data?.page_id) !== String(page.pageId))
      problems.push(`page/info of a seeded page answered ${JSON.stringify(info).slice(0, 200)}`);
  }
  const search = await call(url, 'item/search', {
    item_id: seed.itemId,
    keyword: seed.keyword,
    user_token: token,
  });
  const hits = (search.data as { pages?: unknown[] } | undefined)?.pages?.length;
  if (search.error_code !== 0 || hits !== seed.keywordHits)
    problems.push(
      `item/search found ${hits ?? 'nothing'} pages, expected ${seed.keywordHits} (error_code ${search.error_code})`,
    );
  const item = await call(url, 'item/info', { item_id: seed.itemId, user_token: token });
  if (item.error_code !== 0) problems.push(`item/info answered error_code ${item.error_code}`);
  return problems;
}

interface Scenario {
  name: string;
  target: 'quire' | 'node';
  child: BenchChild;
  plan: RequestPlan;
}

async function runScenario(
  scenario: Scenario,
  options: BenchOptions,
  ownPids: number[],
): Promise<HttpCell[]> {
  const base = {
    scenario: scenario.name,
    target: scenario.target,
    url: scenario.child.url,
    plan: scenario.plan,
    serverPid: scenario.child.pid,
    ownPids,
  };
  if (options.warmupSec > 0)
    await runHttpCell({
      ...base,
      concurrency: Math.max(...options.concurrency),
      durationSec: options.warmupSec,
    });
  // Each measurement starts on a server that has finished the previous load's last requests.
  await waitForQuiet(scenario.child.pid);
  const cells: HttpCell[] = [];
  for (const concurrency of options.concurrency) {
    const cell = await runHttpCell({ ...base, concurrency, durationSec: options.durationSec });
    await waitForQuiet(scenario.child.pid);
    options.log(
      `  ${scenario.target === 'node' ? 'bare Node' : scenario.name} ×${concurrency}: ${cell.rps} req/s, ` +
        `p50 ${cell.latency.p50Ms} ms, p99 ${cell.latency.p99Ms} ms, errors ${cell.errors.total}` +
        `${cell.cpu ? `, other CPU ${cell.cpu.otherPct}%` : ''}`,
    );
    cells.push(cell);
  }
  return cells;
}

export interface BenchSession {
  seed: SeedResult;
  quire: BenchChild;
  /** The bare Node server, when the options asked for it. */
  ceiling: BenchChild | null;
  /** Stops the children and deletes the data directory. */
  stop(): Promise<void>;
}

/**
 * Seeds a fresh data directory and starts the server (and the ceiling) on it. Separate from the
 * measurements so the harness's own test can measure one session twice.
 */
export async function openBenchSession(options: BenchOptions): Promise<BenchSession> {
  const log = options.log;
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'quire-bench-'));
  const children: BenchChild[] = [];
  const stop = async () => {
    for (const child of children.splice(0)) await child.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  try {
    log(`Seeding ${options.pages} pages and ${options.catalogLevels.join('/')} catalogs…`);
    const seed = await seedDataDir({
      dataDir,
      pages: options.pages,
      catalogLevels: options.catalogLevels,
      realtimeUsers: Math.max(
        options.realtime ? realtimeUserCount(options.realtime) : 0,
        options.kanban ? kanbanUserCount(options.kanban) : 0,
        options.whiteboard ? whiteboardUserCount(options.whiteboard) : 0,
      ),
    });
    log(`  seeded in ${seed.seconds.toFixed(1)} s`);

    log('Starting the server (and the bare Node ceiling)…');
    // The server runs compiled, as `npm start` runs it (server/serverBuild.ts).
    await ensureServerBuilt(ROOT, log);
    const quire = await startChild(
      'dist-server/bench-server.js',
      {
        PORT: '0',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        LOG_LEVEL: options.serverLogLevel,
        ...(options.workers ? { WORKERS: String(options.workers) } : {}),
        ...(options.webhooks ? webhookServerEnv(options.webhooks) : {}),
      },
      [
        // The heap flag `npm start` gives its own process, the primary (package.json): its
        // workers get theirs from cluster/primary.ts.
        PRIMARY_NODE_FLAG,
        // The idle-socket figure collects the server's garbage through its inspector (gc.ts).
        ...(options.realtime ? [INSPECT_ARG] : []),
        ...(options.serverProfileDir
          ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(options.serverProfileDir)]
          : []),
      ],
    );
    children.push(quire);
    const ceiling = options.ceiling ? await startChild('scripts/bench/ceiling.ts') : null;
    if (ceiling) children.push(ceiling);
    return { seed, quire, ceiling, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Runs every cell of `options` against an open session; the report has no engine section. */
export async function measureBench(
  session: BenchSession,
  options: BenchOptions,
): Promise<BenchReport> {
  const started = process.hrtime.bigint();
  const problems: string[] = [];
  // The server's memory from just before the at-rest reading to the end (memorySampler.ts).
  let sampler: MemorySampler | null = null;
  try {
    sampler = await startMemorySampler(session.quire.pid);
  } catch (error) {
    problems.push(`the memory sampler did not start: ${(error as Error).message}`);
  }
  try {
    return await measureCells(session, options, { started, problems, sampler });
  } finally {
    // Stopped already unless a cell threw.
    await sampler?.stop();
  }
}

async function measureCells(
  session: BenchSession,
  options: BenchOptions,
  {
    started,
    problems,
    sampler,
  }: { started: bigint; problems: string[]; sampler: MemorySampler | null },
): Promise<BenchReport> {
  const log = options.log;
  const machine = machineInfo();
  const { seed, quire } = session;
  const ceiling = options.ceiling ? session.ceiling : null;
  const ownPids = [
    quire.pid,
    ...(session.ceiling ? [session.ceiling.pid] : []),
    ...(sampler ? [sampler.pid] : []),
  ];

  problems.push(
    ...(await sanityProblems(quire.url, seed).catch((error: unknown) => [
      `the server did not answer the sanity checks: ${(error as Error).message}`,
    ])),
  );
  // Σ RSS, distinct resident pages and Σ PSS, read here: no load is running (one distinct-page
  // reading takes this process ~10 ms, several times that the first time, before it is compiled).
  // Just started, the processes still hold start-up's garbage; at rest is after `settleSec` idle.
  const justStarted = stackMemory(quire.pid);
  let atRest = justStarted;
  if (options.settleSec > 0) {
    log(`Leaving the server idle ${options.settleSec} s before reading its memory at rest…`);
    await new Promise((resolve) => setTimeout(resolve, options.settleSec * 1000));
    atRest = stackMemory(quire.pid);
  }

  const http: HttpCell[] = [];
  if (ceiling) {
    log('Bare Node (ceiling)…');
    const plan = planRequests('page/info', seed);
    http.push(
      ...(await runScenario(
        { name: 'bare Node', target: 'node', child: ceiling, plan },
        options,
        ownPids,
      )),
    );
  }
  // page/save last: it is the only scenario that changes the data the others read.
  const order: Endpoint[] = ['page/info', 'item/info', 'item/search', 'page/save'];
  for (const endpoint of order.filter((e) => options.endpoints.includes(e))) {
    log(`${endpoint}…`);
    const plan = planRequests(endpoint, seed, options.tokenOverride?.[endpoint]);
    http.push(
      ...(await runScenario(
        { name: endpoint, target: 'quire', child: quire, plan },
        options,
        ownPids,
      )),
    );
  }
  const ceilingRps = new Map(
    http.filter((c) => c.target === 'node').map((c) => [c.concurrency, c.rps]),
  );
  for (const cell of http) {
    const node = ceilingRps.get(cell.concurrency);
    if (cell.target === 'quire' && node) cell.fractionOfNode = round(cell.rps / node, 3);
  }
  const afterHttp = stackMemory(quire.pid);

  let overload: OverloadCell | undefined;
  if (options.overload) {
    log('Overload…');
    await waitForQuiet(quire.pid);
    overload = await runOverloadCell({
      url: quire.url,
      seed,
      serverPid: quire.pid,
      ownPids,
      options: options.overload,
      log,
    });
    await waitForQuiet(quire.pid);
  }

  let realtime: RealtimeCell[] = [];
  if (options.realtime) {
    log('Realtime…');
    realtime = await runRealtime({
      url: quire.url,
      serverPid: quire.pid,
      inspectorUrls: quire.inspectorUrls,
      ownPids,
      seed,
      sizes: options.realtime,
      log,
      holdSampling: sampler ? (on) => sampler.hold(on) : undefined,
    });
  }
  const cellRun = { url: quire.url, seed, serverPid: quire.pid, ownPids, log };
  let kanban: PushCell | undefined;
  let whiteboard: PushCell | undefined;
  // Latency cells, like the realtime ones: the sampler's page-table walks wait.
  sampler?.hold(true);
  try {
    if (options.kanban) {
      log('Kanban…');
      await waitForQuiet(quire.pid);
      kanban = await runKanbanCell({ ...cellRun, options: options.kanban });
    }
    if (options.whiteboard) {
      log('Whiteboard…');
      await waitForQuiet(quire.pid);
      whiteboard = await runWhiteboardCell({ ...cellRun, options: options.whiteboard });
    }
  } finally {
    sampler?.hold(false);
  }
  const serverPeakMB = treeMemory(quire.pid)?.peakMB ?? null;
  if (serverPeakMB === null) problems.push('the server process was gone before the end of the run');
  const sampled = sampler ? await sampler.stop() : null;
  if (sampler && !sampled) problems.push('the memory sampler gave no figures');
  if (sampled)
    log(
      `  memory sampler: ${sampled.rssReadings} Σ RSS readings (${sampled.rssMsMean} ms each), ` +
        `${sampled.residentReadings} distinct-page readings (CPU mean ${sampled.residentCpuMsMean} ms, ` +
        `max ${sampled.residentCpuMsMax} ms; wall mean ${sampled.residentWallMsMean} ms, max ${sampled.residentWallMsMax} ms)`,
    );
  // After the memory readings: the receiver's held deliveries are still queued in the server.
  let webhooks: WebhookCell | undefined;
  if (options.webhooks) {
    log('Webhooks…');
    await waitForQuiet(quire.pid);
    webhooks = await runWebhookCell({ ...cellRun, options: options.webhooks });
  }
  /** The largest of the sampled peak and the single readings (null when none has a value). */
  const peakOf = (...values: Array<number | null | undefined>) => {
    const known = values.filter((v): v is number => typeof v === 'number');
    return known.length ? Math.max(...known) : null;
  };

  const ok =
    problems.length === 0 &&
    http.every((c) => c.ok) &&
    realtime.every((c) => !c.available || c.ok) &&
    (!overload || overload.ok) &&
    [kanban, whiteboard, webhooks].every((cell) => !cell || cell.ok);
  return {
    generatedAt: new Date().toISOString(),
    totalSeconds: round(Number(process.hrtime.bigint() - started) / 1e9, 1),
    quick: options.quick,
    machine,
    loadAverageEnd: os.loadavg().map((n) => round(n, 2)),
    settings: {
      durationSec: options.durationSec,
      warmupSec: options.warmupSec,
      concurrency: options.concurrency,
      serverLogLevel: options.serverLogLevel,
      serverWorkers: quire.workers,
    },
    seed: {
      catalogs: seed.catalogs,
      pages: seed.pages.length,
      avgPageBytes: seed.avgPageBytes,
      keyword: seed.keyword,
      keywordHits: seed.keywordHits,
      seconds: round(seed.seconds, 1),
    },
    http,
    memory: {
      serverRssAtRestMB: atRest?.rssSumMB ?? null,
      serverRssAfterHttpMB: afterHttp?.rssSumMB ?? null,
      serverPeakMB,
      serverRssSampledPeakMB: peakOf(
        sampled?.rssSumPeakMB,
        justStarted?.rssSumMB,
        atRest?.rssSumMB,
        afterHttp?.rssSumMB,
      ),
      stackResidentJustStartedMB: justStarted?.residentMB ?? null,
      settleSec: options.settleSec,
      stackResidentAtRestMB: atRest?.residentMB ?? null,
      stackResidentAfterHttpMB: afterHttp?.residentMB ?? null,
      stackResidentPeakMB: peakOf(
        sampled?.residentPeakMB,
        justStarted?.residentMB,
        atRest?.residentMB,
        afterHttp?.residentMB,
      ),
      pssAtRestMB: atRest?.pssMB ?? null,
      pssAfterHttpMB: afterHttp?.pssMB ?? null,
      sampler: sampled
        ? {
            residentReadings: sampled.residentReadings,
            residentCpuMsMean: sampled.residentCpuMsMean,
            residentCpuMsMax: sampled.residentCpuMsMax,
            residentWallMsMean: sampled.residentWallMsMean,
          }
        : null,
    },
    realtime,
    ...(overload ? { overload } : {}),
    ...(kanban ? { kanban } : {}),
    ...(whiteboard ? { whiteboard } : {}),
    ...(webhooks ? { webhooks } : {}),
    problems,
    ok,
  };
}

/** The whole benchmark: session, cells, optional engine bench, JSON file. */
export async function runBench(options: BenchOptions): Promise<BenchReport> {
  const started = process.hrtime.bigint();
  const session = await openBenchSession(options);
  let report: BenchReport;
  try {
    report = await measureBench(session, options);
  } finally {
    await session.stop();
  }
  if (options.editor) {
    // After the servers are gone: a browser, and a server of its own with the web build.
    options.log('Page editor (Chromium)…');
    try {
      report.editor = await measureEditor({
        quick: options.quick,
        log: (line) => options.log(`  editor: ${line}`),
      });
    } catch (error) {
      report.problems.push(`the page editor section failed: ${(error as Error).message}`);
      report.ok = false;
    }
    options.log('Spreadsheet item (Chromium)…');
    try {
      report.sheet = await measureSheet({
        quick: options.quick,
        log: (line) => options.log(`  sheet: ${line}`),
      });
    } catch (error) {
      report.problems.push(`the spreadsheet section failed: ${(error as Error).message}`);
      report.ok = false;
    }
  }
  if (options.huge) {
    // After the servers are gone: a server of its own in this process, and Chromium.
    options.log('Huge item…');
    try {
      report.huge = await measureHugeItem({
        options: options.huge,
        log: (line) => options.log(`  huge: ${line}`),
      });
      if (!report.huge.ok) {
        report.problems.push('the huge item cell got an error answer (see its figures)');
        report.ok = false;
      }
    } catch (error) {
      report.problems.push(`the huge item cell failed: ${(error as Error).message}`);
      report.ok = false;
    }
  }
  if (options.engine) {
    // After the servers are gone, so it has the machine to itself.
    options.log('Embedded engine…');
    report.engine = await runEngineBench({
      quick: options.quick,
      log: (line) => options.log(`  engine: ${line}`),
    });
  }
  report.totalSeconds = round(Number(process.hrtime.bigint() - started) / 1e9, 1);
  if (options.jsonPath) await writeFile(options.jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  return report;
}
