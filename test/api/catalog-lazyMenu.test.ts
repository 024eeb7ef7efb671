/**
 * The reader's lazy menu on a big item (models/catalogs/menuLevels.ts): item/info with
 * `lazy_menu=1` answers the top level and the way to the opened page, `catalog/menuChildren`
 * answers exactly the asked level, both under the same access rules as the whole menu (catalog
 * restrictions, drafts, visit rights); ShowDoc's item/info still gets the whole menu; a text-only
 * save in the big item keeps its menu cached and patches the one page.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { isMenuCached } from '../../models/catalogs/menu';
import { LAZY_MENU_MIN_ROWS } from '../../models/catalogs';
import { seedHugeItem, type HugeItem } from '../../scripts/bench/hugeItem';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUsers, type TestUser } from '../helpers/users';

interface MenuPage {
  page_id: string;
  page_title: string;
  cat_id: string;
  addtime: string;
}
interface MenuCatalog {
  cat_id: string;
  parent_cat_id: string;
  pages: MenuPage[];
  catalogs: MenuCatalog[];
  lazy?: 1;
}
interface Menu {
  pages: MenuPage[];
  catalogs: MenuCatalog[];
}

const suite = serverSuite();
const { as } = suite;
let owner: TestUser, restricted: TestUser, stranger: TestUser;
let itemId: number;
let huge: HugeItem;
let top: number[], middle: number[], bottom: number[];
/** The parent of each catalog of the seed. */
const parentOf = new Map<number, number>();

const ids = (list: { page_id?: string; cat_id?: string }[], key: 'page_id' | 'cat_id') =>
  list.map((row) => Number(row[key]));
const pagesIn = (catId: number) => huge.pagesByCat.get(catId) ?? [];
const childrenOf = (catId: number) =>
  [...parentOf].filter(([, parent]) => parent === catId).map(([cat]) => cat);

async function lazyInfo(user: TestUser, params: Record<string, number | string> = {}) {
  return as(user).ok<{ menu: Menu }>('item/info', { item_id: itemId, lazy_menu: 1, ...params });
}

beforeAll(async () => {
  [owner, restricted, stranger] = await makeUsers(3);
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Huge handbook' }));
  huge = await seedHugeItem(await actorOf(owner), itemId, {
    pages: LAZY_MENU_MIN_ROWS + 100,
    catalogLevels: [4, 12, 24],
    shortPages: true,
  });
  [top, middle, bottom] = huge.levels;
  // The seed spreads each level evenly over the one above, in order.
  middle.forEach((cat, j) => parentOf.set(cat, top[Math.floor((j * top.length) / middle.length)]));
  bottom.forEach((cat, j) =>
    parentOf.set(cat, middle[Math.floor((j * middle.length) / bottom.length)]),
  );
  top.forEach((cat) => parentOf.set(cat, 0));
  await addMember(itemId, restricted, 0, [top[1]]);
});

describe('item/info', () => {
  test("ShowDoc's item/info (no lazy_menu) still answers the whole menu", async () => {
    const { menu } = await as(owner).ok<{ menu: Menu }>('item/info', { item_id: itemId });
    let pages = menu.pages.length;
    const walk = (cats: MenuCatalog[]) =>
      cats.forEach((cat) => {
        expect(cat.lazy).toBeUndefined();
        pages += cat.pages.length;
        walk(cat.catalogs);
      });
    walk(menu.catalogs);
    expect(pages).toBe(huge.pageIds.length);
  });

  test('lazy_menu answers the top level only: root pages and top-level catalogs marked lazy, their content left out', async () => {
    const { menu } = await lazyInfo(owner);
    expect(ids(menu.pages, 'page_id')).toEqual(pagesIn(0));
    expect(ids(menu.catalogs, 'cat_id')).toEqual(top);
    for (const cat of menu.catalogs)
      expect(cat).toMatchObject({ lazy: 1, pages: [], catalogs: [] });
  });

  test('with a page to open, the catalogs on its way are filled in and every other stays lazy', async () => {
    const deepCat = bottom[5];
    const pageId = pagesIn(deepCat)[0];
    const { menu } = await lazyInfo(owner, { default_page_id: pageId });
    const midCat = parentOf.get(deepCat)!;
    const topCat = parentOf.get(midCat)!;
    const openTop = menu.catalogs.find((c) => Number(c.cat_id) === topCat)!;
    expect(openTop.lazy).toBeUndefined();
    expect(ids(openTop.pages, 'page_id')).toEqual(pagesIn(topCat));
    const openMid = openTop.catalogs.find((c) => Number(c.cat_id) === midCat)!;
    expect(openMid.lazy).toBeUndefined();
    const openDeep = openMid.catalogs.find((c) => Number(c.cat_id) === deepCat)!;
    expect(ids(openDeep.pages, 'page_id')).toContain(pageId);
    for (const sibling of openMid.catalogs.filter((c) => Number(c.cat_id) !== deepCat))
      expect(sibling).toMatchObject({ lazy: 1, pages: [] });
    for (const other of menu.catalogs.filter((c) => Number(c.cat_id) !== topCat))
      expect(other).toMatchObject({ lazy: 1, pages: [], catalogs: [] });
  });

  test('a small item gets its whole menu even when the reader asks for the lazy one', async () => {
    const { item_id: small } = await makeItem(owner);
    const page = await makePage(owner, small, { title: 'Only page' });
    const { menu } = await as(owner).ok<{ menu: Menu }>('item/info', {
      item_id: small,
      lazy_menu: 1,
    });
    expect(ids(menu.pages, 'page_id')).toEqual([page.page_id]);
  });
});

describe('catalog/menuChildren', () => {
  test("answers exactly the asked catalog's pages and sub-catalogs, the sub-catalogs lazy", async () => {
    const catId = top[2];
    const level = await as(owner).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: catId,
    });
    expect(ids(level.pages, 'page_id')).toEqual(pagesIn(catId));
    expect(ids(level.catalogs, 'cat_id')).toEqual(childrenOf(catId));
    for (const sub of level.catalogs)
      expect(sub).toMatchObject({ lazy: 1, pages: [], catalogs: [] });

    const deeper = await as(owner).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: level.catalogs[0].cat_id,
    });
    expect(ids(deeper.catalogs, 'cat_id')).toEqual(childrenOf(Number(level.catalogs[0].cat_id)));
    expect(ids(deeper.pages, 'page_id')).toEqual(pagesIn(Number(level.catalogs[0].cat_id)));
  });

  test('cat_id 0 is the top level, as lazy item/info gives it', async () => {
    const level = await as(owner).ok<Menu>('catalog/menuChildren', { item_id: itemId, cat_id: 0 });
    expect(ids(level.catalogs, 'cat_id')).toEqual(top);
    expect(ids(level.pages, 'page_id')).toEqual(pagesIn(0));
  });

  test('a member restricted to one top-level catalog gets only it, inside it everything, outside it nothing', async () => {
    const mine = top[1];
    const { menu } = await lazyInfo(restricted);
    expect(ids(menu.catalogs, 'cat_id')).toEqual([mine]);
    expect(menu.pages).toEqual([]);
    // No root page for them and none asked for: the way to their first page is open.
    expect(menu.catalogs[0].lazy).toBeUndefined();
    expect(ids(menu.catalogs[0].pages, 'page_id')).toEqual(pagesIn(mine));

    const root = await as(restricted).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: 0,
    });
    expect(ids(root.catalogs, 'cat_id')).toEqual([mine]);
    expect(root.pages).toEqual([]);

    const inside = childrenOf(mine)[0];
    const level = await as(restricted).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: inside,
    });
    expect(ids(level.pages, 'page_id')).toEqual(pagesIn(inside));

    for (const outside of [top[0], childrenOf(top[0])[0], childrenOf(childrenOf(top[3])[0])[0]]) {
      const refused = await as(restricted).call('catalog/menuChildren', {
        item_id: itemId,
        cat_id: outside,
      });
      expect(refused.body).toEqual({ error_code: 10101, error_message: 'Catalog does not exist' });
    }
    // The way to a page outside the restriction is not opened either.
    const outsidePage = pagesIn(childrenOf(top[0])[0])[0];
    const focused = await lazyInfo(restricted, { default_page_id: outsidePage });
    expect(ids(focused.menu.catalogs, 'cat_id')).toEqual([mine]);
    expect(focused.menu.catalogs[0]).toMatchObject({ lazy: 1, pages: [] });
  });

  test('a stranger of a private item is refused; an unknown catalog answers like a hidden one', async () => {
    const { item_id: secret } = await makeItem(owner, { password: 'secret-pw-1' });
    const refused = await as(stranger).call('catalog/menuChildren', { item_id: secret, cat_id: 0 });
    expect(refused.body.error_code).toBe(10303);
    expect(refused.body.data).toBeUndefined();
    const unknown = await as(owner).call('catalog/menuChildren', {
      item_id: itemId,
      cat_id: 987654,
    });
    expect(unknown.body).toEqual({ error_code: 10101, error_message: 'Catalog does not exist' });
  });
});

describe('a save in the big item', () => {
  test('keeps the menu cached and shows the saved page as it now is', async () => {
    const catId = top[0];
    const pageId = pagesIn(catId)[0];
    const before = await as(owner).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: catId,
    });
    const row = before.pages.find((p) => Number(p.page_id) === pageId)!;
    expect(isMenuCached(itemId)).toBe(true);

    await new Promise((resolve) => setTimeout(resolve, 1100)); // a later addtime (seconds)
    await as(owner).ok('page/save', {
      page_id: pageId,
      item_id: itemId,
      cat_id: catId,
      page_title: row.page_title,
      page_content: 'New text, same place and title',
    });
    expect(isMenuCached(itemId)).toBe(true);
    const after = await as(owner).ok<Menu>('catalog/menuChildren', {
      item_id: itemId,
      cat_id: catId,
    });
    const saved = after.pages.find((p) => Number(p.page_id) === pageId)!;
    expect(Number(saved.addtime)).toBeGreaterThan(Number(row.addtime));
    expect(ids(after.pages, 'page_id')).toEqual(ids(before.pages, 'page_id'));
  });
});

describe('an item of tens of thousands of pages', () => {
  test('keeps its menu too: a reader does not wait for it to be rebuilt from every page row', async () => {
    const { item_id } = await makeItem(owner, { item_name: 'Very big handbook' });
    await seedHugeItem(await actorOf(owner), item_id, {
      pages: 30_000,
      catalogLevels: [10, 40],
      shortPages: true,
    });
    await as(owner).ok('item/info', { item_id, lazy_menu: 1 });
    expect(isMenuCached(item_id)).toBe(true);
  });
});
