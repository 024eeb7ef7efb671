/**
 * `npm run bench` checks its own correctness on a tiny configuration: every planned cell is in
 * the report and every response is checked; error answers (a bogus token) and connection errors
 * (a server that is gone) are counted and fail their cells; the page editor and spreadsheet
 * sections drive Chromium through every planned sample. Figures are not asserted: speed is measured by the bench,
 * never by a test.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { formatEditorFigures, measureEditor } from '../../scripts/measure-editor';
import { formatSheetFigures, measureSheet } from '../../scripts/measure-sheet';
import { runHttpCell } from '../../scripts/bench/http';
import { defaultOptions, type BenchOptions } from '../../scripts/bench/options';
import { formatReport } from '../../scripts/bench/report';
import { measureBench, openBenchSession, type BenchSession } from '../../scripts/bench/run';

function tiny(overrides: Partial<BenchOptions> = {}): BenchOptions {
  return {
    ...defaultOptions(true),
    // Long enough that one request slowed by a loaded CI machine (a cold search index, a busy
    // disk) still ends inside its cell: a cell counts the answers that came within its duration.
    durationSec: 3,
    warmupSec: 0,
    settleSec: 1,
    concurrency: [1],
    pages: 50, // page 50 carries the search keyword: item/search has one hit
    catalogLevels: [2, 3],
    realtime: {
      watchers: 5,
      clientProcesses: 2,
      rounds: 2,
      editors: 3,
      edits: 3,
      idleSockets: 20,
      idleSeconds: 0.5,
    },
    log: () => {},
    ...overrides,
  };
}

// One seeded server for both measurements (starting one is most of this file's time).
let session: BenchSession;
beforeAll(async () => {
  session = await openBenchSession(tiny());
});
afterAll(async () => {
  await session?.stop();
});

test('a tiny run reports every planned cell, each with checked responses and zero errors', async () => {
  const report = await measureBench(session, tiny());

  expect(report.problems).toEqual([]);
  expect(report.http.map((c) => `${c.target} ${c.scenario} ×${c.concurrency}`)).toEqual([
    'node bare Node ×1',
    'quire page/info ×1',
    'quire item/info ×1',
    'quire item/search ×1',
    'quire page/save ×1',
  ]);
  for (const cell of report.http) {
    expect({ cell: cell.scenario, answered: cell.requests > 0 }).toEqual({
      cell: cell.scenario,
      answered: true,
    });
    expect(cell.errors.total).toBe(0);
    expect(cell.ok).toBe(true);
    if (cell.target === 'quire') expect(cell.fractionOfNode).toBeGreaterThan(0);
  }
  expect(report.seed).toMatchObject({ pages: 50, catalogs: 5, keywordHits: 1 });
  const memory = report.memory;
  expect(memory.serverRssAtRestMB).toBeGreaterThan(0);
  expect(memory.serverPeakMB).toBeGreaterThanOrEqual(memory.serverRssAtRestMB!);
  expect(memory.serverRssSampledPeakMB).toBeGreaterThanOrEqual(memory.serverRssAtRestMB!);
  expect(memory.pssAtRestMB).toBeGreaterThan(0);
  expect(memory.sampler?.residentReadings).toBeGreaterThanOrEqual(2);
  // The whole-stack figure (null where the kernel hides page frame numbers) counts each page
  // once: not above Σ RSS (give or take the few special pages RSS leaves out, such as the shared
  // zero page, for a single process), and its sampled peak not below its own readings.
  if (memory.stackResidentAtRestMB !== null) {
    expect(memory.stackResidentAtRestMB).toBeGreaterThan(0);
    expect(memory.stackResidentJustStartedMB).toBeGreaterThan(0);
    expect(memory.settleSec).toBe(1);
    expect(memory.stackResidentAtRestMB).toBeLessThanOrEqual(memory.serverRssAtRestMB! + 1);
    expect(memory.stackResidentPeakMB).toBeGreaterThanOrEqual(
      Math.max(memory.stackResidentAtRestMB, memory.stackResidentAfterHttpMB!),
    );
  }

  // Realtime cells: every one measured with real sockets and editors, every delivery arrived.
  expect(report.realtime.map((c) => c.scenario)).toEqual([
    'idle sockets',
    'lock propagation',
    'notice propagation',
    'Yjs edit propagation',
  ]);
  for (const cell of report.realtime)
    expect(cell).toMatchObject({ available: true, ok: true, errors: 0 });
  // The memory readings came after a forced collection in every server process (the primary
  // and each worker, or the one process).
  const workers = report.settings.serverWorkers;
  expect(report.realtime[0].collectedProcesses).toBe(workers > 1 ? workers + 1 : 1);
  const samples = Object.fromEntries(report.realtime.map((c) => [c.scenario, c.samples]));
  expect(samples).toEqual({
    'idle sockets': 20,
    'lock propagation': 5 * 2, // every watcher × every lock change
    'notice propagation': 5 * 2,
    'Yjs edit propagation': 2 * 3, // every editor but the writer × every edit
  });
  expect(report.ok).toBe(true);

  const table = formatReport(report);
  for (const name of [
    'bare Node (ceiling)',
    'page/info',
    'item/info',
    'item/search',
    'page/save',
    'idle sockets',
  ])
    expect(table).toContain(`| ${name} |`);
  expect(table).toContain('| **whole stack: distinct resident pages** |');
  expect(table).toContain('| Σ RSS over the processes |');
  expect(table).toContain('Goal (');
  expect(table).toMatch(
    /At rest = after 1 s idle once the server serves; just after start the whole stack was (\d[\d.,]* MB|–)/,
  );
  expect(table).not.toContain('FAIL');
});

test('error answers fail their cell and every one is counted (bogus token on page/save)', async () => {
  const report = await measureBench(
    session,
    tiny({
      endpoints: ['page/info', 'page/save'],
      ceiling: false,
      realtime: false,
      tokenOverride: { 'page/save': 'bogus-token' },
    }),
  );

  const [info, save] = report.http;
  expect(info).toMatchObject({ scenario: 'page/info', ok: true });
  expect(save.scenario).toBe('page/save');
  expect(save.ok).toBe(false);
  expect(save.requests).toBeGreaterThan(0);
  // HTTP 200 with {"error_code":10102} (not logged in): each answer is an error.
  expect(save.errors).toMatchObject({
    total: save.requests,
    envelope: save.requests,
    httpStatus: 0,
  });
  expect(save.errors.byCode).toEqual({ '10102': save.requests });
  expect(save.errors.sample).toMatch(/^\{"error_code":10102/);
  expect(report.ok).toBe(false);
  expect(formatReport(report)).toMatch(/\| page\/save \| 1 \|.*\*\*FAIL\*\*/);
});

test('a server that is gone: connection errors are counted and fail the cell', async () => {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));

  const cell = await runHttpCell({
    scenario: 'stopped',
    target: 'node',
    url: `http://127.0.0.1:${port}`,
    plan: { path: '/api/page/info', body: () => 'page_id=1' },
    concurrency: 1,
    durationSec: 1,
    serverPid: process.pid,
  });
  expect(cell.requests).toBe(0);
  expect(cell.errors.transport).toBeGreaterThan(0);
  expect(cell.errors.total).toBe(cell.errors.transport);
  expect(cell.ok).toBe(false);
});

test('the page editor section takes every planned sample in Chromium and prints with the report', async () => {
  const figures = await measureEditor({
    sizes: { openRuns: 1, keystrokes: 3, saves: 2 },
    log: () => {},
  });

  expect(figures.open.ready.samples).toBe(1);
  expect(figures.open.ready.p50Ms).toBeGreaterThan(0);
  // The editor's own chunk is what the reader of the page does not load.
  expect(figures.open.editorOnly.scripts.map((s) => s.url)).toContainEqual(
    expect.stringMatching(/\/EditorRoute-[\w-]+\.js$/),
  );
  expect(figures.open.js.jsGzipBytes).toBeGreaterThan(figures.open.editorOnly.jsGzipBytes);
  expect(figures.keystroke).toMatchObject({ samples: 3, missed: 0 });
  expect(figures.save.samples).toBe(2);

  const report = await measureBench(
    session,
    tiny({ endpoints: [], ceiling: false, realtime: false }),
  );
  report.editor = figures;
  const table = formatReport(report);
  expect(table).toContain(formatEditorFigures(figures));
  for (const row of ['open, cold, until ready to type', 'keystroke → co-editor', 'save → "saved"'])
    expect(table).toContain(`| ${row}`);
}, 240_000);

test('the spreadsheet section times every planned cell change in Chromium and prints with the report', async () => {
  const figures = await measureSheet({ sizes: { openRuns: 1, changes: 3 }, log: () => {} });

  expect(figures.open.runs).toBe(1);
  expect(figures.open.readyP50Ms).toBeGreaterThan(0);
  // The spreadsheet's own chunk is loaded and is part of everything downloaded.
  expect(figures.open.sheetOnly.scripts.map((s) => s.url)).toContainEqual(
    expect.stringMatching(/\/SpreadsheetView-[\w-]+\.js$/),
  );
  expect(figures.open.js.jsGzipBytes).toBeGreaterThan(figures.open.sheetOnly.jsGzipBytes);
  expect(figures.cellChange).toMatchObject({ samples: 3, missed: 0 });

  const report = await measureBench(
    session,
    tiny({ endpoints: [], ceiling: false, realtime: false }),
  );
  report.sheet = figures;
  const table = formatReport(report);
  expect(table).toContain(formatSheetFigures(figures));
  for (const row of ['open, cold, until the grid shows', "cell Enter → viewer's grid"])
    expect(table).toContain(`| ${row}`);
}, 240_000);
