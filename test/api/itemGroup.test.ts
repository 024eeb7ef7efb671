/** itemGroup/* over real HTTP: a user's own item groups, and only theirs. */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { ItemGroup } from '../../models/items/schemas/itemGroup';
import { ItemSort } from '../../models/items/schemas/itemSort';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite();
const { as } = suite;
let me: TestUser;
let other: TestUser;
const groupsOf = (uid: number) => ItemGroup.find({ uid }).sort({ id: 1 }).lean();

beforeAll(async () => {
  me = await makeUser();
  other = await makeUser();
});

describe('itemGroup/save', () => {
  test('anonymous → 10102; too long a name or operator objects → 10101; nothing stored', async () => {
    expect((await suite.server.api.fail('itemGroup/save', { group_name: 'X' })).error_code).toBe(
      10102,
    );
    for (const params of [
      { group_name: 'x'.repeat(101) },
      { group_name: { $gt: '' } },
      { group_name: 'ok', item_ids: ['1', '2'] },
    ])
      expect((await as(me).fail('itemGroup/save', params as never)).error_code).toBe(10101);
    expect(await groupsOf(me.uid)).toEqual([]);
  });

  test('a blank name becomes "default"', async () => {
    const user = await makeUser();
    expect(await as(user).ok('itemGroup/save', { group_name: '   ' })).toMatchObject({
      group_name: 'default',
    });
    expect(await as(user).ok('itemGroup/save', {})).toMatchObject({ group_name: 'default' });
  });

  test("creates a group (row without uid, item ids cleaned) and updates only the caller's own", async () => {
    const created = await as(me).ok<Record<string, string>>('itemGroup/save', {
      group_name: ' Work ',
      item_ids: '3, 5,x,3',
    });
    expect(created).toMatchObject({
      group_name: 'Work',
      item_ids: '3,5',
      s_number: '0',
      created_at: expect.stringMatching(/^\d{4}-/),
    });
    expect(created).not.toHaveProperty('uid');
    const updated = await as(me).ok<Record<string, string>>('itemGroup/save', {
      id: created.id,
      group_name: 'Job',
      item_ids: '9',
    });
    expect(updated).toMatchObject({ id: created.id, group_name: 'Job', item_ids: '9' });
    expect(
      (await as(other).fail('itemGroup/save', { id: created.id, group_name: 'Stolen' })).error_code,
    ).toBe(10103);
    expect((await ItemGroup.findOne({ id: Number(created.id) }).lean())!.group_name).toBe('Job');
  });
});

describe('itemGroup/getList, saveSort, delete', () => {
  test("lists the caller's groups by s_number then id; saveSort reorders only own groups", async () => {
    const user = await makeUser();
    const a = await as(user).ok<{ id: string }>('itemGroup/save', { group_name: 'A' });
    const b = await as(user).ok<{ id: string }>('itemGroup/save', { group_name: 'B' });
    const foreign = await as(other).ok<{ id: string }>('itemGroup/save', { group_name: 'F' });
    expect(
      (await as(user).ok<{ group_name: string }[]>('itemGroup/getList')).map((g) => g.group_name),
    ).toEqual(['A', 'B']);
    const groups = JSON.stringify([
      { id: a.id, s_number: 2 },
      { id: Number(b.id), s_number: 1 },
      { id: foreign.id, s_number: 9 },
    ]);
    expect(await as(user).ok('itemGroup/saveSort', { groups })).toEqual([]);
    const list = await as(user).ok<Record<string, string>[]>('itemGroup/getList');
    expect(list.map((g) => [g.group_name, g.s_number, g.uid])).toEqual([
      ['B', '1', String(user.uid)],
      ['A', '2', String(user.uid)],
    ]);
    expect((await ItemGroup.findOne({ id: Number(foreign.id) }).lean())!.s_number).toBe(0);
  });

  test('saveSort refuses empty or malformed lists (10101) and changes nothing', async () => {
    const user = await makeUser();
    const g = await as(user).ok<{ id: string }>('itemGroup/save', { group_name: 'Only' });
    for (const groups of ['', '[]', 'nope', JSON.stringify([{ id: g.id, s_number: { $inc: 1 } }])])
      expect((await as(user).fail('itemGroup/saveSort', { groups })).error_code).toBe(10101);
    expect((await ItemGroup.findOne({ id: Number(g.id) }).lean())!.s_number).toBe(0);
  });

  test("delete removes the caller's group and its saved order; others' groups or bad ids → 10101", async () => {
    const user = await makeUser();
    const g = await as(user).ok<{ id: string }>('itemGroup/save', { group_name: 'Temp' });
    await as(user).ok('item/sort', { item_group_id: g.id, data: '{"1": 1}' });
    expect((await as(other).fail('itemGroup/delete', { id: g.id })).error_code).toBe(10101);
    expect((await as(user).fail('itemGroup/delete', { id: 0 })).error_code).toBe(10101);
    expect(await ItemGroup.exists({ id: Number(g.id) })).not.toBeNull();
    expect(await as(user).ok('itemGroup/delete', { id: g.id })).toEqual({ success: true });
    expect(await ItemGroup.exists({ id: Number(g.id) })).toBeNull();
    expect(await ItemSort.countDocuments({ uid: user.uid })).toBe(0);
  });
});
