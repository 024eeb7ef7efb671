/**
 * Teams and their members (`team`, `team_member`, reference accounts §9.18). A team is a set of
 * users bound to a set of items (models/teamItems.ts); every team member gets a
 * `team_item_member` row per bound item, which is what models/access.ts reads.
 *
 * Roles: the creator owns the team (only they delete or transfer it); a team admin
 * (`team_member_group_id` 2) and site admins may manage it (rename, members, items, authorities).
 */
import { isSiteAdmin, type Actor } from '../access';
import { errors, events, formatUnix, nextId, nowSeconds } from '../platform';
import { findUserByNameOrEmail, Item } from '../items';
import { checkMemberQuota } from './members';
import { Team, type TeamDoc } from './schemas/team';
import { TeamItem } from './schemas/teamItem';
import { TeamItemMember } from './schemas/teamItemMember';
import { TEAM_ADMIN, TEAM_MEMBER, TeamMember, type TeamMemberDoc } from './schemas/teamMember';
import { User, verifyPassword } from '../accounts';

export const MAX_TEAM_NAME = 100;
/** Authority a new team member gets on the team's items (ShowDoc: edit). */
const DEFAULT_ITEM_AUTHORITY = 1;

export interface TeamAccess {
  team: TeamDoc;
  creator: boolean;
  /** Creator, team admin or site admin. */
  manage: boolean;
  member: boolean;
}

export async function teamAccess(actor: Actor, teamId: number): Promise<TeamAccess | null> {
  if (!(teamId > 0)) return null;
  const team = await Team.findOne({ id: teamId }, { _id: 0 }).lean<TeamDoc>();
  if (!team) return null;
  const creator = actor.uid > 0 && team.uid === actor.uid;
  const row =
    actor.uid > 0
      ? await TeamMember.findOne(
          { team_id: teamId, member_uid: actor.uid },
          { team_member_group_id: 1 },
        ).lean()
      : null;
  return {
    team,
    creator,
    manage: creator || isSiteAdmin(actor) || row?.team_member_group_id === TEAM_ADMIN,
    member: Boolean(row),
  };
}

/** The team if the actor may manage it (10103 otherwise, as ShowDoc answers). */
export async function requireTeamManage(actor: Actor, teamId: number): Promise<TeamAccess> {
  const access = await teamAccess(actor, teamId);
  if (!access || !access.manage) throw errors.noPermission('No permission to manage this team');
  return access;
}

/** The team if the actor manages it or belongs to it. */
export async function requireTeamView(actor: Actor, teamId: number): Promise<TeamAccess> {
  const access = await teamAccess(actor, teamId);
  if (!access || !(access.manage || access.member))
    throw errors.noPermission('No permission to view this team');
  return access;
}

export interface TeamRow {
  id: string;
  team_name: string;
  uid: string;
  username: string;
  addtime: string;
  last_update_time: string;
}

function teamRow(team: TeamDoc, formatted: boolean): TeamRow {
  return {
    id: String(team.id),
    team_name: team.team_name,
    uid: String(team.uid),
    username: team.username,
    addtime: formatted ? formatUnix(team.addtime) : String(team.addtime),
    last_update_time: String(team.last_update_time ?? 0),
  };
}

/** Teams the caller created or belongs to, newest first, with counts and the manage flag. */
export async function listTeams(
  actor: Actor,
): Promise<(TeamRow & { memberCount: number; itemCount: number; team_manage: number })[]> {
  const memberships = await TeamMember.find(
    { member_uid: actor.uid },
    { team_id: 1, team_member_group_id: 1, _id: 0 },
  ).lean();
  const adminOf = new Set(
    memberships.filter((m) => m.team_member_group_id === TEAM_ADMIN).map((m) => m.team_id),
  );
  const teams = await Team.find(
    { $or: [{ uid: actor.uid }, { id: { $in: memberships.map((m) => m.team_id) } }] },
    { _id: 0 },
  )
    .sort({ addtime: -1, id: -1 })
    .lean<TeamDoc[]>();
  return Promise.all(
    teams.map(async (team) => {
      const [memberCount, itemIds] = await Promise.all([
        TeamMember.countDocuments({ team_id: team.id }),
        TeamItem.find({ team_id: team.id }, { item_id: 1, _id: 0 }).lean(),
      ]);
      const itemCount = itemIds.length
        ? await Item.countDocuments({ item_id: { $in: itemIds.map((r) => r.item_id) }, is_del: 0 })
        : 0;
      const manage = team.uid === actor.uid || adminOf.has(team.id) || isSiteAdmin(actor);
      return { ...teamRow(team, true), memberCount, itemCount, team_manage: manage ? 1 : 0 };
    }),
  );
}

function checkTeamName(raw: string): string {
  const name = raw.trim();
  if (!name) throw errors.failed('Team name is required');
  if (name.length > MAX_TEAM_NAME)
    throw errors.failed(`Team name must be at most ${MAX_TEAM_NAME} characters`);
  return name;
}

/** Creates a team owned by the caller (id 0) or renames one they manage. Returns the raw row. */
export async function saveTeam(
  actor: Actor,
  input: { id: number; team_name: string },
): Promise<TeamRow> {
  const name = checkTeamName(input.team_name);
  const now = nowSeconds();
  if (input.id > 0) {
    await requireTeamManage(actor, input.id);
    const updated = await Team.findOneAndUpdate(
      { id: input.id },
      { $set: { team_name: name, last_update_time: now } },
      { returnDocument: 'after', lean: true, projection: { _id: 0 } },
    );
    if (!updated) throw errors.noPermission('Team not found');
    return teamRow(updated as TeamDoc, false);
  }
  const team = await Team.create({
    id: await nextId('team_id'),
    team_name: name,
    uid: actor.uid,
    username: actor.username,
    addtime: now,
    last_update_time: now,
  });
  return teamRow(team.toObject(), false);
}

/** Publishes one membership change per item for the users who gained or lost access. */
function announce(
  itemIds: Iterable<number>,
  uids: number[],
  change: 'added' | 'removed' | 'updated',
  byUid: number,
): void {
  if (!uids.length) return;
  for (const itemId of new Set(itemIds))
    events.publish('membership.changed', { itemId, uids, change, byUid });
}

/** Deletes a team with its members and item bindings (creator or site admin). */
export async function deleteTeam(actor: Actor, teamId: number): Promise<void> {
  const access = await teamAccess(actor, teamId);
  if (!access || !(access.creator || isSiteAdmin(actor)))
    throw errors.noPermission('Only the team creator can delete the team');
  const rows = await TeamItemMember.find(
    { team_id: teamId },
    { item_id: 1, member_uid: 1, _id: 0 },
  ).lean();
  await TeamItemMember.deleteMany({ team_id: teamId });
  await TeamItem.deleteMany({ team_id: teamId });
  await TeamMember.deleteMany({ team_id: teamId });
  await Team.deleteOne({ id: teamId });
  const byItem = new Map<number, number[]>();
  for (const r of rows) byItem.set(r.item_id, [...(byItem.get(r.item_id) ?? []), r.member_uid]);
  for (const [itemId, uids] of byItem) announce([itemId], uids, 'removed', actor.uid);
}

/**
 * Gives the team to another user (creator only, with the caller's own password). The bound items
 * the creator owns move with it; items other people own stay theirs (ShowDoc moved every bound
 * item, handing over items the creator never owned).
 */
export async function transferTeam(
  actor: Actor,
  teamId: number,
  targetName: string,
  password: string,
): Promise<void> {
  const access = await teamAccess(actor, teamId);
  if (!access || !access.creator) throw errors.failed('Team not found, or you are not its creator');
  const user = await User.findOne({ uid: actor.uid }, { password: 1, salt: 1 }).lean();
  if (!password || !user || !(await verifyPassword(user, password)))
    throw errors.confirmPasswordWrong('Wrong password');
  const target = await findUserByNameOrEmail(targetName);
  if (!target) throw errors.targetUserNotFound('User not found');
  await Team.updateOne(
    { id: teamId },
    { $set: { uid: target.uid, username: target.username, last_update_time: nowSeconds() } },
  );
  const bound = await TeamItem.find({ team_id: teamId }, { item_id: 1, _id: 0 }).lean();
  const moved = await Item.find(
    {
      item_id: { $in: bound.map((b) => b.item_id) },
      uid: actor.uid,
      is_del: 0,
      is_archived: { $ne: 1 },
    },
    { item_id: 1, _id: 0 },
  ).lean();
  if (moved.length) {
    await Item.updateMany(
      { item_id: { $in: moved.map((m) => m.item_id) }, uid: actor.uid },
      { $set: { uid: target.uid, username: target.username } },
    );
    for (const { item_id } of moved) {
      events.publish('item.changed', { itemId: item_id, change: 'transferred', byUid: actor.uid });
      announce([item_id], [actor.uid, target.uid], 'updated', actor.uid);
    }
  }
}

/** Leaves a team: the caller's membership and item access through it. Always succeeds. */
export async function exitTeam(actor: Actor, teamId: number): Promise<void> {
  const rows = await TeamItemMember.find(
    { team_id: teamId, member_uid: actor.uid },
    { item_id: 1, _id: 0 },
  ).lean();
  await TeamItemMember.deleteMany({ team_id: teamId, member_uid: actor.uid });
  await TeamMember.deleteMany({ team_id: teamId, member_uid: actor.uid });
  announce(
    rows.map((r) => r.item_id),
    [actor.uid],
    'removed',
    actor.uid,
  );
}

export interface TeamMemberRow {
  id: string;
  team_id: string;
  member_uid: string;
  member_username: string;
  team_member_group_id: string;
  addtime: string;
  last_update_time: string;
  name: string;
}

export async function listTeamMembers(actor: Actor, teamId: number): Promise<TeamMemberRow[]> {
  await requireTeamView(actor, teamId);
  const rows = await TeamMember.find({ team_id: teamId }, { _id: 0 })
    .sort({ addtime: -1, id: -1 })
    .lean<TeamMemberDoc[]>();
  const users = await User.find(
    { uid: { $in: rows.map((r) => r.member_uid) } },
    { uid: 1, name: 1, _id: 0 },
  ).lean();
  const names = new Map(users.map((u) => [u.uid, u.name ?? '']));
  return rows.map((r) => ({
    id: String(r.id),
    team_id: String(r.team_id),
    member_uid: String(r.member_uid),
    member_username: r.member_username,
    team_member_group_id: String(r.team_member_group_id),
    addtime: formatUnix(r.addtime),
    last_update_time: String(r.last_update_time ?? 0),
    name: names.get(r.member_uid) ?? '',
  }));
}

/**
 * Adds a user to the team (team manage) and gives them edit access to every item the team is
 * bound to. An existing member with a different role gets the new role (ShowDoc had no way to
 * change a role); the same role again is refused.
 */
export async function addTeamMember(
  actor: Actor,
  teamId: number,
  username: string,
  role: number,
): Promise<{ id: number }> {
  const access = await requireTeamManage(actor, teamId);
  if (role !== TEAM_MEMBER && role !== TEAM_ADMIN)
    throw errors.failed('team_member_group_id must be 1 or 2');
  const target = await findUserByNameOrEmail(username);
  if (!target) throw errors.targetUserNotFound('User not found');
  const existing = await TeamMember.findOne(
    { team_id: teamId, member_uid: target.uid },
    { id: 1, team_member_group_id: 1 },
  ).lean();
  const now = nowSeconds();
  if (existing) {
    if (existing.team_member_group_id === role)
      throw errors.failed('This user is already a member of the team');
    await TeamMember.updateOne(
      { id: existing.id },
      { $set: { team_member_group_id: role, last_update_time: now } },
    );
    return { id: existing.id };
  }
  await checkMemberQuota(access.team.uid, target.uid);
  const id = await nextId('team_member_id');
  try {
    await TeamMember.create({
      id,
      team_id: teamId,
      member_uid: target.uid,
      member_username: target.username,
      team_member_group_id: role,
      addtime: now,
      last_update_time: now,
    });
  } catch (error) {
    if ((error as { code?: unknown }).code === 11000)
      throw errors.failed('This user is already a member of the team');
    throw error;
  }
  const bound = await TeamItem.find({ team_id: teamId }, { item_id: 1, _id: 0 }).lean();
  for (const { item_id } of bound) await grantTeamItemAccess(teamId, item_id, [target]);
  announce(
    bound.map((b) => b.item_id),
    [target.uid],
    'added',
    actor.uid,
  );
  return { id };
}

/** Adds team_item_member rows (edit authority) for these users on one item, skipping existing ones. */
export async function grantTeamItemAccess(
  teamId: number,
  itemId: number,
  users: { uid: number; username: string }[],
): Promise<void> {
  const now = nowSeconds();
  for (const user of users) {
    if (await TeamItemMember.exists({ team_id: teamId, item_id: itemId, member_uid: user.uid }))
      continue;
    await TeamItemMember.create({
      id: await nextId('team_item_member_id'),
      team_id: teamId,
      item_id: itemId,
      member_group_id: DEFAULT_ITEM_AUTHORITY,
      member_uid: user.uid,
      member_username: user.username,
      addtime: now,
      last_update_time: now,
      cat_id: 0,
      cat_ids: [],
    });
  }
}

/** Removes a member (by team_member id) and their access to the team's items (team manage). */
export async function removeTeamMember(actor: Actor, memberRowId: number): Promise<void> {
  const row =
    memberRowId > 0
      ? await TeamMember.findOne({ id: memberRowId }, { team_id: 1, member_uid: 1 }).lean()
      : null;
  if (!row) throw errors.failed('Team member not found');
  await requireTeamManage(actor, row.team_id);
  const items = await TeamItemMember.find(
    { team_id: row.team_id, member_uid: row.member_uid },
    { item_id: 1, _id: 0 },
  ).lean();
  await TeamItemMember.deleteMany({ team_id: row.team_id, member_uid: row.member_uid });
  await TeamMember.deleteOne({ id: memberRowId });
  announce(
    items.map((i) => i.item_id),
    [row.member_uid],
    'removed',
    actor.uid,
  );
}
