/**
 * item/search through the inverted index, over real HTTP: what the index must not lose compared
 * with a literal scan (keywords inside words, across words, CJK pairs and single characters,
 * case), ranking, and that it stays exact — an edit, a delete and a restore are seen by the very
 * next search, and a restricted member never finds pages outside their catalogs, even when the
 * item's index was built by someone who sees everything.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { seedHugeItem } from '../../scripts/bench/hugeItem';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, makePages } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

interface Result {
  item_id: number;
  pages: { page_id: string; page_title: string; search_content: string }[];
}

const suite = serverSuite();
const { as } = suite;
let owner: TestUser, restricted: TestUser;
let itemId: number;
let open: number, closed: number;

beforeAll(async () => {
  [owner, restricted] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Indexed docs' }));
  open = await makeCatalog(owner, itemId, 'Open');
  closed = await makeCatalog(owner, itemId, 'Closed');
  await addMember(itemId, restricted, 0, [open]);
  await makePages(owner, itemId, [
    {
      title: 'Endpoint list',
      content: 'GET /users/{id} returns one user. The endpoint is rate-limited.',
      catId: open,
    },
    {
      title: 'Changelog',
      content: 'endpoint endpoint endpoint: three mentions, none in the title',
      catId: open,
    },
    { title: 'Overview', content: 'Mentions the ENDPOINT once.', catId: closed },
    { title: '接口文档', content: '这是用户接口的文档。API文档在这里。', catId: open },
    { title: 'データ', content: '東京のデータベース設計書', catId: closed },
  ]);
});

const search = (user: TestUser, keyword: string) =>
  as(user).ok<Result>('item/search', { item_id: itemId, keyword });
const titles = (r: Result) => r.pages.map((p) => p.page_title);

describe('what the index finds', () => {
  test('ranked by relevance: title hits first, then the number of hits', async () => {
    expect(titles(await search(owner, 'endpoint'))).toEqual([
      'Endpoint list',
      'Changelog',
      'Overview',
    ]);
  });

  test('a keyword inside a word, across words, in another case, with punctuation', async () => {
    expect(titles(await search(owner, 'ndpoi'))).toEqual([
      'Endpoint list',
      'Changelog',
      'Overview',
    ]);
    expect(titles(await search(owner, 'THE ENDPOINT IS'))).toEqual(['Endpoint list']);
    expect(titles(await search(owner, '/users/{id}'))).toEqual(['Endpoint list']);
    expect(titles(await search(owner, 'rate-lim'))).toEqual(['Endpoint list']);
    expect(titles(await search(owner, 'endpoints'))).toEqual([]);
  });

  test('Chinese and Japanese: pairs, single characters, mixed with Latin; the order of characters matters', async () => {
    expect(titles(await search(owner, '接口'))).toEqual(['接口文档']);
    expect(titles(await search(owner, '用户接口的文档'))).toEqual(['接口文档']);
    expect(titles(await search(owner, '档'))).toEqual(['接口文档']);
    expect(titles(await search(owner, 'API文档'))).toEqual(['接口文档']);
    expect(titles(await search(owner, '口接'))).toEqual([]);
    expect(titles(await search(owner, 'データベース'))).toEqual(['データ']);
    expect(titles(await search(owner, '京の'))).toEqual(['データ']);
  });
});

describe('staying exact', () => {
  test('an edit is found by the next search, and the old text no longer is', async () => {
    const page = await makePage(owner, itemId, { title: 'Mutable', content: 'alpha release' });
    expect(titles(await search(owner, 'alpha'))).toEqual(['Mutable']);
    await as(owner).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Mutable',
      page_content: 'omega release',
    });
    expect(titles(await search(owner, 'omega'))).toEqual(['Mutable']);
    expect(titles(await search(owner, 'alpha'))).toEqual([]);
  });

  test('a deleted page disappears at once; restored from the bin it is found again', async () => {
    const page = await makePage(owner, itemId, { title: 'Temporary', content: 'zebracorn' });
    expect(titles(await search(owner, 'zebracorn'))).toEqual(['Temporary']);
    await as(owner).ok('page/delete', { page_id: page.page_id });
    expect(titles(await search(owner, 'zebracorn'))).toEqual([]);
    await as(owner).ok('recycle/recover', { item_id: itemId, page_id: page.page_id });
    expect(titles(await search(owner, 'zebracorn'))).toEqual(['Temporary']);
  });

  test('a new page is found by the next search', async () => {
    expect(titles(await search(owner, 'quokka'))).toEqual([]);
    await as(owner).ok('page/save', {
      page_id: 0,
      item_id: itemId,
      page_title: 'Fauna',
      page_content: 'the quokka smiles',
    });
    expect(titles(await search(owner, 'quokka'))).toEqual(['Fauna']);
  });

  test('a restricted member never finds pages outside their catalogs, whoever built the index', async () => {
    expect(titles(await search(owner, 'endpoint'))).toContain('Overview');
    expect(titles(await search(restricted, 'endpoint'))).toEqual(['Endpoint list', 'Changelog']);
    expect(titles(await search(restricted, 'データ'))).toEqual([]);
    // a page moved into the closed catalog leaves their results
    const moved = await makePage(owner, itemId, {
      title: 'Mover',
      content: 'wanderer',
      catId: open,
    });
    expect(titles(await search(restricted, 'wanderer'))).toEqual(['Mover']);
    await as(owner).ok('page/save', {
      page_id: moved.page_id,
      item_id: itemId,
      cat_id: closed,
      page_title: 'Mover',
      page_content: 'wanderer',
    });
    expect(titles(await search(restricted, 'wanderer'))).toEqual([]);
    expect(titles(await search(owner, 'wanderer'))).toEqual(['Mover']);
  });
});

describe("building a big item's index", () => {
  test('gives the process back between pages: other work never waits for the whole build', async () => {
    const { item_id } = await makeItem(owner, { item_name: 'Big indexed handbook' });
    // Full ~3 KB pages: indexing costs about a millisecond each, so the build takes a while.
    await seedHugeItem(await actorOf(owner), item_id, { pages: 1500, catalogLevels: [5, 10] });
    // Gaps between turns of the event loop while the first search (which builds) runs.
    let last = performance.now();
    let longest = 0;
    let ticking = true;
    const tick = () => {
      const now = performance.now();
      longest = Math.max(longest, now - last);
      last = now;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const started = performance.now();
    await as(owner).ok('item/search', { item_id, keyword: 'zzzz-not-there-zzzz' });
    const took = performance.now() - started;
    ticking = false;
    // Built in one go, the longest gap was the build itself (nearly all of the search's time).
    expect({ took, longestTurn: longest, fair: longest < took / 4 }).toMatchObject({ fair: true });
  });
});
