/**
 * publicSquare/* over real HTTP, answered as ShowDoc answers: off by default (checkEnabled
 * `{enable: 0}`, getPublicItems 10501); on, a directory of the open items (no visit password) with
 * ShowDoc's fields, paging and search by title/description or by page content. An item with a
 * password, a deleted one, or a page of either, never appears; with "force login" on, anonymous
 * visitors are asked to log in.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items';
import { setSettings } from '../../models/settings';
import { serverSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUsers, type TestUser } from '../helpers/users';

interface SquareItem {
  item_id: number;
  item_name: string;
  item_description: string;
  item_type: string;
  addtime: string;
  last_update_time: string;
  item_domain: string;
}
interface Square {
  total: number;
  items: SquareItem[];
}

const suite = serverSuite();
let owner: TestUser;
let publicDocs: number, publicBoard: number, privateItem: number, deletedItem: number;

beforeAll(async () => {
  [owner] = await makeUsers(1);
  ({ item_id: publicDocs } = await makeItem(owner, {
    item_name: 'Open handbook',
    item_description: 'How the team works',
  }));
  await makePage(owner, publicDocs, { title: 'Onboarding', content: 'Welcome aboard, zephyrine.' });
  ({ item_id: publicBoard } = await makeItem(owner, {
    item_name: 'Planning board',
    item_type: 5,
    item_domain: 'planboard',
  }));
  ({ item_id: privateItem } = await makeItem(owner, {
    item_name: 'Open secrets handbook',
    password: 'keep-out',
  }));
  await makePage(owner, privateItem, { title: 'Secret', content: 'zephyrine is here too' });
  ({ item_id: deletedItem } = await makeItem(owner, { item_name: 'Old handbook' }));
  // Deleted to the bin: its row stays, flagged.
  await Item.updateOne({ item_id: deletedItem }, { $set: { is_del: 1 } });
});

const anonymous = () => suite.server.api;
const items = (params: Record<string, string | number> = {}) =>
  anonymous().ok<Square>('publicSquare/getPublicItems', params);
const ids = (square: Square) => square.items.map((item) => item.item_id).sort((a, b) => a - b);

describe('the public square', () => {
  test('is off by default: checkEnabled says 0 and the list is refused (10501)', async () => {
    expect((await anonymous().call('publicSquare/checkEnabled')).body).toEqual({
      error_code: 0,
      data: { enable: 0 },
    });
    expect((await anonymous().call('publicSquare/getPublicItems')).body.error_code).toBe(10501);
  });

  test('on, lists only open items, with ShowDoc’s fields, newest change first', async () => {
    await setSettings({ enable_public_square: '1' });
    expect((await anonymous().ok<{ enable: number }>('publicSquare/checkEnabled')).enable).toBe(1);
    const square = await items();
    expect(ids(square)).toEqual([publicDocs, publicBoard].sort((a, b) => a - b));
    expect(square.total).toBe(2);
    const board = square.items.find((item) => item.item_id === publicBoard)!;
    expect(board).toEqual({
      item_id: publicBoard,
      item_name: 'Planning board',
      item_description: '',
      item_type: '5',
      addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      last_update_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      item_domain: 'planboard',
    });
    const docs = square.items.find((item) => item.item_id === publicDocs)!;
    expect(docs.item_domain).toBe(String(publicDocs));
    expect(JSON.stringify(square)).not.toMatch(/password|secret/i);
  });

  test('pages with page and count', async () => {
    const first = await items({ page: 1, count: 1 });
    const second = await items({ page: '2', count: '1' });
    expect(first.total).toBe(2);
    expect(first.items).toHaveLength(1);
    expect(second.items).toHaveLength(1);
    expect(second.items[0].item_id).not.toBe(first.items[0].item_id);
    expect((await items({ page: 3, count: 1 })).items).toEqual([]);
  });

  test('searches names and descriptions, never private items', async () => {
    expect(ids(await items({ keyword: 'handbook' }))).toEqual([publicDocs]);
    expect(ids(await items({ keyword: 'team works', search_type: 'title' }))).toEqual([publicDocs]);
    expect(await items({ keyword: 'nothing like this' })).toEqual({ total: 0, items: [] });
  });

  test('searches page content of open items only', async () => {
    expect(ids(await items({ keyword: 'zephyrine', search_type: 'content' }))).toEqual([
      publicDocs,
    ]);
    expect(await items({ keyword: 'Secret', search_type: 'content' })).toEqual({
      total: 0,
      items: [],
    });
  });

  test('with "force login", anonymous visitors must log in; members see the same list', async () => {
    await setSettings({ force_login: '1' });
    expect((await anonymous().call('publicSquare/getPublicItems')).body.error_code).toBe(10102);
    const square = await suite.as(owner).ok<Square>('publicSquare/getPublicItems');
    expect(ids(square)).toEqual([publicDocs, publicBoard].sort((a, b) => a - b));
    await setSettings({ force_login: '0' });
  });
});
