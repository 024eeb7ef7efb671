/**
 * The search index stays exact across processes: two Quire processes on one database and one
 * Redis (A owns the embedded engine, B serves the API through it). A's index of an item is built
 * by a search through A; then pages are edited, deleted and restored through B, and searches
 * through A find exactly the new state once B's events have been relayed (they carry no text: A
 * re-reads the pages they name).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import type { Database } from '../../models/platform/db';
import { ShowdocClient } from '../helpers/client';
import { eventually } from '../helpers/embedded';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startSharedEngine, stopAllQuires, type QuireProcess } from '../helpers/quireProcesses';
import { startRedis, type TestRedis } from '../helpers/redis';
import { makeTempDir } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let redis: TestRedis;
let dir: string;
let a: QuireProcess;
let b: QuireProcess;
let db: Database;
let owner: TestUser;
let itemId: number;

beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir('quire-search-redis-');
  const common = { HOST: '127.0.0.1', PORT: '0', REDIS_URL: redis.url, LOG_LEVEL: 'warn' };
  const engine = await startSharedEngine(dir, common);
  a = engine.owner;
  b = await engine.join('child', 'b', { ...common, ROLE: 'api' });
  db = await engine.openHere();
  owner = await makeUser();
  ({ item_id: itemId } = await makeItem(owner));
}, 120_000);

afterAll(async () => {
  await db?.close();
  await b?.stop();
  await a?.stop();
  await stopAllQuires();
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const titlesVia = async (proc: QuireProcess, keyword: string) =>
  (
    await new ShowdocClient(proc.url, owner.user_token).ok<{
      pages: { page_title: string }[];
    }>('item/search', { item_id: itemId, keyword })
  ).pages.map((p) => p.page_title);

test('an edit, a delete and a restore made in another process reach this process’s index', async () => {
  const page = await makePage(owner, itemId, { title: 'Shared', content: 'first wording' });
  expect(await titlesVia(a, 'first wording')).toEqual(['Shared']); // A builds its index
  const viaB = new ShowdocClient(b.url, owner.user_token);

  await viaB.ok('page/save', {
    page_id: page.page_id,
    item_id: itemId,
    page_title: 'Shared',
    page_content: 'second wording',
  });
  await eventually(async () => expect(await titlesVia(a, 'second wording')).toEqual(['Shared']), {
    timeoutMs: 10_000,
  });
  expect(await titlesVia(a, 'first wording')).toEqual([]);

  await viaB.ok('page/delete', { page_id: page.page_id });
  await eventually(async () => expect(await titlesVia(a, 'second wording')).toEqual([]), {
    timeoutMs: 10_000,
  });
  await viaB.ok('recycle/recover', { item_id: itemId, page_id: page.page_id });
  await eventually(async () => expect(await titlesVia(a, 'second wording')).toEqual(['Shared']), {
    timeoutMs: 10_000,
  });
}, 60_000);
