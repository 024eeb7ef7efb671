/**
 * Items bound to teams (`team_item`) and each team member's access to them
 * (`team_item_member`, reference accounts §9.18). Binding needs team manage and item manage on
 * every item; unbinding and per-member authority need team manage. Item-level settings of an
 * archived item (bindings, authorities) are refused like every other write to it.
 */
import { requireAction, itemAccess, readOnlyMessage, type Actor } from '../access';
import { Item, type ItemDoc, itemRow, type ItemRow, logChange } from '../items';
import { errors, events, formatUnix, nextId, nowSeconds } from '../platform';
import { catalogLabels, checkMemberGroup, validTopCatalogs } from './members';
import { Team, type TeamDoc } from './schemas/team';
import { TeamItem } from './schemas/teamItem';
import { TeamItemMember, type TeamItemMemberDoc } from './schemas/teamItemMember';
import { TeamMember } from './schemas/teamMember';
import { User } from '../accounts';
import { grantTeamItemAccess, requireTeamManage, requireTeamView } from './teams';

const MAX_ITEMS_PER_CALL = 100;

/**
 * Binds items to a team. Every item is checked before anything is written (ShowDoc bound the
 * first ones and then failed half-way); already-bound items are skipped; 10103 when nothing new.
 */
export async function bindTeamItems(
  actor: Actor,
  teamId: number,
  itemIds: number[],
): Promise<{ id: number }> {
  const access = await requireTeamManage(actor, teamId);
  const ids = [...new Set(itemIds.filter((n) => n > 0))];
  if (!ids.length) throw errors.failed('item_id is required');
  if (ids.length > MAX_ITEMS_PER_CALL)
    throw errors.failed(`At most ${MAX_ITEMS_PER_CALL} items at once`);
  for (const id of ids) await requireAction(actor, 'member.manage', id);
  const members = await TeamMember.find(
    { team_id: teamId },
    { member_uid: 1, member_username: 1, _id: 0 },
  ).lean();
  const users = members.map((m) => ({ uid: m.member_uid, username: m.member_username }));
  let lastId = 0;
  for (const itemId of ids) {
    if (await TeamItem.exists({ team_id: teamId, item_id: itemId })) continue;
    const id = await nextId('team_item_id');
    const now = nowSeconds();
    try {
      await TeamItem.create({
        id,
        team_id: teamId,
        item_id: itemId,
        addtime: now,
        last_update_time: now,
      });
    } catch (error) {
      if ((error as { code?: unknown }).code === 11000) continue; // bound concurrently
      throw error;
    }
    lastId = id;
    await grantTeamItemAccess(teamId, itemId, users);
    await logChange({
      uid: actor.uid,
      itemId,
      action: 'binding',
      object: 'team',
      objectId: teamId,
      objectName: access.team.team_name,
    });
    if (users.length)
      events.publish('membership.changed', {
        itemId,
        uids: users.map((u) => u.uid),
        change: 'added',
        byUid: actor.uid,
      });
  }
  if (!lastId) throw errors.noPermission('These items are already bound to the team');
  return { id: lastId };
}

/** Teams bound to an item (item manager role). `id` is the binding's id. */
export async function teamsOfItem(actor: Actor, itemId: number) {
  await requireAction(actor, 'member.list', itemId);
  const bindings = await TeamItem.find({ item_id: itemId }, { _id: 0 }).sort({ id: 1 }).lean();
  const teams = await Team.find({ id: { $in: bindings.map((b) => b.team_id) } }, { _id: 0 }).lean<
    TeamDoc[]
  >();
  const byId = new Map(teams.map((t) => [t.id, t]));
  return bindings.flatMap((b) => {
    const team = byId.get(b.team_id);
    if (!team) return [];
    return [
      {
        id: String(b.id),
        team_id: String(team.id),
        item_id: String(itemId),
        team_name: team.team_name,
        uid: String(team.uid),
        username: team.username,
        addtime: formatUnix(team.addtime),
        last_update_time: String(team.last_update_time ?? 0),
      },
    ];
  });
}

/** Live items bound to a team (team manager or member): item rows (no password) + binding id. */
export async function itemsOfTeam(
  actor: Actor,
  teamId: number,
): Promise<(Omit<ItemRow, 'addtime'> & { id: string; team_id: string; addtime: string })[]> {
  await requireTeamView(actor, teamId);
  const bindings = await TeamItem.find({ team_id: teamId }, { _id: 0 }).sort({ id: 1 }).lean();
  const items = await Item.find({
    item_id: { $in: bindings.map((b) => b.item_id) },
    is_del: 0,
  }).lean<ItemDoc[]>();
  const byId = new Map(items.map((i) => [i.item_id, i]));
  return bindings.flatMap((b) => {
    const item = byId.get(b.item_id);
    if (!item) return [];
    return [
      {
        ...itemRow(item),
        id: String(b.id),
        team_id: String(teamId),
        addtime: formatUnix(item.addtime),
      },
    ];
  });
}

/** Refuses binding changes on archived items (reading them is fine). */
async function refuseIfArchived(itemId: number): Promise<void> {
  const item = await Item.findOne({ item_id: itemId }, { is_archived: 1, is_del: 1 }).lean();
  if (item?.is_archived === 1 && !item.is_del)
    throw errors.noEditPermission('This item is archived and read-only');
}

/** Unbinds (by team_item id): team manage; the team's members lose access through it. */
export async function unbindTeamItem(actor: Actor, bindingId: number): Promise<void> {
  const binding =
    bindingId > 0 ? await TeamItem.findOne({ id: bindingId }, { _id: 0 }).lean() : null;
  if (!binding) throw errors.failed('Binding not found');
  const access = await requireTeamManage(actor, binding.team_id);
  await refuseIfArchived(binding.item_id);
  const rows = await TeamItemMember.find(
    { team_id: binding.team_id, item_id: binding.item_id },
    { member_uid: 1, _id: 0 },
  ).lean();
  await TeamItemMember.deleteMany({ team_id: binding.team_id, item_id: binding.item_id });
  await TeamItem.deleteOne({ id: bindingId });
  await logChange({
    uid: actor.uid,
    itemId: binding.item_id,
    action: 'unbound',
    object: 'team',
    objectId: binding.team_id,
    objectName: access.team.team_name,
  });
  if (rows.length)
    events.publish('membership.changed', {
      itemId: binding.item_id,
      uids: rows.map((r) => r.member_uid),
      change: 'removed',
      byUid: actor.uid,
    });
}

/** The team's members' rows on one item (team manage). */
export async function teamItemMembers(actor: Actor, itemId: number, teamId: number) {
  await requireTeamManage(actor, teamId);
  const rows = await TeamItemMember.find({ team_id: teamId, item_id: itemId }, { _id: 0 })
    .sort({ addtime: 1, id: 1 })
    .lean<TeamItemMemberDoc[]>();
  const users = await User.find(
    { uid: { $in: rows.map((r) => r.member_uid) } },
    { uid: 1, name: 1, _id: 0 },
  ).lean();
  const names = new Map(users.map((u) => [u.uid, u.name ?? '']));
  const labels = await catalogLabels(rows);
  return rows.map((r, i) => ({
    id: String(r.id),
    team_id: String(r.team_id),
    item_id: String(r.item_id),
    member_group_id: String(r.member_group_id),
    member_uid: String(r.member_uid),
    member_username: r.member_username,
    addtime: formatUnix(r.addtime),
    last_update_time: String(r.last_update_time ?? 0),
    cat_id: String(r.cat_id ?? 0),
    cat_ids: r.cat_ids?.length ? r.cat_ids : r.cat_id ? [r.cat_id] : [],
    cat_name: labels[i],
    name: names.get(r.member_uid) ?? '',
  }));
}

export interface TeamItemMemberChange {
  member_group_id?: number;
  cat_id?: number;
  cat_ids?: number[];
}

/**
 * Sets one team member's authority and/or catalog restriction on one item (team manage; not on
 * archived items). Only the fields given change; false when no row was updated, null when
 * nothing was given. Item admins (2) are never restricted.
 */
export async function updateTeamItemMember(
  actor: Actor,
  rowId: number,
  change: TeamItemMemberChange,
): Promise<boolean | null> {
  const row =
    rowId > 0
      ? await TeamItemMember.findOne({ id: rowId }, { _id: 0 }).lean<TeamItemMemberDoc>()
      : null;
  if (!row) throw errors.failed('Team item member not found');
  await requireTeamManage(actor, row.team_id);
  const access = await itemAccess(actor, row.item_id);
  if (!access) throw errors.failed('Item not found');
  if (access.readOnly) throw errors.noEditPermission(readOnlyMessage(access));
  const set: Partial<TeamItemMemberDoc> = {};
  const group =
    change.member_group_id !== undefined
      ? checkMemberGroup(change.member_group_id)
      : row.member_group_id;
  if (change.member_group_id !== undefined) set.member_group_id = group;
  if (change.cat_ids !== undefined || change.cat_id !== undefined) {
    const ids = await validTopCatalogs(
      row.item_id,
      [...(change.cat_ids ?? []), ...(change.cat_id ? [change.cat_id] : [])],
      group,
    );
    set.cat_ids = ids;
    set.cat_id = ids[0] ?? 0;
  } else if (group === 2 && (row.cat_ids?.length || row.cat_id)) {
    set.cat_ids = [];
    set.cat_id = 0;
  }
  if (!Object.keys(set).length) return null;
  set.last_update_time = nowSeconds();
  const result = await TeamItemMember.updateOne({ id: rowId }, { $set: set });
  if (result.matchedCount)
    events.publish('membership.changed', {
      itemId: row.item_id,
      uids: [row.member_uid],
      change: 'updated',
      byUid: actor.uid,
    });
  return result.matchedCount > 0;
}
