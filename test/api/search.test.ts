/**
 * item/search over real HTTP: keyword validation, literal matching (regex characters), Chinese /
 * Japanese / Korean text, ranking, snippets, and access — items the user cannot read, catalogs
 * outside a member's restriction and other people's drafts never appear.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, makePages } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUsers, type TestUser } from '../helpers/users';

interface Hit {
  page_id: string;
  page_title: string;
  item_id: number;
  item_name: string;
  cat_id: string;
  search_content: string;
  [k: string]: unknown;
}
interface Result {
  item_id: number;
  item_name: string;
  pages: Hit[];
}

const suite = serverSuite();
const { as } = suite;
let owner: TestUser, reader: TestUser, restricted: TestUser, stranger: TestUser;
let mainItem: number, secondItem: number, foreignItem: number;

beforeAll(async () => {
  [owner, reader, restricted, stranger] = await makeUsers(4);
  ({ item_id: mainItem } = await makeItem(owner, { item_name: 'Main docs' }));
  ({ item_id: secondItem } = await makeItem(owner, { item_name: 'Second docs' }));
  ({ item_id: foreignItem } = await makeItem(stranger, {
    item_name: 'Foreign docs',
    password: 'keep-out',
  }));
  const open = await makeCatalog(owner, mainItem, 'Open');
  const sub = await makeCatalog(owner, mainItem, 'Open sub', open);
  const closed = await makeCatalog(owner, mainItem, 'Closed');
  await addMember(mainItem, reader, 0);
  await addMember(mainItem, restricted, 0, [open]);

  await makePages(owner, mainItem, [
    { title: 'Install guide', content: 'How to install.', catId: open },
    { title: 'Notes', content: 'guide one, guide two, Guide three', catId: open },
    { title: 'Misc', content: 'a single guide mention', catId: sub },
    { title: 'Secret guide', content: 'closed catalog', catId: closed },
    { title: 'Root guide', content: 'at the root' },
    { title: 'Draft guide', content: 'unfinished', catId: open, isDraft: 1 },
    { title: '数据库设计', content: '这是一个关于数据库的文档。数据库很重要。', catId: open },
    { title: 'データベース', content: '日本語のデータベース設計', catId: open },
    { title: '한국어', content: '데이터베이스 설계 문서', catId: open },
    {
      title: 'Patterns',
      content: 'use a.*b as a glob and call f(x) with [brackets] and $1',
      catId: open,
    },
    { title: 'Long', content: `${'x'.repeat(500)}MARKER${'y'.repeat(500)}`, catId: open },
  ]);
  await makePage(owner, secondItem, { title: 'Second guide', content: 'in the second item' });
  await makePage(stranger, foreignItem, { title: 'Foreign guide', content: 'guide guide guide' });
});

const search = (user: TestUser, params: Record<string, string | number>) =>
  as(user).ok<Result>('item/search', params);
const titles = (r: Result) => r.pages.map((p) => p.page_title);

describe('item/search: permissions and input', () => {
  test('anonymous → 10102', async () => {
    expect(
      (await suite.server.api.fail('item/search', { keyword: 'guide', item_id: mainItem }))
        .error_code,
    ).toBe(10102);
  });

  test('bad keywords → 10101: empty, one Latin letter, too long, an operator object', async () => {
    expect(
      (await as(owner).fail('item/search', { keyword: '  ', item_id: mainItem })).error_code,
    ).toBe(10101);
    const one = await as(owner).fail('item/search', { keyword: 'g', item_id: mainItem });
    expect(one.error_code).toBe(10101);
    expect(one.error_message).toMatch(/two characters.*Chinese, Japanese or Korean/);
    expect(
      (await as(owner).fail('item/search', { keyword: '(', item_id: mainItem })).error_code,
    ).toBe(10101);
    expect(
      (await as(owner).fail('item/search', { keyword: 'k'.repeat(101), item_id: mainItem }))
        .error_code,
    ).toBe(10101);
    expect(
      (
        await as(owner).fail(
          'item/search',
          { keyword: { $regex: '.*' }, item_id: mainItem } as never,
          { json: true },
        )
      ).error_code,
    ).toBe(10101);
  });

  test('an unknown item → 10101; an item the user may not visit → 10303', async () => {
    expect(
      (await as(owner).fail('item/search', { keyword: 'guide', item_id: 987_654 })).error_code,
    ).toBe(10101);
    expect(
      (await as(owner).fail('item/search', { keyword: 'guide', item_id: foreignItem })).error_code,
    ).toBe(10303);
  });
});

describe('item/search: results', () => {
  test('one item: the answer shape, page rows without content, a snippet, item_id as a number', async () => {
    const result = await search(owner, { keyword: 'install', item_id: mainItem });
    expect(result).toMatchObject({ item_id: mainItem, item_name: 'Main docs' });
    expect(result.pages).toHaveLength(1);
    const [hit] = result.pages;
    expect(hit).toMatchObject({
      page_title: 'Install guide',
      item_id: mainItem,
      item_name: 'Main docs',
      search_content: '...How to install....',
    });
    expect(hit).not.toHaveProperty('page_content');
    expect(typeof hit.page_id).toBe('string');
  });

  test('case-insensitive; title hits rank first, then the number of hits', async () => {
    const result = await search(owner, { keyword: 'GUIDE', item_id: mainItem });
    const order = titles(result);
    // Title hits (Install, Secret, Root, Draft — the owner's own draft) before content-only ones.
    expect(order.slice(0, 4).sort()).toEqual([
      'Draft guide',
      'Install guide',
      'Root guide',
      'Secret guide',
    ]);
    expect(order.slice(4)).toEqual(['Notes', 'Misc']);
  });

  test('Chinese, Japanese and Korean keywords, including a single CJK character', async () => {
    expect(titles(await search(owner, { keyword: '数据库', item_id: mainItem }))).toEqual([
      '数据库设计',
    ]);
    expect(titles(await search(owner, { keyword: '库', item_id: mainItem }))).toEqual([
      '数据库设计',
    ]);
    expect(titles(await search(owner, { keyword: 'データ', item_id: mainItem }))).toEqual([
      'データベース',
    ]);
    expect(titles(await search(owner, { keyword: '데이터', item_id: mainItem }))).toEqual([
      '한국어',
    ]);
    const zh = (await search(owner, { keyword: '重要', item_id: mainItem })).pages[0];
    expect(zh.search_content).toBe('...这是一个关于数据库的文档。数据库很重要。...');
  });

  test('regex characters are searched literally', async () => {
    expect(titles(await search(owner, { keyword: '.*', item_id: mainItem }))).toEqual(['Patterns']);
    expect(titles(await search(owner, { keyword: 'f(x', item_id: mainItem }))).toEqual([
      'Patterns',
    ]);
    expect(titles(await search(owner, { keyword: '[brackets]', item_id: mainItem }))).toEqual([
      'Patterns',
    ]);
    expect(titles(await search(owner, { keyword: '$1', item_id: mainItem }))).toEqual(['Patterns']);
    // Unbalanced brackets would be a syntax error in an unescaped pattern.
    expect((await search(owner, { keyword: '((', item_id: secondItem })).pages).toEqual([]);
    expect(
      (await search(owner, { keyword: '(x', item_id: mainItem })).pages.map((p) => p.page_title),
    ).toEqual(['Patterns']);
    expect((await search(owner, { keyword: 'a.b', item_id: mainItem })).pages).toEqual([]);
  });

  test('the snippet starts up to 100 characters before the first hit and runs 200 past it', async () => {
    const [hit] = (await search(owner, { keyword: 'marker', item_id: mainItem })).pages;
    expect(hit.search_content).toBe(`...${'x'.repeat(100)}MARKER${'y'.repeat(200)}...`);
  });

  test('without item_id every item the user may read is searched, never an item they cannot read', async () => {
    const result = await search(owner, { keyword: 'guide' });
    expect(result).toMatchObject({ item_id: 0, item_name: '' });
    const items = new Set(result.pages.map((p) => p.item_name));
    expect(items).toEqual(new Set(['Main docs', 'Second docs']));
    expect(titles(result)).not.toContain('Foreign guide');
    expect(titles(await search(stranger, { keyword: 'guide' }))).toEqual(['Foreign guide']);
  });

  test("other authors' drafts never appear", async () => {
    expect(titles(await search(reader, { keyword: 'guide', item_id: mainItem }))).not.toContain(
      'Draft guide',
    );
    expect(titles(await search(reader, { keyword: 'unfinished' }))).toEqual([]);
    expect(titles(await search(owner, { keyword: 'unfinished' }))).toEqual(['Draft guide']);
  });

  test('a restricted member finds pages in their catalog and its sub-catalogs only — never the rest', async () => {
    const withItem = titles(await search(restricted, { keyword: 'guide', item_id: mainItem }));
    expect(withItem.sort()).toEqual(['Install guide', 'Misc', 'Notes']);
    const everywhere = titles(await search(restricted, { keyword: 'guide' }));
    expect(everywhere.sort()).toEqual(['Install guide', 'Misc', 'Notes']);
    expect(titles(await search(restricted, { keyword: 'closed catalog' }))).toEqual([]);
    expect(titles(await search(restricted, { keyword: 'at the root' }))).toEqual([]);
  });
});
