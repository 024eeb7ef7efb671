/**
 * The bench's whiteboard cell checks itself at a tiny size against a test server: it makes its
 * own whiteboard item, opens its co-drawers on the board's Yjs document, every stroke (one entry
 * of the `objects` map) reaches every other drawer, and the report names the cell and its goal.
 * Figures are not asserted: speed is measured by the bench, never by a test.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { SeedResult } from '../../scripts/bench/seed';
import {
  formatWhiteboard,
  runWhiteboardCell,
  whiteboardUserCount,
} from '../../scripts/bench/whiteboard';
import { benchSeed } from '../helpers/benchSeed';
import { startTestServer, type TestServer } from '../helpers/server';

let server: TestServer;
let seed: SeedResult;
const options = { drawers: 4, strokes: 6 };

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  seed = await benchSeed({ pages: 2, users: whiteboardUserCount(options) });
});

afterAll(async () => {
  await server?.stop();
});

test('every stroke reaches every other co-drawer and the report shows p50/p95/p99 against the goal', async () => {
  const cell = await runWhiteboardCell({
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
  // Each stroke arrives at the other three drawers.
  expect(cell.samples).toBe(options.strokes * (options.drawers - 1));
  expect(cell.p50Ms).toBeGreaterThan(0);
  expect(cell.p99Ms).toBeGreaterThanOrEqual(cell.p95Ms);
  const text = formatWhiteboard(cell);
  expect(text).toContain('| whiteboard stroke → co-drawers | 4 co-drawers × 6 strokes |');
  expect(text).toMatch(/p99 ≤ 50 (ok|\*\*over\*\*)/);
}, 120_000);
