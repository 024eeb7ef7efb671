/**
 * The recycle bin over real HTTP (recycle/getList, recycle/recover) and its purge with the clock
 * passed in: managers only, recovery into the original catalog (or the root when it is gone), and
 * hard deletion 30 days after the deletion — not after the last edit.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { setPageLock } from '../../models/pages/locks';
import { deletePage } from '../../models/pages';
import { PURGE_AFTER_DAYS, purgeRecycleBin } from '../../models/pages/recycle';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Page } from '../../models/pages/schemas/page';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { Recycle } from '../../models/pages/schemas/recycle';
import { SinglePage } from '../../models/pages/schemas/singlePage';
import { toggleShareLink } from '../../models/pages/shareLinks';
import { nowSeconds } from '../../models/platform/time';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, updatePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUsers, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = serverSuite();
const { as } = suite;
let owner: TestUser;
let admin: TestUser;
let editor: TestUser;
let stranger: TestUser;
let itemId: number;

beforeAll(async () => {
  [owner, admin, editor, stranger] = await makeUsers(4);
  ({ item_id: itemId } = await makeItem(owner));
  await addMember(itemId, admin, 2);
  await addMember(itemId, editor, 1);
});

const DAY = 86_400;

async function binned(
  title: string,
  by: TestUser = owner,
  opts: { catId?: number; item?: number; now?: number } = {},
) {
  const page = await makePage(owner, opts.item ?? itemId, { title, catId: opts.catId });
  await deletePage(await actorOf(by), page.page_id, { now: opts.now });
  return page;
}

describe('recycle/getList', () => {
  test('anonymous → 10102; editors and strangers → 10303; item_id ≤ 0 → []', async () => {
    expect((await suite.server.api.fail('recycle/getList', { item_id: itemId })).error_code).toBe(
      10102,
    );
    expect((await as(editor).fail('recycle/getList', { item_id: itemId })).error_code).toBe(10303);
    expect((await as(stranger).fail('recycle/getList', { item_id: itemId })).error_code).toBe(
      10303,
    );
    expect(await as(owner).ok('recycle/getList', { item_id: 0 })).toEqual([]);
  });

  test('managers see rows newest deletion first, fields as strings, del_time formatted', async () => {
    const own = await makeItem(owner);
    const now = nowSeconds();
    const older = await binned('Older', owner, { item: own.item_id, now: now - 100 });
    const newer = await binned('Newer', owner, { item: own.item_id, now: now - 10 });
    const rows = await as(owner).ok<Array<Record<string, string>>>('recycle/getList', {
      item_id: own.item_id,
    });
    expect(rows.map((r) => r.page_title)).toEqual(['Newer', 'Older']);
    expect(rows[0]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      item_id: String(own.item_id),
      page_id: String(newer.page_id),
      page_title: 'Newer',
      del_by_uid: String(owner.uid),
      del_by_username: owner.username,
      del_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
    });
    expect(rows[1].page_id).toBe(String(older.page_id));
  });
});

describe('recycle/recover', () => {
  test('anonymous → 10102; bad ids → 10101; editors → 10303; a page not in the bin → 10101; nothing restored', async () => {
    const page = await binned('Stay deleted');
    expect(
      (await suite.server.api.fail('recycle/recover', { item_id: itemId, page_id: page.page_id }))
        .error_code,
    ).toBe(10102);
    expect(
      (await as(owner).fail('recycle/recover', { item_id: 0, page_id: page.page_id })).error_code,
    ).toBe(10101);
    expect(
      (await as(owner).fail('recycle/recover', { item_id: itemId, page_id: 0 })).error_code,
    ).toBe(10101);
    expect(
      (await as(editor).fail('recycle/recover', { item_id: itemId, page_id: page.page_id }))
        .error_code,
    ).toBe(10303);
    const live = await makePage(owner, itemId);
    expect(
      (await as(owner).fail('recycle/recover', { item_id: itemId, page_id: live.page_id }))
        .error_code,
    ).toBe(10101);
    const other = await makeItem(owner);
    expect(
      (await as(owner).fail('recycle/recover', { item_id: other.item_id, page_id: page.page_id }))
        .error_code,
    ).toBe(10101);
    expect((await Page.findOne({ page_id: page.page_id }).lean())!.is_del).toBe(1);
    expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(1);
  });

  test('an item admin recovers a page into its catalog; the bin row goes; menu.changed', async () => {
    const catId = await makeCatalog(owner, itemId, 'Kept catalog');
    const page = await binned('Back home', owner, { catId });
    const seen: DomainEvents['menu.changed'][] = [];
    const stop = events.subscribe('menu.changed', (e) => void seen.push(e));
    try {
      expect(
        await as(admin).ok('recycle/recover', { item_id: itemId, page_id: page.page_id }),
      ).toEqual([]);
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    expect(await Page.findOne({ page_id: page.page_id }).lean()).toMatchObject({
      is_del: 0,
      cat_id: catId,
    });
    expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(seen).toEqual([{ itemId, byUid: admin.uid }]);
    await expect(as(editor).ok('page/info', { page_id: page.page_id })).resolves.toMatchObject({
      cat_id: String(catId),
    });
  });

  test("when the page's catalog is gone it comes back at the root", async () => {
    const catId = await makeCatalog(owner, itemId, 'Doomed catalog');
    const page = await binned('Orphan', owner, { catId });
    await Catalog.deleteOne({ cat_id: catId });
    forgetCachedReads();
    await as(owner).ok('recycle/recover', { item_id: itemId, page_id: page.page_id });
    expect(await Page.findOne({ page_id: page.page_id }).lean()).toMatchObject({
      is_del: 0,
      cat_id: 0,
    });
  });
});

describe('purge', () => {
  test('a page is purged 30 days after its deletion, with its versions, lock and share link', async () => {
    const T = 1_900_000_000;
    const page = await makePage(owner, itemId, { title: 'Short-lived' });
    await updatePage(owner, page, 'v2');
    const actor = await actorOf(owner);
    await setPageLock(actor, { pageId: page.page_id, itemId }, { now: nowSeconds() });
    await toggleShareLink(actor, { pageId: page.page_id, enable: true, expireDays: 0 });
    await deletePage(actor, page.page_id, { now: T });

    // (Other tests' bins, deleted "now", are long overdue at this far-future clock: they go too.)
    await purgeRecycleBin(T + PURGE_AFTER_DAYS * DAY - 1);
    expect(await Page.countDocuments({ page_id: page.page_id })).toBe(1);
    expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(1);

    expect(await purgeRecycleBin(T + PURGE_AFTER_DAYS * DAY + 1)).toBeGreaterThanOrEqual(1);
    expect(await Page.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(await PageHistory.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('the clock starts at the deletion, not the last edit: a long-untouched page deleted today stays', async () => {
    const page = await makePage(owner, itemId, { title: 'Ancient' });
    await Page.updateOne(
      { page_id: page.page_id },
      { $set: { addtime: nowSeconds() - 400 * DAY } },
    );
    forgetCachedReads();
    await deletePage(await actorOf(owner), page.page_id);
    await purgeRecycleBin(nowSeconds() + DAY);
    expect(await Page.countDocuments({ page_id: page.page_id })).toBe(1);
    expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(1);
  });

  test('listing a bin purges what is due in that item; recovered pages are never purged', async () => {
    const own = await makeItem(owner);
    const old = await binned('Overdue', owner, { item: own.item_id, now: nowSeconds() - 31 * DAY });
    const recovered = await binned('Saved in time', owner, {
      item: own.item_id,
      now: nowSeconds() - 31 * DAY,
    });
    await as(owner).ok('recycle/recover', { item_id: own.item_id, page_id: recovered.page_id });
    const rows = await as(owner).ok<unknown[]>('recycle/getList', { item_id: own.item_id });
    expect(rows).toEqual([]);
    expect(await Page.countDocuments({ page_id: old.page_id })).toBe(0);
    expect(await Page.findOne({ page_id: recovered.page_id }).lean()).toMatchObject({ is_del: 0 });
    await purgeRecycleBin(nowSeconds() + 365 * DAY);
    expect(await Page.countDocuments({ page_id: recovered.page_id })).toBe(1);
  });
});
