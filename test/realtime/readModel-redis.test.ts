/**
 * The read model stays exact across processes: two Quire processes on one database and one Redis
 * (A owns the embedded engine, B serves the API through it). Every check first warms B's memory
 * (a read through B), then writes through A, then reads through B at once — no waiting, no
 * retries: a write answers only after its events have left for the other processes, so the next
 * request anywhere sees it. Covered: a page save, and every revocation (member removed, logout,
 * password changed, item archived, item deleted).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { issueToken } from '../../models/accounts/users';
import type { Database } from '../../models/platform/db';
import { ShowdocClient } from '../helpers/client';
import { addMember, makeItem } from '../helpers/factories';
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

beforeAll(async () => {
  redis = await startRedis();
  dir = await makeTempDir('quire-readmodel-redis-');
  const common = { HOST: '127.0.0.1', PORT: '0', REDIS_URL: redis.url, LOG_LEVEL: 'warn' };
  const engine = await startSharedEngine(dir, common);
  a = engine.owner;
  b = await engine.join('child', 'b', { ...common, ROLE: 'api' });
  db = await engine.openHere();
  owner = await makeUser();
}, 120_000);

afterAll(async () => {
  await db?.close();
  await b?.stop();
  await a?.stop();
  await stopAllQuires();
  await redis?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const via = (proc: QuireProcess, user: TestUser | string) =>
  new ShowdocClient(proc.url, typeof user === 'string' ? user : user.user_token);

async function itemWithPage(): Promise<{ itemId: number; pageId: number }> {
  const { item_id: itemId } = await makeItem(owner, { password: 'visit-secret' });
  const page = await makePage(owner, itemId, { title: 'Shared', content: 'first text' });
  return { itemId, pageId: page.page_id };
}

describe('a write through one process is seen by the next request through the other', () => {
  test('a page saved through A reads back new through B', async () => {
    const { itemId, pageId } = await itemWithPage();
    expect(
      (await via(b, owner).ok<{ page_content: string }>('page/info', { page_id: pageId }))
        .page_content,
    ).toBe('first text');
    await via(a, owner).ok('page/save', {
      page_id: pageId,
      item_id: itemId,
      page_title: 'Shared',
      page_content: 'second text',
    });
    expect(
      (await via(b, owner).ok<{ page_content: string }>('page/info', { page_id: pageId }))
        .page_content,
    ).toBe('second text');
  }, 60_000);
});

describe('revocations take effect on the next request in every process', () => {
  test('a member removed through A can no longer read through B', async () => {
    const { itemId, pageId } = await itemWithPage();
    const member = await makeUser();
    const memberRowId = await addMember(itemId, member, 1);
    expect(
      (await via(b, member).ok<{ page_id: string }>('page/info', { page_id: pageId })).page_id,
    ).toBe(String(pageId));
    await via(a, owner).ok('member/delete', { item_id: itemId, item_member_id: memberRowId });
    expect((await via(b, member).fail('page/info', { page_id: pageId })).error_code).toBe(10303);
    expect((await via(b, member).fail('item/info', { item_id: itemId })).error_code).toBe(10303);
  }, 60_000);

  test('a token logged out through A is refused by B', async () => {
    const user = await makeUser();
    const { token } = await issueToken(user.uid);
    await via(b, token).ok('user/info');
    await via(a, token).ok('user/logout');
    expect((await via(b, token).fail('user/info')).error_code).toBe(10102);
  }, 60_000);

  test('a password changed through A ends the old sessions in B', async () => {
    const user = await makeUser();
    const { token } = await issueToken(user.uid);
    await via(b, token).ok('user/info');
    await via(b, user).ok('user/info');
    await via(a, user).ok('user/resetPassword', {
      password: user.password,
      new_password: 'a-new-password-1',
    });
    expect((await via(b, token).fail('user/info')).error_code).toBe(10102);
    expect((await via(b, user).fail('user/info')).error_code).toBe(10102);
  }, 60_000);

  test('an item archived through A refuses writes through B at once', async () => {
    const { itemId, pageId } = await itemWithPage();
    const editor = await makeUser();
    await addMember(itemId, editor, 1);
    const save = (content: string) => ({
      page_id: pageId,
      item_id: itemId,
      page_title: 'Shared',
      page_content: content,
    });
    await via(b, editor).ok('page/save', save('editor text'));
    await via(a, owner).ok('item/archive', { item_id: itemId, password: owner.password });
    expect((await via(b, editor).fail('page/save', save('late text'))).error_code).toBe(10101);
    expect(
      (await via(b, owner).ok<{ is_archived: string }>('item/info', { item_id: itemId }))
        .is_archived,
    ).toBe('1');
  }, 60_000);

  test('an item deleted through A is gone through B at once', async () => {
    const { itemId, pageId } = await itemWithPage();
    const reader = await makeUser();
    await addMember(itemId, reader, 0);
    await via(b, reader).ok('page/info', { page_id: pageId });
    await via(b, reader).ok('item/info', { item_id: itemId });
    await via(a, owner).ok('item/delete', { item_id: itemId, password: owner.password });
    expect((await via(b, reader).fail('page/info', { page_id: pageId })).error_code).toBe(10101);
    expect((await via(b, reader).fail('item/info', { item_id: itemId })).error_code).toBe(10101);
  }, 60_000);
});
