/**
 * The item list over real HTTP: item/myList (scope, views, flags, order), star/unstar, sort, top,
 * exitItem and itemList.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { ItemSort } from '../../models/items/schemas/itemSort';
import { ItemStar } from '../../models/items/schemas/itemStar';
import { ItemTop } from '../../models/items/schemas/itemTop';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { TeamMember } from '../../models/members/schemas/teamMember';
import { apiSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';
import {
  addMember,
  addTeamMember,
  bindTeamItem,
  makeItem,
  makeTeam,
  setTeamItemAuthority,
} from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite();
const { as } = suite;
type Entry = Record<string, unknown> & { item_id: string };
const ids = (list: Entry[]) => list.map((e) => Number(e.item_id));

describe('item/myList', () => {
  let me: TestUser;
  let other: TestUser;
  let own: number;
  let privateOwn: number;
  let asMember: number;
  let asAdmin: number;
  let viaTeam: number;
  let viaTeamAdmin: number;
  let notMine: number;
  let deleted: number;

  beforeAll(async () => {
    me = await makeUser();
    other = await makeUser();
    ({ item_id: own } = await makeItem(me, { item_name: 'Own' }));
    ({ item_id: privateOwn } = await makeItem(me, { item_name: 'Private', password: 'p' }));
    ({ item_id: asMember } = await makeItem(other, { item_name: 'Member', password: 'q' }));
    ({ item_id: asAdmin } = await makeItem(other, { item_name: 'Admin' }));
    ({ item_id: viaTeam } = await makeItem(other, { item_name: 'Team' }));
    ({ item_id: viaTeamAdmin } = await makeItem(other, { item_name: 'TeamAdmin' }));
    ({ item_id: notMine } = await makeItem(other, { item_name: 'Other' }));
    ({ item_id: deleted } = await makeItem(me, { item_name: 'Gone' }));
    await Item.updateOne({ item_id: deleted }, { $set: { is_del: 1 } });
    forgetCachedReads();
    await addMember(asMember, me, 0);
    await addMember(asAdmin, me, 2);
    const { team_id } = await makeTeam(other);
    await addTeamMember(team_id, me, 1);
    await bindTeamItem(team_id, viaTeam, other);
    await bindTeamItem(team_id, viaTeamAdmin, other);
    await setTeamItemAuthority(team_id, viaTeamAdmin, me, 2);
  });

  test('anonymous callers get 10102', async () => {
    expect((await suite.server.api.fail('item/myList')).error_code).toBe(10102);
  });

  test('lists owned, member and team items (not deleted, not others), oldest id first, with flags and no password', async () => {
    const list = await as(me).ok<Entry[]>('item/myList');
    expect(ids(list)).toEqual([own, privateOwn, asMember, asAdmin, viaTeam, viaTeamAdmin]);
    const byId = new Map(list.map((e) => [Number(e.item_id), e]));
    expect(byId.get(own)).toMatchObject({
      creator: 1,
      manage: 1,
      is_private: 0,
      is_star: 0,
      uid: String(me.uid),
      item_type: '1',
      is_del: '0',
      password: '',
    });
    expect(byId.get(privateOwn)).toMatchObject({ is_private: 1, password: '' });
    expect(byId.get(asMember)).toMatchObject({ creator: 0, manage: 0, is_private: 1 });
    expect(byId.get(asMember)).not.toHaveProperty('password');
    expect(byId.get(asAdmin)).toMatchObject({ creator: 0, manage: 1 });
    expect(byId.get(viaTeamAdmin)).toMatchObject({ manage: 1 });
    expect(byId.get(viaTeam)).toMatchObject({ manage: 0 });
    expect(list[0]).not.toHaveProperty('top');
    expect(JSON.stringify(list)).not.toMatch(/\$2[aby]\$/);
    expect(ids(list)).not.toContain(notMine);
  });

  test('original=1 keeps only owned items; a group view and the starred view filter', async () => {
    expect(ids(await as(me).ok<Entry[]>('item/myList', { original: 1 }))).toEqual([
      own,
      privateOwn,
    ]);
    const group = await as(me).ok<{ id: string }>('itemGroup/save', {
      group_name: 'G',
      item_ids: `${asAdmin},${notMine},${own}`,
    });
    expect(ids(await as(me).ok<Entry[]>('item/myList', { item_group_id: group.id }))).toEqual([
      own,
      asAdmin,
    ]);
    const foreign = await as(other).ok<{ id: string }>('itemGroup/save', {
      group_name: 'Theirs',
      item_ids: String(own),
    });
    expect(await as(me).ok<Entry[]>('item/myList', { item_group_id: foreign.id })).toEqual([]);
    await as(me).ok('item/star', { item_id: asMember });
    const starred = await as(me).ok<Entry[]>('item/myList', { item_group_id: -1 });
    expect(ids(starred)).toEqual([asMember]);
    expect(starred[0].is_star).toBe(1);
    await as(me).ok('item/unstar', { item_id: asMember });
  });

  test('pinned items lead and every entry then carries top; a saved order sorts the view', async () => {
    await as(me).ok('item/top', { item_id: viaTeam, action: 'top' });
    let list = await as(me).ok<Entry[]>('item/myList');
    expect(ids(list)[0]).toBe(viaTeam);
    expect(list.map((e) => e.top)).toEqual([1, 0, 0, 0, 0, 0]);
    await as(me).ok('item/top', { item_id: viaTeam, action: 'cancel' });
    expect(await ItemTop.countDocuments({ uid: me.uid })).toBe(0);

    await as(me).ok('item/sort', {
      item_group_id: 0,
      data: JSON.stringify({ [asAdmin]: 1, [own]: 2 }),
    });
    list = await as(me).ok<Entry[]>('item/myList');
    expect(ids(list).slice(0, 2)).toEqual([asAdmin, own]);
    expect(list[0].s_number).toBe(1);
    // Items missing from the map sort by their id.
    expect(list.find((e) => Number(e.item_id) === privateOwn)!.s_number).toBe(privateOwn);
  });
});

describe('item/star, item/unstar', () => {
  test('starring needs visit permission (error code 1); the right visit password is enough', async () => {
    const owner = await makeUser();
    const fan = await makeUser();
    const { item_id } = await makeItem(owner, { password: 'pw' });
    expect((await suite.server.api.fail('item/star', { item_id })).error_code).toBe(10102);
    expect((await as(fan).fail('item/star', { item_id })).error_code).toBe(1);
    expect(await ItemStar.countDocuments({ uid: fan.uid })).toBe(0);
    const { id } = await as(fan).ok<{ id: number }>('item/star', { item_id, _item_pwd: 'pw' });
    expect(typeof id).toBe('number');
    await as(fan).ok('item/star', { item_id, _item_pwd: 'pw' });
    expect(await ItemStar.countDocuments({ uid: fan.uid, item_id })).toBe(1);
    expect(await as(fan).ok('item/unstar', { item_id })).toEqual([]);
    expect(await ItemStar.countDocuments({ uid: fan.uid })).toBe(0);
  });
});

describe('item/sort', () => {
  test('empty, malformed or operator data → 10101 and nothing stored', async () => {
    const user = await makeUser();
    for (const data of ['', 'not json', '[]', JSON.stringify({ abc: 1 })])
      expect((await as(user).fail('item/sort', { data })).error_code).toBe(10101);
    expect(
      (await as(user).fail('item/sort', { data: { $where: 'x' } }, { json: true })).error_code,
    ).toBe(10101);
    expect(await ItemSort.countDocuments({ uid: user.uid })).toBe(0);
  });

  test('a JSON body may carry the map itself; one row per view is kept', async () => {
    const user = await makeUser();
    await as(user).ok('item/sort', { item_group_id: -1, data: { 5: 2, 7: 1 } }, { json: true });
    await as(user).ok('item/sort', { item_group_id: -1, data: '{"5": 3}' });
    const rows = await ItemSort.find({ uid: user.uid }).lean();
    expect(rows.map((r) => [r.item_group_id, JSON.parse(r.item_sort_data)])).toEqual([
      [-1, { 5: 3 }],
    ]);
  });
});

describe('item/top', () => {
  test('pinning needs visit permission; bad actions → 10101; pins are per user', async () => {
    const owner = await makeUser();
    const user = await makeUser();
    const { item_id } = await makeItem(owner, { password: 'x' });
    expect((await as(user).fail('item/top', { item_id, action: 'top' })).error_code).toBe(10101);
    expect((await as(owner).fail('item/top', { item_id, action: 'sideways' })).error_code).toBe(
      10101,
    );
    await as(owner).ok('item/top', { item_id, action: 'top' });
    await as(owner).ok('item/top', { item_id, action: 'top' });
    expect(await ItemTop.countDocuments({ item_id })).toBe(1);
  });
});

describe('item/exitItem', () => {
  test('a member leaves an item; a team member leaves the whole team; strangers get 10101', async () => {
    const owner = await makeUser();
    const member = await makeUser();
    const teamMate = await makeUser();
    const { item_id } = await makeItem(owner);
    const { item_id: second } = await makeItem(owner);
    await addMember(item_id, member, 1);
    const { team_id } = await makeTeam(owner);
    await addTeamMember(team_id, teamMate);
    await bindTeamItem(team_id, item_id, owner);
    await bindTeamItem(team_id, second, owner);

    expect((await suite.server.api.fail('item/exitItem', { item_id })).error_code).toBe(10102);
    expect((await as(owner).fail('item/exitItem', { item_id })).error_code).toBe(10101);
    await as(member).ok('item/exitItem', { item_id });
    expect(await ItemMember.exists({ item_id, uid: member.uid })).toBeNull();
    await as(teamMate).ok('item/exitItem', { item_id });
    expect(await TeamMember.exists({ team_id, member_uid: teamMate.uid })).toBeNull();
    expect(await TeamItemMember.countDocuments({ member_uid: teamMate.uid })).toBe(0);
    expect((await as(teamMate).ok<Entry[]>('item/myList')).length).toBe(0);
  });
});

describe('item/itemList', () => {
  test('returns the live items the caller owns as rows without passwords', async () => {
    const user = await makeUser();
    const { item_id } = await makeItem(user, { password: 'pw' });
    const { item_id: gone } = await makeItem(user);
    await Item.updateOne({ item_id: gone }, { $set: { is_del: 1 } });
    forgetCachedReads();
    const list = await as(user).ok<Entry[]>('item/itemList');
    expect(list).toEqual([
      expect.objectContaining({ item_id: String(item_id), password: '', uid: String(user.uid) }),
    ]);
  });
});
