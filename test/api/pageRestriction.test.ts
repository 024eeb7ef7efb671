/**
 * The catalog restriction on every page path. A member limited to catalog A may use pages inside
 * A (and its sub-catalogs) and nothing else: every page endpoint answers for a page outside A
 * exactly as for a page that does not exist, and writes nothing. (ShowDoc only hid menu entries.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { Page, type PageDoc } from '../../models/pages/schemas/page';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { Recycle } from '../../models/pages/schemas/recycle';
import { SinglePage } from '../../models/pages/schemas/singlePage';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, updatePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let owner: TestUser;
let limited: TestUser;
let itemId: number;
let catA: number;
let catA1: number;
let catB: number;
let inside: PageDoc;
let outside: PageDoc;
let atRoot: PageDoc;
let outsideVersion: number;
let insideVersion: number;

const MISSING_ID = 987_654_320;
const NOT_FOUND = { error_code: 10101, error_message: 'Page does not exist' };

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, limited] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: itemId } = await makeItem(owner));
  catA = await makeCatalog(owner, itemId, 'A');
  catA1 = await makeCatalog(owner, itemId, 'A1', catA);
  catB = await makeCatalog(owner, itemId, 'B');
  await addMember(itemId, limited, 1, [catA]);
  inside = await makePage(owner, itemId, { title: 'Inside', catId: catA1, customId: 'inside' });
  outside = await makePage(owner, itemId, { title: 'Outside', catId: catB, customId: 'outside' });
  atRoot = await makePage(owner, itemId, { title: 'Root' });
  for (const page of [inside, outside, atRoot])
    await updatePage(owner, page, `${page.page_title} v2`, page.page_title);
  // The limited member is the last editor of the outside page: authorship must not open it up.
  await Page.updateOne(
    { page_id: outside.page_id },
    { $set: { author_uid: limited.uid, author_username: limited.username } },
  );
  forgetCachedReads();
  outsideVersion = (await PageHistory.findOne({ page_id: outside.page_id }).lean())!
    .page_history_id;
  insideVersion = (await PageHistory.findOne({ page_id: inside.page_id }).lean())!.page_history_id;
});
afterAll(async () => {
  await server.stop();
});

const as = () => server.api.withToken(limited.user_token);

/** Every page path, parameterised by page (and its version id where one is needed). */
const PATHS: Array<
  [string, (pageId: number, versionId: number) => Record<string, string | number>]
> = [
  ['page/info', (page_id) => ({ page_id })],
  ['page/history', (page_id) => ({ page_id })],
  ['page/diff', (page_id, page_history_id) => ({ page_id, page_history_id })],
  [
    'page/updateHistoryComments',
    (page_id, page_history_id) => ({ page_id, page_history_id, page_comments: 'limited was here' }),
  ],
  ['page/isLock', (page_id) => ({ page_id })],
  ['page/setLock', (page_id) => ({ page_id, item_id: itemId })],
  ['page/createSinglePage', (page_id) => ({ page_id, isCreateSiglePage: 'true' })],
  ['page/getPageID', (page_id) => ({ page_id })],
  [
    'page/save',
    (page_id) => ({
      page_id,
      item_id: itemId,
      page_title: 'Overwritten',
      page_content: 'overwritten',
    }),
  ],
  ['page/delete', (page_id) => ({ page_id })],
];

describe('a member restricted to catalog A', () => {
  test.each(PATHS)(
    '%s: pages outside A (another catalog, the root) answer like a missing page',
    async (route, params) => {
      const missing = await as().fail(route, params(MISSING_ID, outsideVersion));
      expect(missing).toMatchObject(NOT_FOUND);
      for (const page of [outside, atRoot]) {
        const answer = await as().fail(route, params(page.page_id, outsideVersion));
        expect({
          route,
          page: page.page_title,
          answer: { error_code: answer.error_code, error_message: answer.error_message },
        }).toEqual({
          route,
          page: page.page_title,
          answer: NOT_FOUND,
        });
      }
    },
  );

  test('getPageID by article ID does not resolve pages outside A either', async () => {
    expect(
      await as().fail('page/getPageID', { item_id: itemId, page_custom_id: 'outside' }),
    ).toMatchObject(NOT_FOUND);
    await expect(
      as().ok('page/getPageID', { item_id: itemId, page_custom_id: 'inside' }),
    ).resolves.toMatchObject({ page_id: String(inside.page_id) });
  });

  test('nothing outside A was written by any of those calls', async () => {
    for (const page of [outside, atRoot]) {
      const row = (await Page.findOne({ page_id: page.page_id }).lean())!;
      expect(row).toMatchObject({
        is_del: 0,
        page_content: `${page.page_title} v2`,
        page_title: page.page_title,
      });
      expect(await PageHistory.countDocuments({ page_id: page.page_id })).toBe(1);
      expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
      expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
      expect(await Recycle.countDocuments({ page_id: page.page_id })).toBe(0);
    }
    expect(
      (await PageHistory.findOne({ page_history_id: outsideVersion }).lean())!.page_comments,
    ).toBe('');
  });

  test('it cannot create pages in B or at the root, nor move a page of A out of A', async () => {
    const before = await Page.countDocuments({ item_id: itemId });
    for (const cat_id of [catB, 0])
      expect(
        (
          await as().fail('page/save', {
            page_id: 0,
            item_id: itemId,
            cat_id,
            page_title: 'Sneaky',
            page_content: 'x',
          })
        ).error_code,
      ).toBe(10101);
    expect(
      (
        await as().fail('page/save', {
          page_id: inside.page_id,
          item_id: itemId,
          cat_id: catB,
          page_title: 'Moved',
          page_content: 'x',
        })
      ).error_code,
    ).toBe(10101);
    expect(await Page.countDocuments({ item_id: itemId })).toBe(before);
    expect((await Page.findOne({ page_id: inside.page_id }).lean())!.cat_id).toBe(catA1);
  });

  test('page/sort leaves pages outside A alone and orders the ones inside', async () => {
    await as().ok('page/sort', {
      item_id: itemId,
      pages: JSON.stringify({ [outside.page_id]: 3, [atRoot.page_id]: 4, [inside.page_id]: 5 }),
    });
    const orders = Object.fromEntries(
      (
        await Page.find({
          page_id: { $in: [outside.page_id, atRoot.page_id, inside.page_id] },
        }).lean()
      ).map((p) => [p.page_title, p.s_number]),
    );
    expect(orders).toEqual({ Outside: 99, Root: 99, Inside: 5 });
  });

  test('pages inside A (also in its sub-catalogs) work on every path', async () => {
    await expect(as().ok('page/info', { page_id: inside.page_id })).resolves.toMatchObject({
      page_title: 'Inside',
    });
    await expect(as().ok('page/history', { page_id: inside.page_id })).resolves.toHaveLength(1);
    await expect(
      as().ok('page/diff', { page_id: inside.page_id, page_history_id: insideVersion }),
    ).resolves.toHaveProperty('history_page');
    await expect(
      as().ok('page/updateHistoryComments', {
        page_id: inside.page_id,
        page_history_id: insideVersion,
        page_comments: 'ok',
      }),
    ).resolves.toEqual({ success: true });
    await expect(
      as().ok('page/setLock', { page_id: inside.page_id, item_id: itemId }),
    ).resolves.toHaveProperty('id');
    await expect(as().ok('page/isLock', { page_id: inside.page_id })).resolves.toMatchObject({
      lock: 1,
      is_cur_user: 1,
    });
    await as().ok('page/setLock', { page_id: inside.page_id, item_id: itemId, lock_to: 1000 });
    await expect(
      as().ok('page/createSinglePage', { page_id: inside.page_id, isCreateSiglePage: 'true' }),
    ).resolves.toHaveProperty('unique_key');
    await expect(
      as().ok('page/save', {
        page_id: inside.page_id,
        item_id: itemId,
        page_title: 'Inside',
        page_content: 'edited by limited',
      }),
    ).resolves.toMatchObject({
      author_uid: String(limited.uid),
    });
    const created = await as().ok<{ page_id: number }>('page/save', {
      page_id: 0,
      item_id: itemId,
      cat_id: catA,
      page_title: 'New in A',
      page_content: 'x',
    });
    // Now the last editor of both: an editor may delete the pages they last saved.
    await expect(as().ok('page/delete', { page_id: created.page_id })).resolves.toEqual([]);
  });
});

describe('an archived item', () => {
  test('is read-only on every page write path, for its owner too; reads still work', async () => {
    const archived = await makeItem(owner);
    const page = await makePage(owner, archived.item_id, { content: 'frozen' });
    await updatePage(owner, page, 'frozen', 'Frozen');
    const version = (await PageHistory.findOne({ page_id: page.page_id }).lean())!.page_history_id;
    await Item.updateOne({ item_id: archived.item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    const ownerApi = server.api.withToken(owner.user_token);
    const writes: Array<[string, Record<string, string | number>]> = [
      [
        'page/save',
        {
          page_id: page.page_id,
          item_id: archived.item_id,
          page_title: 'X',
          page_content: 'thawed',
        },
      ],
      ['page/setLock', { page_id: page.page_id, item_id: archived.item_id }],
      ['page/createSinglePage', { page_id: page.page_id, isCreateSiglePage: 'true' }],
      [
        'page/updateHistoryComments',
        { page_id: page.page_id, page_history_id: version, page_comments: 'x' },
      ],
      ['page/sort', { item_id: archived.item_id, pages: JSON.stringify({ [page.page_id]: 1 }) }],
      ['page/delete', { page_id: page.page_id }],
      ['recycle/getList', { item_id: archived.item_id }],
    ];
    for (const [route, params] of writes) {
      const answer = await ownerApi.fail(route, params);
      expect({ route, message: answer.error_message }).toEqual({
        route,
        message: 'This item is archived and read-only',
      });
    }
    expect(await Page.findOne({ page_id: page.page_id }).lean()).toMatchObject({
      page_content: 'frozen',
      s_number: 99,
      is_del: 0,
    });
    expect(await PageLock.countDocuments({ page_id: page.page_id })).toBe(0);
    expect(await SinglePage.countDocuments({ page_id: page.page_id })).toBe(0);
    expect((await PageHistory.findOne({ page_history_id: version }).lean())!.page_comments).toBe(
      '',
    );
    await expect(ownerApi.ok('page/info', { page_id: page.page_id })).resolves.toMatchObject({
      page_title: 'Frozen',
    });
    await expect(ownerApi.ok('page/history', { page_id: page.page_id })).resolves.toHaveLength(1);
  });
});
