/**
 * The bench's kanban cell checks itself at a tiny size against a test server: it makes its own
 * board, its watchers (in client processes) join the board page's room, every card move's
 * `kanban:changed` push reaches every watcher, and the report names the cell and its goal.
 * Figures are not asserted: speed is measured by the bench, never by a test.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { formatKanban, kanbanUserCount, runKanbanCell } from '../../scripts/bench/kanban';
import type { SeedResult } from '../../scripts/bench/seed';
import { benchSeed } from '../helpers/benchSeed';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let seed: SeedResult;
const options = { watchers: 6, rounds: 3, clientProcesses: 2 };

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  seed = await benchSeed({ pages: 2, users: kanbanUserCount(options) });
});

afterAll(async () => {
  await server?.stop();
});

test('every card move reaches every board watcher and the report shows p50/p95/p99 against the goal', async () => {
  const cell = await runKanbanCell({
    url: server.url,
    seed,
    serverPid: process.pid,
    ownPids: [],
    options,
    log: () => {},
  });
  expect(cell.note).toBeUndefined();
  expect(cell.errors).toBe(0);
  expect(cell.ok).toBe(true);
  expect(cell.samples).toBe(options.watchers * options.rounds);
  expect(cell.p50Ms).toBeGreaterThan(0);
  expect(cell.p99Ms).toBeGreaterThanOrEqual(cell.p95Ms);
  expect(cell.p95Ms).toBeGreaterThanOrEqual(cell.p50Ms);
  expect(cell.call).toMatchObject({ route: 'kanban/moveTask' });
  expect(cell.call!.p50Ms).toBeGreaterThan(0);
  const text = formatKanban(cell);
  expect(text).toContain('| kanban card move → watchers | 6 watchers × 3 card moves |');
  expect(text).toMatch(/p99 ≤ 50 (ok|\*\*over\*\*)/);
  expect(text).toContain('The kanban/moveTask call alone');
}, 120_000);
