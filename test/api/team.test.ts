/**
 * team/* and teamMember/* over real HTTP: creator, team admin and ordinary member rights,
 * transfer, leaving, and how team membership reaches the team's items.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { Team } from '../../models/members/schemas/team';
import { TeamItem } from '../../models/members/schemas/teamItem';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { TeamMember } from '../../models/members/schemas/teamMember';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { addTeamMember, bindTeamItem, makeItem, makeTeam } from '../helpers/factories';

let server: TestServer;
let creator: TestUser;
let stranger: TestUser;
const as = (user: TestUser) => server.api.withToken(user.user_token);

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  creator = await makeUser();
  stranger = await makeUser();
});
afterAll(async () => {
  await server.stop();
});

/** A team of `creator` with a team admin and an ordinary member. */
async function staffedTeam() {
  const team = await makeTeam(creator);
  const admin = await makeUser();
  const member = await makeUser();
  await addTeamMember(team.team_id, admin, 2);
  await addTeamMember(team.team_id, member, 1);
  return { ...team, admin, member };
}

describe('team/save and team/getList', () => {
  test('anonymous → 10102; an empty or oversize name or operator objects → 10101; nothing stored', async () => {
    const before = await Team.countDocuments({});
    expect((await server.api.fail('team/save', { team_name: 'T' })).error_code).toBe(10102);
    for (const team_name of ['  ', 'x'.repeat(101), { $ne: '' }])
      expect((await as(creator).fail('team/save', { team_name } as never)).error_code).toBe(10101);
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
    expect(await as(stranger).ok('team/getList')).toEqual([]);
  });

  test('renaming: creator and team admin may, ordinary members and strangers get 10103', async () => {
    const { team_id, admin, member } = await staffedTeam();
    expect(
      (await as(member).fail('team/save', { id: team_id, team_name: 'Nope' })).error_code,
    ).toBe(10103);
    expect(
      (await as(stranger).fail('team/save', { id: team_id, team_name: 'Nope' })).error_code,
    ).toBe(10103);
    await as(admin).ok('team/save', { id: team_id, team_name: 'By admin' });
    expect((await Team.findOne({ id: team_id }).lean())!.team_name).toBe('By admin');
  });
});

describe('team/delete', () => {
  test('only the creator deletes (team admins 10103); members, bindings and item access go with it', async () => {
    const { team_id, admin, member } = await staffedTeam();
    const { item_id } = await makeItem(creator);
    await bindTeamItem(team_id, item_id, creator);
    expect((await as(admin).fail('team/delete', { id: team_id })).error_code).toBe(10103);
    expect((await as(member).fail('team/delete', { id: team_id })).error_code).toBe(10103);
    expect(await Team.exists({ id: team_id })).not.toBeNull();
    expect(await as(creator).ok('team/delete', { id: team_id })).toEqual({ success: true });
    expect(await Team.exists({ id: team_id })).toBeNull();
    expect(await TeamMember.countDocuments({ team_id })).toBe(0);
    expect(await TeamItem.countDocuments({ team_id })).toBe(0);
    expect(await TeamItemMember.countDocuments({ team_id })).toBe(0);
    expect((await as(member).fail('item/getChangeLog', { item_id })).error_code).toBe(10101);
  });
});

describe('team/attorn', () => {
  test('only the creator, with their own password; unknown users 10209; nothing moves on failure', async () => {
    const { team_id, admin } = await staffedTeam();
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
        await as(creator).fail('team/attorn', {
          team_id,
          username: target.username,
          password: 'wrong',
        })
      ).error_code,
    ).toBe(10208);
    expect(
      (
        await as(creator).fail('team/attorn', {
          team_id,
          username: 'nobody_at_all',
          password: creator.password,
        })
      ).error_code,
    ).toBe(10209);
    expect((await Team.findOne({ id: team_id }).lean())!.uid).toBe(creator.uid);
  });

  test('moves the team and the bound items the creator owns — never items owned by someone else', async () => {
    const { team_id, admin } = await staffedTeam();
    const target = await makeUser();
    const { item_id: mine } = await makeItem(creator);
    const { item_id: theirs } = await makeItem(admin);
    await bindTeamItem(team_id, mine, creator);
    await bindTeamItem(team_id, theirs, admin);
    expect(
      await as(creator).ok('team/attorn', {
        team_id,
        username: target.username,
        password: creator.password,
      }),
    ).toEqual([]);
    expect((await Team.findOne({ id: team_id }).lean())!.uid).toBe(target.uid);
    expect((await Item.findOne({ item_id: mine }).lean())!.uid).toBe(target.uid);
    expect((await Item.findOne({ item_id: theirs }).lean())!.uid).toBe(admin.uid);
  });
});

describe('team/exitTeam', () => {
  test("a member leaves the team and loses the team's items; always answers []", async () => {
    const { team_id, member } = await staffedTeam();
    const { item_id } = await makeItem(creator);
    await bindTeamItem(team_id, item_id, creator);
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).not.toBeNull();
    expect(await as(member).ok('team/exitTeam', { id: team_id })).toEqual([]);
    expect(await TeamMember.exists({ team_id, member_uid: member.uid })).toBeNull();
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).toBeNull();
    expect(await as(stranger).ok('team/exitTeam', { id: team_id })).toEqual([]);
    expect((await server.api.fail('team/exitTeam', { id: team_id })).error_code).toBe(10102);
  });
});

describe('teamMember/*', () => {
  test('getList: managers and members see the members, newest first; strangers 10103', async () => {
    const { team_id, admin, member } = await staffedTeam();
    expect((await as(stranger).fail('teamMember/getList', { team_id })).error_code).toBe(10103);
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
    const { team_id, admin, member } = await staffedTeam();
    const { item_id } = await makeItem(creator);
    await bindTeamItem(team_id, item_id, creator);
    const newcomer = await makeUser();
    expect(
      (await as(member).fail('teamMember/save', { team_id, member_username: newcomer.username }))
        .error_code,
    ).toBe(10103);
    expect(
      (await as(stranger).fail('teamMember/save', { team_id, member_username: newcomer.username }))
        .error_code,
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
    const { team_id, member } = await staffedTeam();
    expect(
      (await as(creator).fail('teamMember/save', { team_id, member_username: 'ghost_user_1' }))
        .error_code,
    ).toBe(10209);
    expect(
      (
        await as(creator).fail('teamMember/save', {
          team_id,
          member_username: member.username,
          team_member_group_id: 3,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (
        await as(creator).fail('teamMember/save', {
          team_id,
          member_username: member.username,
          team_member_group_id: 1,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      (await as(creator).fail('teamMember/save', { team_id, member_username: { $ne: '' } }))
        .error_code,
    ).toBe(10101);
    await as(creator).ok('teamMember/save', {
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
    const { team_id, admin, member } = await staffedTeam();
    const { item_id } = await makeItem(creator);
    await bindTeamItem(team_id, item_id, creator);
    const row = await TeamMember.findOne({ team_id, member_uid: member.uid }).lean();
    const adminRow = await TeamMember.findOne({ team_id, member_uid: admin.uid }).lean();
    expect((await as(member).fail('teamMember/delete', { id: adminRow!.id })).error_code).toBe(
      10103,
    );
    expect((await as(creator).fail('teamMember/delete', { id: 0 })).error_code).toBe(10101);
    expect(await TeamMember.countDocuments({ team_id })).toBe(2);
    expect(await as(admin).ok('teamMember/delete', { id: row!.id })).toEqual({ success: true });
    expect(await TeamMember.exists({ id: row!.id })).toBeNull();
    expect(await TeamItemMember.exists({ item_id, member_uid: member.uid })).toBeNull();
  });
});
