/**
 * The menu inside item/info: shape and order, drafts, the catalog restriction, keyword mode, the
 * default catalogs to expand — and the per-item cache: that it is used, that page saves and
 * catalog changes invalidate it at once, and that one viewer's filtered view never leaks into
 * another's.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { invalidateMenu, isMenuCached } from '../../models/catalogs/menu';
import { Page } from '../../models/pages/schemas/page';
import type { ShowdocClient } from '../helpers/client';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, updatePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUsers, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

interface MenuPage {
  page_id: string;
  page_title: string;
  cat_id: string;
  is_draft: string;
  [k: string]: unknown;
}
interface MenuCatalog {
  cat_id: string;
  cat_name: string;
  level: string;
  pages: MenuPage[];
  catalogs: MenuCatalog[];
  [k: string]: unknown;
}
interface Info {
  menu: { pages: MenuPage[]; catalogs: MenuCatalog[] };
  default_cat_id2: number;
  default_cat_id3: number;
  default_cat_id4: number;
}

const suite = serverSuite();
const { as } = suite;
let owner: TestUser, editor: TestUser, reader: TestUser, restricted: TestUser;
let itemId: number;
let A: number, A1: number, A1a: number, B: number, C: number;
let deepPage: number;

beforeAll(async () => {
  [owner, editor, reader, restricted] = await makeUsers(4);
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Menu item' }));
  // Order is s_number, then cat_id: B (1) first, then A and C (both 99, A older).
  A = await makeCatalog(owner, itemId, 'A');
  A1 = await makeCatalog(owner, itemId, 'A1', A);
  A1a = await makeCatalog(owner, itemId, 'A1a', A1);
  C = await makeCatalog(owner, itemId, 'C');
  B = await as(owner).ok<number>('catalog/save', { item_id: itemId, cat_name: 'B', s_number: 1 });
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
  await addMember(itemId, restricted, 0, [A]);
  await makePage(owner, itemId, { title: 'Root late' });
  const early = await makePage(owner, itemId, { title: 'Root early' });
  await Page.updateOne({ page_id: early.page_id }, { $set: { s_number: 1 } });
  forgetCachedReads();
  deepPage = (
    await makePage(owner, itemId, {
      title: 'Deep',
      catId: A1a,
      content: 'Deep content with <b>tags</b> & a needle',
    })
  ).page_id;
  await makePage(owner, itemId, { title: 'In B', catId: B, content: 'needle in B' });
  await makePage(editor, itemId, {
    title: 'Editor draft',
    catId: A,
    isDraft: 1,
    content: 'draft needle',
  });
  invalidateMenu(itemId);
});

const info = (client: ShowdocClient, params: Record<string, string | number> = {}) =>
  client.ok<Info>('item/info', { item_id: itemId, ...params });
const titles = (pages: MenuPage[]) => pages.map((p) => p.page_title);

describe('menu shape and order', () => {
  test('root pages and catalogs in s_number/id order, nested three levels, titles only', async () => {
    const { menu } = await info(as(owner));
    expect(titles(menu.pages)).toEqual(['Root early', 'Root late']);
    expect(Object.keys(menu.pages[0]).sort()).toEqual([
      'addtime',
      'author_uid',
      'cat_id',
      'ext_info',
      'is_draft',
      'page_id',
      'page_title',
    ]);
    expect(menu.pages[0]).toMatchObject({
      cat_id: '0',
      is_draft: '0',
      author_uid: String(owner.uid),
      addtime: expect.stringMatching(/^\d+$/),
    });
    expect(menu.pages[0]).not.toHaveProperty('page_content');

    expect(menu.catalogs.map((c) => c.cat_name)).toEqual(['B', 'A', 'C']);
    const a = menu.catalogs[1];
    expect(a).toMatchObject({
      cat_id: String(A),
      item_id: String(itemId),
      s_number: '99',
      parent_cat_id: '0',
      level: '2',
      pages: [],
    });
    expect(a.addtime).toMatch(/^\d+$/);
    expect(a.catalogs[0]).toMatchObject({ cat_name: 'A1', level: '3', parent_cat_id: String(A) });
    expect(a.catalogs[0].catalogs[0]).toMatchObject({ cat_name: 'A1a', level: '4', catalogs: [] });
    expect(titles(a.catalogs[0].catalogs[0].pages)).toEqual(['Deep']);
    expect(titles(menu.catalogs[0].pages)).toEqual(['In B']);
    expect(menu.catalogs[2]).toMatchObject({ cat_name: 'C', pages: [], catalogs: [] });
  });

  test("a draft appears only in its author's menu", async () => {
    const forAuthor = await info(as(editor));
    expect(titles(forAuthor.menu.catalogs[1].pages)).toEqual(['Editor draft']);
    expect(forAuthor.menu.catalogs[1].pages[0].is_draft).toBe('1');
    for (const viewer of [as(owner), as(reader), suite.server.api])
      expect((await info(viewer)).menu.catalogs[1].pages).toEqual([]);
  });

  test('a catalog-restricted member gets only their catalogs (with everything below) and no root pages', async () => {
    const { menu } = await info(as(restricted));
    expect(menu.pages).toEqual([]);
    expect(menu.catalogs.map((c) => c.cat_name)).toEqual(['A']);
    expect(titles(menu.catalogs[0].catalogs[0].catalogs[0].pages)).toEqual(['Deep']);
  });

  test("default_cat_id2/3/4 slot default_page_id's catalogs as ShowDoc does (zeros when hidden or absent)", async () => {
    expect(await info(as(owner), { default_page_id: deepPage })).toMatchObject({
      default_cat_id2: A,
      default_cat_id3: A1,
      default_cat_id4: A1a,
    });
    // ShowDoc 3.9 shifts a two-level chain to slots 2 and 4, leaving 3 empty.
    const inA1 = (await makePage(owner, itemId, { title: 'In A1', catId: A1 })).page_id;
    expect(await info(as(owner), { default_page_id: inA1 })).toMatchObject({
      default_cat_id2: A,
      default_cat_id3: 0,
      default_cat_id4: A1,
    });
    await as(owner).ok('page/delete', { page_id: inA1 });
    expect(await info(as(owner))).toMatchObject({
      default_cat_id2: 0,
      default_cat_id3: 0,
      default_cat_id4: 0,
    });
    const inB = await Page.findOne({ item_id: itemId, page_title: 'In B' }).lean();
    // A top-level catalog goes in slot 3, as ShowDoc answers.
    expect(await info(as(owner), { default_page_id: inB!.page_id })).toMatchObject({
      default_cat_id2: 0,
      default_cat_id3: B,
      default_cat_id4: 0,
    });
    expect(await info(as(restricted), { default_page_id: inB!.page_id })).toMatchObject({
      default_cat_id2: 0,
      default_cat_id3: 0,
    });
  });
});

describe('menu cache', () => {
  test('the menu is served from the cache: a write that bypasses the models is not seen until an event invalidates', async () => {
    await info(as(owner));
    expect(isMenuCached(itemId)).toBe(true);
    await Page.updateOne(
      { item_id: itemId, page_title: 'Root late' },
      { $set: { page_title: 'Changed behind the back' } },
    );
    expect(titles((await info(as(owner))).menu.pages)).toEqual(['Root early', 'Root late']);
    invalidateMenu(itemId);
    expect(titles((await info(as(owner))).menu.pages)).toEqual([
      'Root early',
      'Changed behind the back',
    ]);
  });

  test("a page save (create or update) invalidates the item's menu at once", async () => {
    await info(as(owner));
    expect(isMenuCached(itemId)).toBe(true);
    const page = await makePage(owner, itemId, { title: 'Brand new' });
    expect(titles((await info(as(owner))).menu.pages)).toContain('Brand new');
    await updatePage(owner, page, 'new body', 'Renamed page');
    const after = titles((await info(as(owner))).menu.pages);
    expect(after).toContain('Renamed page');
    expect(after).not.toContain('Brand new');
  });

  test('a page delete and a catalog change invalidate it too', async () => {
    const page = await makePage(owner, itemId, { title: 'Short-lived' });
    expect(titles((await info(as(owner))).menu.pages)).toContain('Short-lived');
    await as(owner).ok('page/delete', { page_id: page.page_id });
    expect(titles((await info(as(owner))).menu.pages)).not.toContain('Short-lived');

    await as(owner).ok('catalog/save', {
      item_id: itemId,
      cat_id: C,
      cat_name: 'C renamed',
      parent_cat_id: 0,
    });
    expect((await info(as(owner))).menu.catalogs.map((c) => c.cat_name)).toEqual([
      'B',
      'A',
      'C renamed',
    ]);
    await as(owner).ok('catalog/batUpdate', {
      item_id: itemId,
      cats: JSON.stringify([
        { cat_id: C, cat_name: 'C renamed', page_id: 0, parent_cat_id: 0, level: 2, s_number: 1 },
        { cat_id: B, cat_name: 'B', page_id: 0, parent_cat_id: 0, level: 2, s_number: 2 },
      ]),
    });
    expect((await info(as(owner))).menu.catalogs.map((c) => c.cat_name)).toEqual([
      'C renamed',
      'B',
      'A',
    ]);
  });

  test('the cache holds the unfiltered tree: viewers in any order get only their own view', async () => {
    invalidateMenu(itemId);
    const restrictedFirst = await info(as(restricted));
    const ownerAfter = await info(as(owner));
    const editorAfter = await info(as(editor));
    const restrictedAgain = await info(as(restricted));
    expect(restrictedFirst.menu.catalogs.map((c) => c.cat_name)).toEqual(['A']);
    expect(ownerAfter.menu.catalogs).toHaveLength(3);
    expect(ownerAfter.menu.pages.length).toBeGreaterThan(0);
    expect(JSON.stringify(ownerAfter)).not.toContain('Editor draft');
    expect(JSON.stringify(editorAfter)).toContain('Editor draft');
    expect(restrictedAgain.menu).toEqual(restrictedFirst.menu);
  });
});

describe('keyword mode', () => {
  test('matching pages come back in full with escaped content, and no catalogs', async () => {
    const { menu } = await info(as(owner), { keyword: 'NEEDLE' });
    expect(menu.catalogs).toEqual([]);
    expect(titles(menu.pages).sort()).toEqual(['Deep', 'In B']);
    const deep = menu.pages.find((p) => p.page_title === 'Deep')!;
    expect(deep.page_content).toBe('Deep content with &lt;b&gt;tags&lt;/b&gt; &amp; a needle');
    expect(deep).toMatchObject({
      item_id: String(itemId),
      cat_id: String(A1a),
      author_username: owner.username,
    });
  });

  test('keyword mode respects drafts and the catalog restriction (sub-catalogs included)', async () => {
    expect(titles((await info(as(editor), { keyword: 'needle' })).menu.pages).sort()).toEqual([
      'Deep',
      'Editor draft',
      'In B',
    ]);
    expect(titles((await info(as(restricted), { keyword: 'needle' })).menu.pages)).toEqual([
      'Deep',
    ]);
  });

  test('no match answers 999 "No search results"; regex characters are matched literally', async () => {
    const none = await as(owner).fail('item/info', {
      item_id: itemId,
      keyword: 'nothing-like-this',
    });
    expect(none).toMatchObject({ error_code: 999, error_message: 'No search results' });
    expect((await as(owner).fail('item/info', { item_id: itemId, keyword: '.*' })).error_code).toBe(
      999,
    );
    expect(
      (await as(restricted).fail('item/info', { item_id: itemId, keyword: 'In B' })).error_code,
    ).toBe(999);
  });
});
