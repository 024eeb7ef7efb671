/**
 * member/* over real HTTP: adding, listing and removing an item's personal members, catalog
 * restrictions, the optional collaborator quota, change-log rows and membership events.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { nextId } from '../../models/platform/counters';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { User } from '../../models/accounts/schemas/user';
import { deleteSetting, setSetting } from '../../models/settings/settings';
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

const suite = apiSuite();
const { as } = suite;
let siteAdmin: TestUser;
const membersOf = (item_id: number) =>
  ItemMember.find({ item_id }).sort({ item_member_id: 1 }).lean();

beforeAll(async () => {
  siteAdmin = await makeUser({ admin: true });
});

async function topCatalog(item_id: number, name: string, level = 2, parent = 0): Promise<number> {
  const cat_id = await nextId('cat_id');
  await Catalog.create({
    cat_id,
    cat_name: name,
    item_id,
    addtime: 1,
    parent_cat_id: parent,
    level,
  });
  return cat_id;
}

describe('member/save', () => {
  test('who may add: anonymous 10102; strangers, readers, editors and team admins 10303; nothing written', async () => {
    const { item_id } = await makeItem(suite.owner);
    const reader = await makeUser();
    const editor = await makeUser();
    const teamAdmin = await makeUser();
    await addMember(item_id, reader, 0);
    await addMember(item_id, editor, 1);
    const { team_id } = await makeTeam(suite.owner);
    await addTeamMember(team_id, teamAdmin, 2);
    await bindTeamItem(team_id, item_id, suite.owner);
    const target = await makeUser();
    expect(
      (await suite.server.api.fail('member/save', { item_id, username: target.username }))
        .error_code,
    ).toBe(10102);
    for (const user of [suite.stranger, reader, editor, teamAdmin])
      expect(
        (await as(user).fail('member/save', { item_id, username: target.username })).error_code,
      ).toBe(10303);
    expect(await ItemMember.exists({ item_id, uid: target.uid })).toBeNull();
  });

  test('item admins, team-bound item admins and site admins may add', async () => {
    const { item_id } = await makeItem(suite.owner);
    const itemAdmin = await makeUser();
    const teamItemAdmin = await makeUser();
    await addMember(item_id, itemAdmin, 2);
    const { team_id } = await makeTeam(suite.owner);
    await addTeamMember(team_id, teamItemAdmin, 1);
    await bindTeamItem(team_id, item_id, suite.owner);
    await setTeamItemAuthority(team_id, item_id, teamItemAdmin, 2);
    const [a, b, c] = [await makeUser(), await makeUser(), await makeUser()];
    await as(itemAdmin).ok('member/save', { item_id, username: a.username });
    await as(teamItemAdmin).ok('member/save', { item_id, username: b.username });
    await as(siteAdmin).ok('member/save', { item_id, username: c.username });
    expect((await membersOf(item_id)).map((m) => m.uid)).toEqual([
      itemAdmin.uid,
      a.uid,
      b.uid,
      c.uid,
    ]);
  });

  test('bad input: empty username 10209, authority outside 0-2 10101, operator objects 10101; nothing written', async () => {
    const { item_id } = await makeItem(suite.owner);
    const target = await makeUser();
    expect((await as(suite.owner).fail('member/save', { item_id, username: '' })).error_code).toBe(
      10209,
    );
    expect(
      (await as(suite.owner).fail('member/save', { item_id, username: ' , ' })).error_code,
    ).toBe(10209);
    expect(
      (
        await as(suite.owner).fail('member/save', {
          item_id,
          username: target.username,
          member_group_id: 3,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('member/save', {
          item_id,
          username: target.username,
          member_group_id: -1,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('member/save', { item_id, username: { $ne: '' } })).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail(
          'member/save',
          { item_id, username: target.username, cat_ids: [{ $gt: 0 }] },
          { json: true },
        )
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('member/save', { item_id: 0, username: target.username }))
        .error_code,
    ).toBe(10101);
    expect(await membersOf(item_id)).toEqual([]);
  });

  test('several users at once; unknown users, existing members and the owner are skipped; 10101 when nobody is new', async () => {
    const { item_id } = await makeItem(suite.owner);
    const [a, b] = [await makeUser(), await makeUser()];
    await User.updateOne({ uid: b.uid }, { $set: { email: `${b.username}@example.com` } });
    const seen: DomainEvents['membership.changed'][] = [];
    const off = events.subscribe('membership.changed', (e) => void seen.push(e));
    const { id } = await as(suite.owner).ok<{ id: number }>('member/save', {
      item_id,
      username: `${a.username}, no_such_person, ${b.username}@example.com, ${suite.owner.username}`,
      member_group_id: 1,
    });
    await new Promise((r) => setImmediate(r));
    off();
    const rows = await membersOf(item_id);
    expect(rows.map((r) => [r.uid, r.username, r.member_group_id])).toEqual([
      [a.uid, a.username, 1],
      [b.uid, b.username, 1],
    ]);
    expect(id).toBe(rows[1].item_member_id);
    expect(seen).toEqual([
      { itemId: item_id, uids: [a.uid, b.uid], change: 'added', byUid: suite.owner.uid },
    ]);
    const log = await ItemChangeLog.find({ item_id }).sort({ id: 1 }).lean();
    expect(log.map((l) => [l.op_action_type, l.op_object_type, l.op_object_id])).toEqual([
      ['binding', 'member', a.uid],
      ['binding', 'member', b.uid],
    ]);
    expect(
      (
        await as(suite.owner).fail('member/save', {
          item_id,
          username: `${a.username},nobody_here`,
        })
      ).error_code,
    ).toBe(10101);
    expect(await membersOf(item_id)).toHaveLength(2);
  });

  test("cat_ids keep only the item's top-level catalogs, and item admins are never restricted", async () => {
    const { item_id } = await makeItem(suite.owner);
    const { item_id: elsewhere } = await makeItem(suite.owner);
    const top = await topCatalog(item_id, 'Top');
    const sub = await topCatalog(item_id, 'Sub', 3, top);
    const foreign = await topCatalog(elsewhere, 'Foreign');
    const [reader, admin] = [await makeUser(), await makeUser()];
    await as(suite.owner).ok('member/save', {
      item_id,
      username: reader.username,
      member_group_id: 0,
      cat_ids: `${top},${sub},${foreign},abc`,
    });
    await as(suite.owner).ok('member/save', {
      item_id,
      username: admin.username,
      member_group_id: 2,
      cat_ids: JSON.stringify([top]),
    });
    const rows = await membersOf(item_id);
    expect(rows.map((r) => [r.member_group_id, r.cat_ids, r.cat_id])).toEqual([
      [0, [top], top],
      [2, [], 0],
    ]);
  });

  test('the collaborator quota (site option member_quota) answers 10310 when full; none by default', async () => {
    const { item_id } = await makeItem(suite.owner);
    const quotaOwner = await makeUser();
    const { item_id: quotaItem } = await makeItem(quotaOwner);
    const [a, b] = [await makeUser(), await makeUser()];
    await setSetting('member_quota', '1');
    try {
      await as(quotaOwner).ok('member/save', { item_id: quotaItem, username: a.username });
      expect(
        (await as(quotaOwner).fail('member/save', { item_id: quotaItem, username: b.username }))
          .error_code,
      ).toBe(10310);
      expect(await ItemMember.exists({ item_id: quotaItem, uid: b.uid })).toBeNull();
    } finally {
      await deleteSetting('member_quota');
    }
    await as(suite.owner).ok('member/save', { item_id, username: `${a.username},${b.username}` });
  });
});

describe('member/getList', () => {
  test('managers see members with names, labels and formatted times; editors 10303; item_id 0 → []', async () => {
    const { item_id } = await makeItem(suite.owner);
    const top = await topCatalog(item_id, 'Guides');
    const editor = await makeUser({ name: 'Ed Itor' });
    const reader = await makeUser();
    await addMember(item_id, editor, 1);
    await addMember(item_id, reader, 0, [top]);
    expect(await suite.server.api.ok('member/getList', { item_id: 0 })).toEqual([]);
    expect((await suite.server.api.fail('member/getList', { item_id })).error_code).toBe(10102);
    expect((await as(editor).fail('member/getList', { item_id })).error_code).toBe(10303);
    const list = await as(suite.owner).ok<Record<string, unknown>[]>('member/getList', { item_id });
    expect(list).toEqual([
      expect.objectContaining({
        uid: String(editor.uid),
        username: editor.username,
        name: 'Ed Itor',
        member_group_id: '1',
        cat_name: '所有目录',
        member_group: '编辑/目录：所有目录',
        addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      }),
      expect.objectContaining({
        uid: String(reader.uid),
        name: null, // never set: NULL in ShowDoc's column
        member_group_id: '0',
        cat_id: String(top),
        cat_name: 'Guides',
        member_group: '只读/目录：Guides',
      }),
    ]);
    expect(await as(siteAdmin).ok<unknown[]>('member/getList', { item_id })).toHaveLength(2);
  });
});

describe('member/delete', () => {
  test('managers remove a member (change log, event); others 10303; wrong ids 10101; nothing else changes', async () => {
    const { item_id } = await makeItem(suite.owner);
    const [editor, victim] = [await makeUser(), await makeUser()];
    await addMember(item_id, editor, 1);
    const victimRow = await addMember(item_id, victim, 0);
    expect(
      (await suite.server.api.fail('member/delete', { item_id, item_member_id: victimRow }))
        .error_code,
    ).toBe(10102);
    expect(
      (await as(editor).fail('member/delete', { item_id, item_member_id: victimRow })).error_code,
    ).toBe(10303);
    expect(
      (await as(suite.owner).fail('member/delete', { item_id, item_member_id: 0 })).error_code,
    ).toBe(10101);
    const { item_id: otherItem } = await makeItem(suite.owner);
    expect(
      (
        await as(suite.owner).fail('member/delete', {
          item_id: otherItem,
          item_member_id: victimRow,
        })
      ).error_code,
    ).toBe(10101);
    expect(await membersOf(item_id)).toHaveLength(2);

    const seen: DomainEvents['membership.changed'][] = [];
    const off = events.subscribe('membership.changed', (e) => void seen.push(e));
    expect(
      await as(suite.owner).ok('member/delete', { item_id, item_member_id: victimRow }),
    ).toEqual({
      success: true,
    });
    await new Promise((r) => setImmediate(r));
    off();
    expect((await membersOf(item_id)).map((m) => m.uid)).toEqual([editor.uid]);
    expect(seen).toEqual([
      { itemId: item_id, uids: [victim.uid], change: 'removed', byUid: suite.owner.uid },
    ]);
    expect(
      await ItemChangeLog.findOne({ item_id, op_action_type: 'unbound' }).lean(),
    ).toMatchObject({ op_object_type: 'member', op_object_id: victim.uid });
    expect(await as(victim).ok<unknown[]>('item/myList')).toEqual([]);
  });
});

describe('member/getAllList and member/getMyAllList', () => {
  test('getAllList: the owner first, then members, then team members, one row per user; readers get 10301', async () => {
    const { item_id } = await makeItem(suite.owner);
    const [editor, reader, teamMate] = [
      await makeUser({ name: 'Edna' }),
      await makeUser(),
      await makeUser(),
    ];
    await addMember(item_id, editor, 1);
    await addMember(item_id, reader, 0);
    const { team_id } = await makeTeam(suite.owner);
    await addTeamMember(team_id, teamMate);
    await addTeamMember(team_id, editor);
    await bindTeamItem(team_id, item_id, suite.owner);
    expect((await as(reader).fail('member/getAllList', { item_id })).error_code).toBe(10301);
    expect((await as(suite.stranger).fail('member/getAllList', { item_id })).error_code).toBe(
      10301,
    );
    const list = await as(editor).ok<Record<string, unknown>[]>('member/getAllList', { item_id });
    expect(list).toEqual([
      {
        item_id,
        uid: suite.owner.uid,
        username: suite.owner.username,
        username_name: suite.owner.username,
        member_group_id: '1',
      },
      {
        item_id,
        uid: editor.uid,
        username: editor.username,
        username_name: 'Edna',
        member_group_id: '1',
      },
      {
        item_id,
        uid: reader.uid,
        username: reader.username,
        username_name: reader.username,
        member_group_id: '0',
      },
      {
        item_id,
        uid: teamMate.uid,
        username: teamMate.username,
        username_name: teamMate.username,
        member_group_id: '1',
      },
    ]);
  });

  test("getMyAllList: people in the caller's items and teams, newest first, once each", async () => {
    const me = await makeUser();
    const { item_id } = await makeItem(me);
    const [a, b] = [await makeUser(), await makeUser()];
    await addMember(item_id, a, 0);
    const { team_id } = await makeTeam(me);
    await addTeamMember(team_id, a);
    await addTeamMember(team_id, b);
    const list =
      await as(me).ok<{ uid: number; username: string; addtime: number }[]>('member/getMyAllList');
    expect(new Set(list.map((r) => r.uid))).toEqual(new Set([a.uid, b.uid]));
    expect(list).toHaveLength(2);
    expect(typeof list[0].addtime).toBe('number');
    expect(await as(suite.stranger).ok('member/getMyAllList')).toEqual([]);
  });
});
