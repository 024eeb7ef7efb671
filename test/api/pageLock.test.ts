/**
 * page/isLock and page/setLock over real HTTP: who may ask and who may lock, the holder/other-user
 * rules, release with lock_to=1000, the server-side cap on lock time, and lock.changed events.
 * Clock-dependent rules (expiry) are proven in test/models/locks.test.ts.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { events, type DomainEvents } from '../../models/platform/events';
import { MAX_LOCK_SECONDS } from '../../models/pages/locks';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { nowSeconds } from '../../models/platform/time';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let reader: TestUser;
let stranger: TestUser;
let itemId: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, editor, reader, stranger] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  ({ item_id: itemId } = await makeItem(owner));
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
});
afterAll(async () => {
  await server.stop();
});

const as = (user: TestUser) => server.api.withToken(user.user_token);
const UNLOCKED = { lock: 0, exceed: 0, lock_uid: '', lock_username: '', is_cur_user: 0 };

describe('page/isLock', () => {
  test('anonymous callers are refused (10102), even on a public item', async () => {
    const page = await makePage(owner, itemId);
    expect((await server.api.fail('page/isLock', { page_id: page.page_id })).error_code).toBe(
      10102,
    );
  });

  test('needs visit access: strangers of a private item get 10101; readers may ask', async () => {
    const secret = await makeItem(owner, { password: 'pw' });
    const hidden = await makePage(owner, secret.item_id);
    expect((await as(stranger).fail('page/isLock', { page_id: hidden.page_id })).error_code).toBe(
      10101,
    );
    expect((await as(owner).fail('page/isLock', { page_id: 0 })).error_code).toBe(10101);
    const page = await makePage(owner, itemId);
    expect(await as(reader).ok('page/isLock', { page_id: page.page_id, item_id: itemId })).toEqual(
      UNLOCKED,
    );
  });
});

describe('page/setLock', () => {
  test('anonymous → 10102; ids ≤ 0 → 10101; readers, strangers and a mismatched item_id → 10101; no lock written', async () => {
    const page = await makePage(owner, itemId);
    const strangersItem = await makeItem(stranger);
    expect(
      (await server.api.fail('page/setLock', { page_id: page.page_id, item_id: itemId }))
        .error_code,
    ).toBe(10102);
    for (const [user, params] of [
      [owner, { page_id: 0, item_id: itemId }],
      [owner, { page_id: page.page_id, item_id: 0 }],
      [reader, { page_id: page.page_id, item_id: itemId }],
      [stranger, { page_id: page.page_id, item_id: itemId }],
      // ShowDoc checked edit rights on the request's item_id: any editor of some item could lock any page.
      [stranger, { page_id: page.page_id, item_id: strangersItem.item_id }],
    ] as const)
      expect((await as(user).fail('page/setLock', params)).error_code).toBe(10101);
    expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('the holder sees is_cur_user=1, others see the holder; others can neither take nor release it', async () => {
    const page = await makePage(owner, itemId);
    const taken = await as(editor).ok<{ id: number }>('page/setLock', {
      page_id: page.page_id,
      item_id: itemId,
    });
    expect(typeof taken.id).toBe('number');
    expect(await as(editor).ok('page/isLock', { page_id: page.page_id })).toEqual({
      lock: 1,
      exceed: 0,
      lock_uid: String(editor.uid),
      lock_username: editor.username,
      is_cur_user: 1,
    });
    expect(await as(owner).ok('page/isLock', { page_id: page.page_id })).toMatchObject({
      lock: 1,
      is_cur_user: 0,
      lock_username: editor.username,
    });

    const before = await PageLock.findOne({ page_id: page.page_id }).lean();
    expect(
      (await as(owner).fail('page/setLock', { page_id: page.page_id, item_id: itemId }))
        .error_message,
    ).toContain(editor.username);
    expect(
      (
        await as(owner).fail('page/setLock', {
          page_id: page.page_id,
          item_id: itemId,
          lock_to: 1000,
        })
      ).error_code,
    ).toBe(10101);
    expect(await PageLock.findOne({ page_id: page.page_id }).lean()).toEqual(before);
  });

  test('renewing keeps the row; lock_to=1000 releases it and someone else can take it', async () => {
    const page = await makePage(owner, itemId);
    const seen: DomainEvents['lock.changed'][] = [];
    const stop = events.subscribe('lock.changed', (e) => void seen.push(e));
    try {
      const first = await as(editor).ok<{ id: number }>('page/setLock', {
        page_id: page.page_id,
        item_id: itemId,
      });
      const renewed = await as(editor).ok<{ id: number }>('page/setLock', {
        page_id: page.page_id,
        item_id: itemId,
      });
      expect(renewed.id).toBe(first.id);
      await as(editor).ok('page/setLock', {
        page_id: page.page_id,
        item_id: itemId,
        lock_to: 1000,
      });
      expect(await as(owner).ok('page/isLock', { page_id: page.page_id })).toEqual(UNLOCKED);
      await as(owner).ok('page/setLock', { page_id: page.page_id, item_id: itemId });
      expect(await as(editor).ok('page/isLock', { page_id: page.page_id })).toMatchObject({
        lock: 1,
        lock_username: owner.username,
        is_cur_user: 0,
      });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    expect(seen.map((e) => (e.lock ? e.lock.uid : null))).toEqual([
      editor.uid,
      editor.uid,
      null,
      owner.uid,
    ]);
    expect(seen.every((e) => e.itemId === itemId && e.pageId === page.page_id)).toBe(true);
  });

  test('the server caps lock_to at MAX_LOCK_SECONDS ahead (a far-future lock is shortened)', async () => {
    const page = await makePage(owner, itemId);
    const before = nowSeconds();
    await as(editor).ok('page/setLock', {
      page_id: page.page_id,
      item_id: itemId,
      lock_to: before + 365 * 86_400,
    });
    const row = (await PageLock.findOne({ page_id: page.page_id }).lean())!;
    expect(row.lock_to).toBeGreaterThan(before);
    expect(row.lock_to).toBeLessThanOrEqual(nowSeconds() + MAX_LOCK_SECONDS);
    await as(editor).ok('page/setLock', { page_id: page.page_id, item_id: itemId, lock_to: 1000 });
  });
});
