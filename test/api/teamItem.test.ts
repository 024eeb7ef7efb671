/**
 * teamItem/* and teamItemMember/* over real HTTP: binding items to teams (team manage + item
 * manage on each), unbinding, and each team member's authority and catalogs on an item.
 */
import { describe, expect, test } from '@jest/globals';
import { nextId } from '../../models/platform/counters';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Item } from '../../models/items/schemas/item';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { TeamItem } from '../../models/members/schemas/teamItem';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, bindTeamItem, makeItem, makeStaffedTeam } from '../helpers/factories';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite();
const { as } = suite;

describe('teamItem/save', () => {
  test('needs team manage (10103) and item manage on every item (10303); a failure binds nothing', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id: own } = await makeItem(admin);
    const { item_id: foreign } = await makeItem(suite.stranger);
    const { item_id: edited } = await makeItem(suite.stranger);
    await addMember(edited, admin, 1);
    expect(
      (await suite.server.api.fail('teamItem/save', { team_id, item_id: own })).error_code,
    ).toBe(10102);
    expect((await as(member).fail('teamItem/save', { team_id, item_id: own })).error_code).toBe(
      10103,
    );
    expect(
      (await as(suite.stranger).fail('teamItem/save', { team_id, item_id: foreign })).error_code,
    ).toBe(10103);
    expect(
      (await as(admin).fail('teamItem/save', { team_id, item_id: `${own},${foreign}` })).error_code,
    ).toBe(10303);
    expect((await as(admin).fail('teamItem/save', { team_id, item_id: edited })).error_code).toBe(
      10303,
    );
    expect((await as(admin).fail('teamItem/save', { team_id, item_id: '' })).error_code).toBe(
      10101,
    );
    expect(
      (await as(admin).fail('teamItem/save', { team_id, item_id: { $gt: 0 } })).error_code,
    ).toBe(10101);
    expect(await TeamItem.countDocuments({ team_id })).toBe(0);
  });

  test('binds several items: every team member gets edit access, a change-log row per item; rebinding → 10103', async () => {
    const { team_id, team_name, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id: a } = await makeItem(suite.owner);
    const { item_id: b } = await makeItem(suite.owner);
    const { id } = await as(suite.owner).ok<{ id: number }>('teamItem/save', {
      team_id,
      item_id: `${a},${b}`,
    });
    expect(typeof id).toBe('number');
    for (const item_id of [a, b]) {
      const rows = await TeamItemMember.find({ team_id, item_id }).lean();
      expect(rows.map((r) => [r.member_uid, r.member_group_id]).sort()).toEqual(
        [
          [admin.uid, 1],
          [member.uid, 1],
        ].sort(),
      );
      expect(await ItemChangeLog.findOne({ item_id, op_object_type: 'team' }).lean()).toMatchObject(
        { op_action_type: 'binding', op_object_id: team_id, op_object_name: team_name },
      );
    }
    expect((await as(suite.owner).fail('teamItem/save', { team_id, item_id: a })).error_code).toBe(
      10103,
    );
    expect(await TeamItem.countDocuments({ team_id })).toBe(2);
  });

  test('archived items cannot be bound', async () => {
    const { team_id } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    await Item.updateOne({ item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    expect((await as(suite.owner).fail('teamItem/save', { team_id, item_id })).error_code).toBe(
      10303,
    );
    expect(await TeamItem.countDocuments({ team_id })).toBe(0);
  });
});

describe('teamItem/getList and getListByTeam', () => {
  test('getList (item managers): the teams bound to an item; getListByTeam (team members): its live items without passwords', async () => {
    const { team_id, team_name, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner, { password: 'secret' });
    const { item_id: gone } = await makeItem(suite.owner);
    const bindingId = await bindTeamItem(team_id, item_id, suite.owner);
    await bindTeamItem(team_id, gone, suite.owner);
    await Item.updateOne({ item_id: gone }, { $set: { is_del: 1 } });
    forgetCachedReads();

    expect((await as(member).fail('teamItem/getList', { item_id })).error_code).toBe(10303);
    expect(await as(suite.owner).ok('teamItem/getList', { item_id })).toEqual([
      expect.objectContaining({
        id: String(bindingId),
        team_id: String(team_id),
        team_name,
        addtime: expect.stringMatching(/^\d{4}-/),
      }),
    ]);
    expect((await as(suite.stranger).fail('teamItem/getListByTeam', { team_id })).error_code).toBe(
      10103,
    );
    const items = await as(member).ok<Record<string, string>[]>('teamItem/getListByTeam', {
      team_id,
    });
    expect(items).toEqual([
      expect.objectContaining({
        id: String(bindingId),
        item_id: String(item_id),
        team_id: String(team_id),
        password: '',
      }),
    ]);
    expect(JSON.stringify(items)).not.toMatch(/\$2[aby]\$/);
  });
});

describe('teamItem/delete', () => {
  test('team managers unbind: members lose access, change log written; ordinary members 10103', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    const bindingId = await bindTeamItem(team_id, item_id, suite.owner);
    expect((await as(member).fail('teamItem/delete', { id: bindingId })).error_code).toBe(10103);
    expect((await as(admin).fail('teamItem/delete', { id: 0 })).error_code).toBe(10101);
    expect(await TeamItem.exists({ id: bindingId })).not.toBeNull();
    expect(await as(admin).ok('teamItem/delete', { id: bindingId })).toEqual({ success: true });
    expect(await TeamItem.exists({ id: bindingId })).toBeNull();
    expect(await TeamItemMember.countDocuments({ team_id, item_id })).toBe(0);
    expect(
      await ItemChangeLog.findOne({ item_id, op_action_type: 'unbound' }).lean(),
    ).toMatchObject({ op_object_type: 'team', op_object_id: team_id });
  });

  test('an archived item keeps its bindings', async () => {
    const { team_id } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    const bindingId = await bindTeamItem(team_id, item_id, suite.owner);
    await Item.updateOne({ item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    expect((await as(suite.owner).fail('teamItem/delete', { id: bindingId })).error_code).toBe(
      10303,
    );
    expect(await TeamItem.exists({ id: bindingId })).not.toBeNull();
  });
});

describe('teamItemMember/*', () => {
  async function setup() {
    const team = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    const top = await nextId('cat_id');
    const sub = await nextId('cat_id');
    await Catalog.create([
      { cat_id: top, cat_name: 'Top', item_id, addtime: 1, parent_cat_id: 0, level: 2 },
      { cat_id: sub, cat_name: 'Sub', item_id, addtime: 1, parent_cat_id: top, level: 3 },
    ]);
    forgetCachedReads();
    await bindTeamItem(team.team_id, item_id, suite.owner);
    const row = await TeamItemMember.findOne({
      team_id: team.team_id,
      item_id,
      member_uid: team.member.uid,
    }).lean();
    return { ...team, item_id, top, sub, rowId: row!.id };
  }

  test('getList: team managers see the rows with cat_ids as numbers; ordinary members 10103', async () => {
    const { team_id, item_id, member, admin } = await setup();
    expect((await as(member).fail('teamItemMember/getList', { item_id, team_id })).error_code).toBe(
      10103,
    );
    const list = await as(admin).ok<Record<string, unknown>[]>('teamItemMember/getList', {
      item_id,
      team_id,
    });
    expect(list).toHaveLength(2);
    expect(list[0]).toMatchObject({
      member_group_id: '1',
      cat_ids: [],
      cat_name: '所有目录',
      addtime: expect.stringMatching(/^\d{4}-/),
    });
  });

  test('save changes only the fields sent in the body; catalogs are filtered to top-level ones of the item', async () => {
    const { item_id, top, sub, rowId, admin, member } = await setup();
    expect(
      (await as(member).fail('teamItemMember/save', { id: rowId, member_group_id: 2 })).error_code,
    ).toBe(10103);
    expect(
      (await as(admin).fail('teamItemMember/save', { id: rowId, member_group_id: 7 })).error_code,
    ).toBe(10101);
    expect(
      (await as(admin).fail('teamItemMember/save', { id: rowId, member_group_id: { $set: 2 } }))
        .error_code,
    ).toBe(10101);
    expect((await TeamItemMember.findOne({ id: rowId }).lean())!.member_group_id).toBe(1);

    expect(
      await as(admin).ok('teamItemMember/save', { id: rowId, cat_ids: `${top},${sub}` }),
    ).toEqual({ success: true });
    expect(await TeamItemMember.findOne({ id: rowId }).lean()).toMatchObject({
      member_group_id: 1,
      cat_ids: [top],
      cat_id: top,
    });
    expect(await as(member).ok('item/info', { item_id })).toMatchObject({ item_edit: true });

    // A query-string field is not a body field: nothing to update.
    const viaQuery = await as(admin).call(`teamItemMember/save?member_group_id=0`, { id: rowId });
    expect(viaQuery.body).toEqual({ error_code: 0, data: [] });
    expect((await TeamItemMember.findOne({ id: rowId }).lean())!.member_group_id).toBe(1);

    await as(admin).ok('teamItemMember/save', { id: rowId, member_group_id: 0 });
    expect(await TeamItemMember.findOne({ id: rowId }).lean()).toMatchObject({
      member_group_id: 0,
      cat_ids: [top],
    });
    expect(await as(member).ok('item/info', { item_id })).toMatchObject({ item_edit: false });
    // Item admins are never restricted.
    await as(admin).ok('teamItemMember/save', { id: rowId, member_group_id: 2 });
    expect(await TeamItemMember.findOne({ id: rowId }).lean()).toMatchObject({
      member_group_id: 2,
      cat_ids: [],
      cat_id: 0,
    });
    expect(await as(member).ok('item/info', { item_id })).toMatchObject({ item_manage: true });
  });

  test('archived items refuse authority changes', async () => {
    const { item_id, rowId } = await setup();
    await Item.updateOne({ item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    expect(
      (await as(suite.owner).fail('teamItemMember/save', { id: rowId, member_group_id: 2 }))
        .error_code,
    ).toBe(10303);
    expect((await TeamItemMember.findOne({ id: rowId }).lean())!.member_group_id).toBe(1);
  });
});
