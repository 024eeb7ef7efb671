/**
 * Test data built through the same model functions the API uses (so the rules and events apply):
 * items, members, teams. Needs a running test server in this process (its database).
 *
 * Stable signatures: other suites (pages, catalogs, realtime) rely on makeItem and addMember.
 */
import type { Actor } from '../../models/access';
import { createItem } from '../../models/items/items';
import { addMembers } from '../../models/members/members';
import { Item } from '../../models/items/schemas/item';
import { ItemMember } from '../../models/members/schemas/itemMember';
import { Team } from '../../models/members/schemas/team';
import { TeamItemMember } from '../../models/members/schemas/teamItemMember';
import { User } from '../../models/accounts/schemas/user';
import { bindTeamItems, updateTeamItemMember } from '../../models/members/teamItems';
import { addTeamMember as addTeamMemberModel, saveTeam } from '../../models/members/teams';
import { makeUser, type TestUser } from './users';

/** The Actor of a test user (reads its group, so admins made by makeUser({admin}) act as admins). */
export async function actorOf(user: Pick<TestUser, 'uid' | 'username'>): Promise<Actor> {
  const row = await User.findOne({ uid: user.uid }, { groupid: 1 }).lean();
  return { uid: user.uid, username: user.username, groupid: row?.groupid ?? 2 };
}

export interface MakeItemOptions {
  item_name?: string;
  /** 1 regular (default), 2 single page, 4 spreadsheet. */
  item_type?: number;
  /** Plain visit password: the item is private when set. */
  password?: string;
  item_domain?: string;
  item_description?: string;
}

let itemCounter = 0;

/** An item owned by `owner`, made by models/items/items.ts createItem. */
export async function makeItem(
  owner: TestUser,
  opts: MakeItemOptions = {},
): Promise<{ item_id: number; item_name: string }> {
  const item_name = opts.item_name ?? `Item ${++itemCounter}`;
  const { item_id } = await createItem(await actorOf(owner), {
    item_name,
    item_type: opts.item_type,
    password: opts.password,
    item_domain: opts.item_domain,
    item_description: opts.item_description,
  });
  return { item_id, item_name };
}

/**
 * Makes `user` a personal member of the item (0 read-only, 1 edit, 2 item admin), optionally
 * restricted to top-level catalogs of the item (ids that are not are dropped). Added by the
 * item's owner. Returns the item_member_id.
 */
export async function addMember(
  itemId: number,
  user: TestUser,
  memberGroupId: 0 | 1 | 2,
  catIds: number[] = [],
): Promise<number> {
  const item = await Item.findOne({ item_id: itemId }, { uid: 1, username: 1 }).lean();
  if (!item) throw new Error(`addMember: item ${itemId} not found`);
  const owner = await actorOf({ uid: item.uid, username: item.username });
  const { id } = await addMembers(owner, itemId, {
    usernames: [user.username],
    member_group_id: memberGroupId,
    cat_ids: catIds,
  });
  const row = await ItemMember.findOne({ item_member_id: id }, { cat_ids: 1 }).lean();
  if ((row?.cat_ids.length ?? 0) !== new Set(catIds).size)
    throw new Error(
      `addMember: some of ${catIds.join(',')} are not top-level catalogs of item ${itemId}`,
    );
  return id;
}

/** A team created by `owner` (models/members/teams.ts saveTeam). */
export async function makeTeam(
  owner: TestUser,
  teamName = `Team ${++itemCounter}`,
): Promise<{ team_id: number; team_name: string }> {
  const row = await saveTeam(await actorOf(owner), { id: 0, team_name: teamName });
  return { team_id: Number(row.id), team_name: teamName };
}

/** Adds `user` to the team (1 member, 2 team admin), as the team's creator. Returns the team_member id. */
export async function addTeamMember(
  teamId: number,
  user: TestUser,
  role: 1 | 2 = 1,
): Promise<number> {
  const team = await Team.findOne({ id: teamId }, { uid: 1, username: 1 }).lean();
  if (!team) throw new Error(`addTeamMember: team ${teamId} not found`);
  const { id } = await addTeamMemberModel(
    await actorOf({ uid: team.uid, username: team.username }),
    teamId,
    user.username,
    role,
  );
  return id;
}

/** A team created by `creator` with a fresh team admin (role 2) and a fresh member (role 1). */
export async function makeStaffedTeam(creator: TestUser) {
  const team = await makeTeam(creator);
  const admin = await makeUser();
  const member = await makeUser();
  await addTeamMember(team.team_id, admin, 2);
  await addTeamMember(team.team_id, member, 1);
  return { ...team, admin, member };
}

/** Binds an item to a team, acting as `by` (who must manage both). Returns the team_item id. */
export async function bindTeamItem(teamId: number, itemId: number, by: TestUser): Promise<number> {
  const { id } = await bindTeamItems(await actorOf(by), teamId, [itemId]);
  return id;
}

/** Sets a team member's authority / catalogs on one item directly (by the team creator). */
export async function setTeamItemAuthority(
  teamId: number,
  itemId: number,
  user: TestUser,
  memberGroupId: 0 | 1 | 2,
  catIds?: number[],
): Promise<void> {
  const row = await TeamItemMember.findOne(
    { team_id: teamId, item_id: itemId, member_uid: user.uid },
    { id: 1 },
  ).lean();
  const team = await Team.findOne({ id: teamId }, { uid: 1, username: 1 }).lean();
  if (!row || !team) throw new Error('setTeamItemAuthority: no such team item member');
  await updateTeamItemMember(await actorOf({ uid: team.uid, username: team.username }), row.id, {
    member_group_id: memberGroupId,
    cat_ids: catIds,
  });
}

/** A fresh owner and a fresh edit member (member_group_id 1) of a new item made with `opts`. */
export async function makeEditedItem(
  opts: MakeItemOptions = {},
  users: { owner?: Parameters<typeof makeUser>[0]; editor?: Parameters<typeof makeUser>[0] } = {},
): Promise<{ owner: TestUser; editor: TestUser; itemId: number }> {
  const [owner, editor] = await Promise.all([makeUser(users.owner), makeUser(users.editor)]);
  const { item_id: itemId } = await makeItem(owner, opts);
  await addMember(itemId, editor, 1);
  return { owner, editor, itemId };
}

/** A fresh owner's new item (made with `opts`) with a fresh edit member and a fresh reader. */
export async function makeSharedItem(
  opts: MakeItemOptions = {},
): Promise<{ owner: TestUser; editor: TestUser; reader: TestUser; itemId: number }> {
  const [owner, editor, reader] = await Promise.all([makeUser(), makeUser(), makeUser()]);
  const { item_id: itemId } = await makeItem(owner, opts);
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
  return { owner, editor, reader, itemId };
}
