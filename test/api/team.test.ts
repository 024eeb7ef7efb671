/**
 * team/* and teamMember/* over real HTTP: creator, team admin and ordinary member rights,
 * transfer, leaving, and how team membership reaches the team's items.
 */
import { describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { Team } from '../../models/members/schemas/team';
import { TeamItem } from '../../models/members/schemas/teamItem';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { TeamMember } from '../../models/members/schemas/teamMember';
import { apiSuite } from '../helpers/apiSuite';
import { makeUser } from '../helpers/users';
import { addTeamMember, bindTeamItem, makeItem, makeStaffedTeam } from '../helpers/factories';

const suite = apiSuite();
const { as } = suite;

describe('team/save and team/getList', () => {
  test('anonymous → 10102; an empty or oversize name or operator objects → 10101; nothing stored', async () => {
    const before = await Team.countDocuments({});
    expect((await suite.server.api.fail('team/save', { team_name: 'T' })).error_code).toBe(10102);
    for (const team_name of ['  ', 'x'.repeat(101), { $ne: '' }])
      expect((await as(suite.owner).fail('team/save', { team_name } as never)).error_code).toBe(
        10101,
      );
    expect(await Team.countDocuments({})).toBe(before);
  });

  test('creates a team (raw row) and lists it with counts and the manage flag for each viewer', async () => {
    const user = await makeUser();
    const row = await as(user).ok<Record<string, string>>('team/save', { team_name: ' Writers ' });
    expect(row).toMatchObject({
      team_name: 'Writers',
      uid: String(user.uid),
      username: user.username,
      addtime: expect.stringMatching(/^\d+$/),
    });
    const member = await makeUser();
    await addTeamMember(Number(row.id), member);
    const { item_id } = await makeItem(user);
    await bindTeamItem(Number(row.id), item_id, user);
    const mine = await as(user).ok<Record<string, unknown>[]>('team/getList');
    expect(mine).toEqual([
      expect.objectContaining({
        id: row.id,
        memberCount: 1,
        itemCount: 1,
        team_manage: 1,
        addtime: expect.stringMatching(/^\d{4}-/),
      }),
    ]);
    expect(await as(member).ok('team/getList')).toEqual([
      expect.objectContaining({ id: row.id, team_manage: 0 }),
    ]);
    expect(await as(suite.stranger).ok('team/getList')).toEqual([]);
  });

  test('renaming: creator and team admin may, ordinary members and strangers get 10103', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    expect(
      (await as(member).fail('team/save', { id: team_id, team_name: 'Nope' })).error_code,
    ).toBe(10103);
    expect(
      (await as(suite.stranger).fail('team/save', { id: team_id, team_name: 'Nope' })).error_code,
    ).toBe(10103);
    await as(admin).ok('team/save', { id: team_id, team_name: 'By admin' });
    expect((await Team.findOne({ id: team_id }).lean())!.team_name).toBe('By admin');
  });
});

describe('team/delete', () => {
  test('only the creator deletes (team admins 10103); members, bindings and item access go with it', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    await bindTeamItem(team_id, item_id, suite.owner);
    expect((await as(admin).fail('team/delete', { id: team_id })).error_code).toBe(10103);
    expect((await as(member).fail('team/delete', { id: team_id })).error_code).toBe(10103);
    expect(await Team.exists({ id: team_id })).not.toBeNull();
    expect(await as(suite.owner).ok('team/delete', { id: team_id })).toEqual({ success: true });
    expect(await Team.exists({ id: team_id })).toBeNull();
    expect(await TeamMember.countDocuments({ team_id })).toBe(0);
    expect(await TeamItem.countDocuments({ team_id })).toBe(0);
    expect(await TeamItemMember.countDocuments({ team_id })).toBe(0);
    expect((await as(member).fail('item/getChangeLog', { item_id })).error_code).toBe(10101);
  });
});

describe('team/attorn', () => {
  test('only the creator, with their own password; unknown users 10209; nothing moves on failure', async () => {
    const { team_id, admin } = await makeStaffedTeam(suite.owner);
    const target = await makeUser();
    expect(
      (
        await as(admin).fail('team/attorn', {
          team_id,
          username: target.username,
          password: admin.password,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('team/attorn', {
          team_id,
          username: target.username,
          password: 'wrong',
        })
      ).error_code,
    ).toBe(10208);
    expect(
      (
        await as(suite.owner).fail('team/attorn', {
          team_id,
          username: 'nobody_at_all',
          password: suite.owner.password,
        })
      ).error_code,
    ).toBe(10209);
    expect((await Team.findOne({ id: team_id }).lean())!.uid).toBe(suite.owner.uid);
  });

  test('moves the team and the bound items the creator owns — never items owned by someone else', async () => {
    const { team_id, admin } = await makeStaffedTeam(suite.owner);
    const target = await makeUser();
    const { item_id: mine } = await makeItem(suite.owner);
    const { item_id: theirs } = await makeItem(admin);
    await bindTeamItem(team_id, mine, suite.owner);
    await bindTeamItem(team_id, theirs, admin);
    expect(
      await as(suite.owner).ok('team/attorn', {
        team_id,
        username: target.username,
        password: suite.owner.password,
      }),
    ).toEqual([]);
    expect((await Team.findOne({ id: team_id }).lean())!.uid).toBe(target.uid);
    expect((await Item.findOne({ item_id: mine }).lean())!.uid).toBe(target.uid);
    expect((await Item.findOne({ item_id: theirs }).lean())!.uid).toBe(admin.uid);
  });
});

describe('team/exitTeam', () => {
  test("a member leaves the team and loses the team's items; always answers []", async () => {
    const { team_id, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    await bindTeamItem(team_id, item_id, suite.owner);
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).not.toBeNull();
    expect(await as(member).ok('team/exitTeam', { id: team_id })).toEqual([]);
    expect(await TeamMember.exists({ team_id, member_uid: member.uid })).toBeNull();
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).toBeNull();
    expect(await as(suite.stranger).ok('team/exitTeam', { id: team_id })).toEqual([]);
    expect((await suite.server.api.fail('team/exitTeam', { id: team_id })).error_code).toBe(10102);
  });
});

describe('teamMember/*', () => {
  test('getList: managers and members see the members, newest first; strangers 10103', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    expect((await as(suite.stranger).fail('teamMember/getList', { team_id })).error_code).toBe(
      10103,
    );
    const list = await as(member).ok<Record<string, string>[]>('teamMember/getList', { team_id });
    expect(list.map((r) => [r.member_uid, r.team_member_group_id])).toEqual([
      [String(member.uid), '1'],
      [String(admin.uid), '2'],
    ]);
    expect(list[0]).toMatchObject({
      member_username: member.username,
      addtime: expect.stringMatching(/^\d{4}-/),
      name: '',
    });
  });

  test('save: managers add (the new member gets edit access to every bound item); members and strangers 10103', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    await bindTeamItem(team_id, item_id, suite.owner);
    const newcomer = await makeUser();
    expect(
      (await as(member).fail('teamMember/save', { team_id, member_username: newcomer.username }))
        .error_code,
    ).toBe(10103);
    expect(
      (
        await as(suite.stranger).fail('teamMember/save', {
          team_id,
          member_username: newcomer.username,
        })
      ).error_code,
    ).toBe(10103);
    expect(await TeamMember.exists({ team_id, member_uid: newcomer.uid })).toBeNull();
    const { id } = await as(admin).ok<{ id: number }>('teamMember/save', {
      team_id,
      member_username: newcomer.username,
    });
    expect(await TeamMember.findOne({ id }).lean()).toMatchObject({
      member_uid: newcomer.uid,
      team_member_group_id: 1,
    });
    expect(
      await TeamItemMember.findOne({ team_id, item_id, member_uid: newcomer.uid }).lean(),
    ).toMatchObject({ member_group_id: 1 });
    expect(await as(newcomer).ok('item/info', { item_id })).toMatchObject({
      item_edit: true,
      item_manage: false,
    });
  });

  test('save: unknown users 10209, bad roles 10101, the same role twice 10101; a new role updates the member', async () => {
    const { team_id, member } = await makeStaffedTeam(suite.owner);
    expect(
      (await as(suite.owner).fail('teamMember/save', { team_id, member_username: 'ghost_user_1' }))
        .error_code,
    ).toBe(10209);
    expect(
      (
        await as(suite.owner).fail('teamMember/save', {
          team_id,
          member_username: member.username,
          team_member_group_id: 3,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('teamMember/save', {
          team_id,
          member_username: member.username,
          team_member_group_id: 1,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(suite.owner).fail('teamMember/save', { team_id, member_username: { $ne: '' } }))
        .error_code,
    ).toBe(10101);
    await as(suite.owner).ok('teamMember/save', {
      team_id,
      member_username: member.username,
      team_member_group_id: 2,
    });
    expect(
      (await TeamMember.findOne({ team_id, member_uid: member.uid }).lean())!.team_member_group_id,
    ).toBe(2);
    expect(await TeamMember.countDocuments({ team_id })).toBe(2);
  });

  test('delete: managers remove a member and their item access; ordinary members 10103; unknown ids 10101', async () => {
    const { team_id, admin, member } = await makeStaffedTeam(suite.owner);
    const { item_id } = await makeItem(suite.owner);
    await bindTeamItem(team_id, item_id, suite.owner);
    const row = await TeamMember.findOne({ team_id, member_uid: member.uid }).lean();
    const adminRow = await TeamMember.findOne({ team_id, member_uid: admin.uid }).lean();
    expect((await as(member).fail('teamMember/delete', { id: adminRow!.id })).error_code).toBe(
      10103,
    );
    expect((await as(suite.owner).fail('teamMember/delete', { id: 0 })).error_code).toBe(10101);
    expect(await TeamMember.countDocuments({ team_id })).toBe(2);
    expect(await as(admin).ok('teamMember/delete', { id: row!.id })).toEqual({ success: true });
    expect(await TeamMember.exists({ id: row!.id })).toBeNull();
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).toBeNull();
  });
});
