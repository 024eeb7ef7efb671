/**
 * page/isLock and page/setLock over real HTTP: who may ask and who may lock, the holder/other-user
 * rules, release with lock_to=1000, the server-side cap on lock time, and lock.changed events.
 * Clock-dependent rules (expiry) are proven in test/models/locks.test.ts.
 */
import { describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { MAX_LOCK_SECONDS } from '../../models/pages/locks';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { nowSeconds } from '../../models/platform/time';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';

const suite = apiSuite({ item: {} });

const { as } = suite;
const UNLOCKED = { lock: 0, exceed: 0, lock_uid: '', lock_username: '', is_cur_user: 0 };

describe('page/isLock', () => {
  test('anonymous callers are refused (10102), even on a public item', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect((await suite.server.api.fail('page/isLock', { page_id: page.page_id })).error_code).toBe(
      10102,
    );
  });

  test('needs visit access: strangers of a private item get 10101; readers may ask', async () => {
    const secret = await makeItem(suite.owner, { password: 'pw' });
    const hidden = await makePage(suite.owner, secret.item_id);
    expect(
      (await as(suite.stranger).fail('page/isLock', { page_id: hidden.page_id })).error_code,
    ).toBe(10101);
    expect((await as(suite.owner).fail('page/isLock', { page_id: 0 })).error_code).toBe(10101);
    const page = await makePage(suite.owner, suite.itemId);
    expect(
      await as(suite.reader).ok('page/isLock', { page_id: page.page_id, item_id: suite.itemId }),
    ).toEqual(UNLOCKED);
  });
});

describe('page/setLock', () => {
  test('anonymous → 10102; ids ≤ 0 → 10101; readers, strangers and a mismatched item_id → 10101; no lock written', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const strangersItem = await makeItem(suite.stranger);
    expect(
      (
        await suite.server.api.fail('page/setLock', {
          page_id: page.page_id,
          item_id: suite.itemId,
        })
      ).error_code,
    ).toBe(10102);
    for (const [user, params] of [
      [suite.owner, { page_id: 0, item_id: suite.itemId }],
      [suite.owner, { page_id: page.page_id, item_id: 0 }],
      [suite.reader, { page_id: page.page_id, item_id: suite.itemId }],
      [suite.stranger, { page_id: page.page_id, item_id: suite.itemId }],
      // ShowDoc checked edit rights on the request's item_id: any editor of some item could lock any page.
      [suite.stranger, { page_id: page.page_id, item_id: strangersItem.item_id }],
    ] as const)
      expect((await as(user).fail('page/setLock', params)).error_code).toBe(10101);
    expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('the holder sees is_cur_user=1, others see the holder; others can neither take nor release it', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const taken = await as(suite.editor).ok<{ id: number }>('page/setLock', {
      page_id: page.page_id,
      item_id: suite.itemId,
    });
    expect(typeof taken.id).toBe('number');
    expect(await as(suite.editor).ok('page/isLock', { page_id: page.page_id })).toEqual({
      lock: 1,
      exceed: 0,
      lock_uid: String(suite.editor.uid),
      lock_username: suite.editor.username,
      is_cur_user: 1,
    });
    expect(await as(suite.owner).ok('page/isLock', { page_id: page.page_id })).toMatchObject({
      lock: 1,
      is_cur_user: 0,
      lock_username: suite.editor.username,
    });

    const before = await PageLock.findOne({ page_id: page.page_id }).lean();
    expect(
      (await as(suite.owner).fail('page/setLock', { page_id: page.page_id, item_id: suite.itemId }))
        .error_message,
    ).toContain(suite.editor.username);
    expect(
      (
        await as(suite.owner).fail('page/setLock', {
          page_id: page.page_id,
          item_id: suite.itemId,
          lock_to: 1000,
        })
      ).error_code,
    ).toBe(10101);
    expect(await PageLock.findOne({ page_id: page.page_id }).lean()).toEqual(before);
  });

  test('renewing keeps the row; lock_to=1000 releases it and someone else can take it', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const seen: DomainEvents['lock.changed'][] = [];
    const stop = events.subscribe('lock.changed', (e) => void seen.push(e));
    try {
      const first = await as(suite.editor).ok<{ id: number }>('page/setLock', {
        page_id: page.page_id,
        item_id: suite.itemId,
      });
      const renewed = await as(suite.editor).ok<{ id: number }>('page/setLock', {
        page_id: page.page_id,
        item_id: suite.itemId,
      });
      expect(renewed.id).toBe(first.id);
      await as(suite.editor).ok('page/setLock', {
        page_id: page.page_id,
        item_id: suite.itemId,
        lock_to: 1000,
      });
      expect(await as(suite.owner).ok('page/isLock', { page_id: page.page_id })).toEqual(UNLOCKED);
      await as(suite.owner).ok('page/setLock', { page_id: page.page_id, item_id: suite.itemId });
      expect(await as(suite.editor).ok('page/isLock', { page_id: page.page_id })).toMatchObject({
        lock: 1,
        lock_username: suite.owner.username,
        is_cur_user: 0,
      });
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    expect(seen.map((e) => (e.lock ? e.lock.uid : null))).toEqual([
      suite.editor.uid,
      suite.editor.uid,
      null,
      suite.owner.uid,
    ]);
    expect(seen.every((e) => e.itemId === suite.itemId && e.pageId === page.page_id)).toBe(true);
  });

  test('the server caps lock_to at MAX_LOCK_SECONDS ahead (a far-future lock is shortened)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const before = nowSeconds();
    await as(suite.editor).ok('page/setLock', {
      page_id: page.page_id,
      item_id: suite.itemId,
      lock_to: before + 365 * 86_400,
    });
    const row = (await PageLock.findOne({ page_id: page.page_id }).lean())!;
    expect(row.lock_to).toBeGreaterThan(before);
    expect(row.lock_to).toBeLessThanOrEqual(nowSeconds() + MAX_LOCK_SECONDS);
    await as(suite.editor).ok('page/setLock', {
      page_id: page.page_id,
      item_id: suite.itemId,
      lock_to: 1000,
    });
  });
});
