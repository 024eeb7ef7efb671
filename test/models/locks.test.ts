/**
 * Page-lock timing rules against the real database, with the clock passed in: a lock expires at
 * its lock_to, a default lock lasts 30 minutes, renewals and requests never reach past the cap,
 * and an expired lock of another user neither shows nor blocks.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import type { Actor } from '../../models/access';
import {
  DEFAULT_LOCK_SECONDS,
  MAX_LOCK_SECONDS,
  pageLockState,
  setPageLock,
} from '../../models/pages/locks';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

serverSuite();
let alice: Actor;
let aliceUser: TestUser;
let bob: Actor;
let itemId: number;

beforeAll(async () => {
  const [a, b] = await Promise.all([makeUser(), makeUser()]);
  aliceUser = a;
  ({ item_id: itemId } = await makeItem(a));
  await addMember(itemId, b, 1);
  [alice, bob] = await Promise.all([actorOf(a), actorOf(b)]);
});

const T0 = 2_000_000_000;

describe('lock timing', () => {
  test('a lock taken without lock_to lasts DEFAULT_LOCK_SECONDS and is gone after that', async () => {
    const page = await makePage(aliceUser, itemId);
    await setPageLock(alice, { pageId: page.page_id, itemId }, { now: T0 });
    expect((await PageLock.findOne({ page_id: page.page_id }).lean())!.lock_to).toBe(
      T0 + DEFAULT_LOCK_SECONDS,
    );
    expect(
      await pageLockState(bob, page.page_id, { now: T0 + DEFAULT_LOCK_SECONDS - 1 }),
    ).toMatchObject({ lock: 1, is_cur_user: 0 });
    expect(
      await pageLockState(bob, page.page_id, { now: T0 + DEFAULT_LOCK_SECONDS }),
    ).toMatchObject({ lock: 0, lock_username: '' });
  });

  test('another user cannot take a live lock but takes an expired one', async () => {
    const page = await makePage(aliceUser, itemId);
    await setPageLock(alice, { pageId: page.page_id, itemId, lockTo: T0 + 60 }, { now: T0 });
    await expect(
      setPageLock(bob, { pageId: page.page_id, itemId }, { now: T0 + 59 }),
    ).rejects.toMatchObject({ code: 10101 });
    await expect(
      setPageLock(bob, { pageId: page.page_id, itemId }, { now: T0 + 61 }),
    ).resolves.toHaveProperty('id');
    expect(await pageLockState(alice, page.page_id, { now: T0 + 62 })).toMatchObject({
      lock: 1,
      lock_uid: String(bob.uid),
      is_cur_user: 0,
    });
  });

  test('a requested lock_to is capped at now + MAX_LOCK_SECONDS, also on renewal', async () => {
    const page = await makePage(aliceUser, itemId);
    await setPageLock(
      alice,
      { pageId: page.page_id, itemId, lockTo: T0 + 10 * 86_400 },
      { now: T0 },
    );
    expect((await PageLock.findOne({ page_id: page.page_id }).lean())!.lock_to).toBe(
      T0 + MAX_LOCK_SECONDS,
    );
    await setPageLock(
      alice,
      { pageId: page.page_id, itemId, lockTo: 4_000_000_000 },
      { now: T0 + 1200 },
    );
    expect((await PageLock.findOne({ page_id: page.page_id }).lean())!.lock_to).toBe(
      T0 + 1200 + MAX_LOCK_SECONDS,
    );
  });

  test('releasing (lock_to in the past) leaves the page unlocked at once; the stale row is swept by the next setLock', async () => {
    const page = await makePage(aliceUser, itemId);
    await setPageLock(alice, { pageId: page.page_id, itemId }, { now: T0 });
    await setPageLock(alice, { pageId: page.page_id, itemId, lockTo: 1000 }, { now: T0 + 5 });
    expect(await pageLockState(bob, page.page_id, { now: T0 + 5 })).toMatchObject({ lock: 0 });
    const other = await makePage(aliceUser, itemId);
    await setPageLock(bob, { pageId: other.page_id, itemId }, { now: T0 + 6 });
    expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test("a take keeps one row per page, taken over in place after a release, and sweeps other pages' expired rows", async () => {
    const [page, other] = await Promise.all([
      makePage(aliceUser, itemId),
      makePage(aliceUser, itemId),
    ]);
    await setPageLock(bob, { pageId: other.page_id, itemId, lockTo: T0 + 30 }, { now: T0 });
    const { id } = await setPageLock(alice, { pageId: page.page_id, itemId }, { now: T0 });
    await setPageLock(alice, { pageId: page.page_id, itemId, lockTo: 1000 }, { now: T0 + 1 });
    expect(await pageLockState(bob, page.page_id, { now: T0 + 2 })).toMatchObject({ lock: 0 });
    // Bob takes the released lock: the same row, now his; the other page's lock has expired.
    const taken = await setPageLock(bob, { pageId: page.page_id, itemId }, { now: T0 + 40 });
    expect(taken.id).toBe(id);
    const rows = await PageLock.find({ page_id: { $in: [page.page_id, other.page_id] } }).lean();
    expect(rows.map((r) => ({ page_id: r.page_id, lock_uid: r.lock_uid }))).toEqual([
      { page_id: page.page_id, lock_uid: bob.uid },
    ]);
  });
});
