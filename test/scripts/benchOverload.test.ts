/**
 * The bench's overload cell checks itself on a tiny configuration against a server whose
 * admission limits are set low: the server's documented 503s are counted as refusals, not as
 * errors, so the cell passes, and its report names them. Figures are not asserted: speed is
 * measured by the bench, never by a test.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { RARE_KEYWORD } from '../../scripts/bench/content';
import { seedHugeItem } from '../../scripts/bench/hugeItem';
import { formatOverload, runOverloadCell } from '../../scripts/bench/overload';
import type { SeedResult } from '../../scripts/bench/seed';
import { actorOf, makeItem } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

let server: TestServer;
let seed: SeedResult;

beforeAll(async () => {
  server = await startTestServer({
    env: {
      LOG_LEVEL: 'silent',
      MAX_INFLIGHT_PER_WORKER: '1',
      MAX_QUEUE_PER_WORKER: '1',
      QUEUE_TIMEOUT_MS: '1000',
    },
  });
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner);
  const item = await seedHugeItem(await actorOf(owner), itemId, {
    pages: 20,
    catalogLevels: [2, 4],
  });
  const catOf = new Map<number, number>();
  for (const [catId, ids] of item.pagesByCat) for (const id of ids) catOf.set(id, catId);
  seed = {
    uid: owner.uid,
    username: owner.username,
    userToken: owner.user_token,
    itemId,
    catalogs: item.levels.flat().length,
    pages: item.pageIds.map((pageId, i) => ({ pageId, number: i + 1, catId: catOf.get(pageId)! })),
    keyword: RARE_KEYWORD,
    keywordHits: item.keywordHits,
    avgPageBytes: 0,
    realtimeUsers: [],
    seconds: item.seconds,
  };
});

afterAll(async () => {
  await server?.stop();
});

test('the overload cell counts the documented 503s as refusals, every other answer as it is, and reports them', async () => {
  const cell = await runOverloadCell({
    url: server.url,
    seed,
    serverPid: process.pid,
    ownPids: [],
    // Long enough for a save to finish on a loaded CI machine (a request still running when the
    // time is up is not counted); what is checked is the counting, not the speed.
    options: { readers: 16, savers: 4, durationSec: 6, soloSec: 2 },
    log: () => {},
  });
  expect(cell.reads.requests).toBeGreaterThan(0);
  expect(cell.saves.requests).toBeGreaterThan(0);
  expect(cell.refused.reads).toBeGreaterThan(0); // 16 readers against 1 running + 1 waiting
  expect(cell.otherErrors).toEqual({});
  expect(cell.ok).toBe(true);
  expect(cell.health.samples).toBeGreaterThan(0);
  const text = formatOverload(cell);
  expect(text).toContain('### Overload (16 readers on page/info + 4 savers on page/save, 6 s)');
  expect(text).toContain('Errors other than the documented 503: none.');
});
