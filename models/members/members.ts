/**
 * Personal item members (`item_member`, reference accounts §9.17): who besides the owner may
 * read (0), edit (1) or manage (2) an item, optionally limited to some top-level catalogs.
 * Writes need item manage (refused on archived items), publish `membership.changed` with the
 * affected uids, and leave a change-log row (binding / unbound member).
 */
import { requireAction, type Actor } from '../access';
import { findUserByNameOrEmail, Item, logChange } from '../items';
import { errors, events, formatUnix, nextId, nowSeconds } from '../platform';
import { getSiteSettings } from '../settings';
import { Catalog, TOP_LEVEL } from '../catalogs';
import { ItemMember, MEMBER_ADMIN, type ItemMemberDoc } from './schemas/itemMember';
import { Team } from './schemas/team';
import { TeamItemMember } from './schemas/teamItemMember';
import { TeamMember } from './schemas/teamMember';
import { User } from '../accounts';

export const MEMBER_GROUPS = [0, 1, 2] as const;
/** Usernames accepted in one member/save call. */
export const MAX_USERNAMES_PER_CALL = 100;

export function checkMemberGroup(value: number): number {
  if (!(MEMBER_GROUPS as readonly number[]).includes(value))
    throw errors.failed('member_group_id must be 0, 1 or 2');
  return value;
}

/**
 * Keeps only ids of the item's top-level catalogs (the restriction unit). Item admins are never
 * restricted, so their list is emptied.
 */
export async function validTopCatalogs(
  itemId: number,
  ids: number[],
  memberGroupId: number,
): Promise<number[]> {
  if (memberGroupId === MEMBER_ADMIN) return [];
  const wanted = [...new Set(ids.filter((n) => Number.isSafeInteger(n) && n > 0))];
  if (!wanted.length) return [];
  const rows = await Catalog.find(
    { item_id: itemId, cat_id: { $in: wanted }, level: TOP_LEVEL },
    { cat_id: 1, _id: 0 },
  ).lean();
  const found = new Set(rows.map((r) => r.cat_id));
  return wanted.filter((id) => found.has(id));
}

/**
 * The collaborator quota (site option `member_quota`, none by default): the distinct users an
 * owner has as item members or in their teams. Adding someone already counted is always fine.
 */
export async function checkMemberQuota(ownerUid: number, newUid: number): Promise<void> {
  const quota = (await getSiteSettings()).memberQuota;
  if (quota === null) return;
  const [items, teams] = await Promise.all([
    Item.find({ uid: ownerUid }, { item_id: 1, _id: 0 }).lean(),
    Team.find({ uid: ownerUid }, { id: 1, _id: 0 }).lean(),
  ]);
  const [personal, team] = await Promise.all([
    ItemMember.distinct('uid', { item_id: { $in: items.map((i) => i.item_id) } }),
    TeamMember.distinct('member_uid', { team_id: { $in: teams.map((t) => t.id) } }),
  ]);
  const counted = new Set<number>([...personal, ...team]);
  if (counted.has(newUid)) return;
  if (counted.size >= quota)
    throw errors.memberLimit(`You can have at most ${quota} collaborators`);
}

export interface AddMembersInput {
  usernames: string[];
  member_group_id: number;
  /** ShowDoc's single-catalog form; merged into cat_ids. */
  cat_id?: number;
  cat_ids?: number[];
}

/**
 * Adds each named user (username or e-mail) who is not yet a personal member. Unknown users,
 * existing members and the owner are skipped; 10101 when nobody was added.
 */
export async function addMembers(
  actor: Actor,
  itemId: number,
  input: AddMembersInput,
): Promise<{ id: number }> {
  const access = await requireAction(actor, 'member.manage', itemId);
  const memberGroupId = checkMemberGroup(input.member_group_id);
  const names = [...new Set(input.usernames.map((n) => n.trim()).filter(Boolean))];
  if (!names.length) throw errors.targetUserNotFound('User not found');
  if (names.length > MAX_USERNAMES_PER_CALL)
    throw errors.failed(`At most ${MAX_USERNAMES_PER_CALL} users at once`);
  const catIds = await validTopCatalogs(
    itemId,
    [...(input.cat_ids ?? []), ...(input.cat_id ? [input.cat_id] : [])],
    memberGroupId,
  );

  const added: number[] = [];
  let lastId = 0;
  for (const name of names) {
    const user = await findUserByNameOrEmail(name);
    if (!user || user.uid === access.item.uid) continue;
    if (await ItemMember.exists({ item_id: itemId, uid: user.uid })) continue;
    await checkMemberQuota(access.item.uid, user.uid);
    const id = await nextId('item_member_id');
    try {
      await ItemMember.create({
        item_member_id: id,
        item_id: itemId,
        uid: user.uid,
        username: user.username,
        addtime: nowSeconds(),
        member_group_id: memberGroupId,
        cat_id: catIds[0] ?? 0,
        cat_ids: catIds,
      });
    } catch (error) {
      // A concurrent add of the same user won: skip, as for an existing member.
      if ((error as { code?: unknown }).code === 11000) continue;
      throw error;
    }
    lastId = id;
    added.push(user.uid);
    await logChange({
      uid: actor.uid,
      itemId,
      action: 'binding',
      object: 'member',
      objectId: user.uid,
      objectName: user.username,
    });
  }
  if (!lastId)
    throw errors.failed('No member was added: the users do not exist or are already members');
  events.publish('membership.changed', { itemId, uids: added, change: 'added', byUid: actor.uid });
  return { id: lastId };
}

export async function removeMember(
  actor: Actor,
  itemId: number,
  itemMemberId: number,
): Promise<void> {
  if (!(itemId > 0) || !(itemMemberId > 0)) throw errors.failed('Parameter error');
  await requireAction(actor, 'member.manage', itemId);
  const row = await ItemMember.findOneAndDelete({
    item_id: itemId,
    item_member_id: itemMemberId,
  }).lean();
  if (!row) throw errors.failed('Member not found');
  await logChange({
    uid: actor.uid,
    itemId,
    action: 'unbound',
    object: 'member',
    objectId: row.uid,
    objectName: row.username,
  });
  events.publish('membership.changed', {
    itemId,
    uids: [row.uid],
    change: 'removed',
    byUid: actor.uid,
  });
}

const GROUP_LABELS: Record<number, string> = { 0: '只读', 1: '编辑', 2: '项目管理员' };
const ALL_CATALOGS = '所有目录';
const SEVERAL_CATALOGS = '多个目录';

export interface MemberRow {
  item_member_id: string;
  item_id: string;
  uid: string;
  username: string;
  /** null when the user never set a display name: ShowDoc's column is NULL then. */
  name: string | null;
  addtime: string;
  member_group_id: string;
  cat_id: string;
  cat_ids: string;
  cat_name: string;
  member_group: string;
}

/** Catalog label of a restriction: its one catalog's name, "several", or "all". */
export async function catalogLabels(
  rows: { cat_id?: number; cat_ids?: number[] }[],
): Promise<string[]> {
  const single = rows.map((r) =>
    r.cat_ids?.length ? (r.cat_ids.length === 1 ? r.cat_ids[0] : -1) : r.cat_id || 0,
  );
  const ids = [...new Set(single.filter((id) => id > 0))];
  const cats = ids.length
    ? await Catalog.find({ cat_id: { $in: ids } }, { cat_id: 1, cat_name: 1, _id: 0 }).lean()
    : [];
  const names = new Map(cats.map((c) => [c.cat_id, c.cat_name]));
  return single.map((id) =>
    id === -1 ? SEVERAL_CATALOGS : id > 0 ? (names.get(id) ?? ALL_CATALOGS) : ALL_CATALOGS,
  );
}

/** The personal members of an item, oldest first (item manager role). */
export async function listMembers(actor: Actor, itemId: number): Promise<MemberRow[]> {
  await requireAction(actor, 'member.list', itemId);
  const rows = await ItemMember.find({ item_id: itemId }, { _id: 0 })
    .sort({ addtime: 1, item_member_id: 1 })
    .lean<ItemMemberDoc[]>();
  const users = await User.find(
    { uid: { $in: rows.map((r) => r.uid) } },
    { uid: 1, name: 1, _id: 0 },
  ).lean();
  const names = new Map(users.map((u) => [u.uid, u.name || null]));
  const labels = await catalogLabels(rows);
  return rows.map((row, i) => ({
    item_member_id: String(row.item_member_id),
    item_id: String(row.item_id),
    uid: String(row.uid),
    username: row.username,
    name: names.get(row.uid) ?? null,
    addtime: formatUnix(row.addtime),
    member_group_id: String(row.member_group_id),
    cat_id: String(row.cat_id ?? 0),
    cat_ids: (row.cat_ids ?? []).join(','),
    cat_name: labels[i],
    member_group: `${GROUP_LABELS[row.member_group_id] ?? GROUP_LABELS[0]}/目录：${labels[i]}`,
  }));
}

export interface AllMemberRow {
  item_id: number;
  uid: number;
  username: string;
  username_name: string;
  member_group_id: string;
}

/**
 * Everyone with access: the owner first, then personal members, then team members, one row per
 * user (editor role: used to pick people to notify).
 */
export async function listAllMembers(actor: Actor, itemId: number): Promise<AllMemberRow[]> {
  const access = await requireAction(actor, 'member.readOwn', itemId);
  const [personal, team] = await Promise.all([
    ItemMember.find({ item_id: itemId }, { uid: 1, username: 1, member_group_id: 1, _id: 0 })
      .sort({ addtime: 1 })
      .lean(),
    TeamItemMember.find(
      { item_id: itemId },
      { member_uid: 1, member_username: 1, member_group_id: 1, _id: 0 },
    )
      .sort({ addtime: 1 })
      .lean(),
  ]);
  const entries = [
    { uid: access.item.uid, username: access.item.username, group: '1' },
    ...personal.map((r) => ({
      uid: r.uid,
      username: r.username,
      group: String(r.member_group_id),
    })),
    ...team.map((r) => ({
      uid: r.member_uid,
      username: r.member_username,
      group: String(r.member_group_id),
    })),
  ];
  const users = await User.find(
    { uid: { $in: entries.map((e) => e.uid) } },
    { uid: 1, name: 1, _id: 0 },
  ).lean();
  const names = new Map(users.map((u) => [u.uid, u.name ?? '']));
  const seen = new Set<number>();
  const out: AllMemberRow[] = [];
  for (const entry of entries) {
    if (seen.has(entry.uid)) continue;
    seen.add(entry.uid);
    out.push({
      item_id: itemId,
      uid: entry.uid,
      username: entry.username,
      username_name:
        entry.uid === access.item.uid ? entry.username : names.get(entry.uid) || entry.username,
      member_group_id: entry.group,
    });
  }
  return out;
}

/** People the caller already works with: members of their items and teams, newest first. */
export async function myCollaborators(
  actor: Actor,
): Promise<{ uid: number; username: string; addtime: number }[]> {
  const [items, teams] = await Promise.all([
    Item.find({ uid: actor.uid }, { item_id: 1, _id: 0 }).lean(),
    Team.find({ uid: actor.uid }, { id: 1, _id: 0 }).lean(),
  ]);
  const [members, teamMembers] = await Promise.all([
    items.length
      ? ItemMember.find(
          { item_id: { $in: items.map((i) => i.item_id) } },
          { uid: 1, username: 1, addtime: 1, _id: 0 },
        ).lean()
      : [],
    teams.length
      ? TeamMember.find(
          { team_id: { $in: teams.map((t) => t.id) } },
          { member_uid: 1, member_username: 1, addtime: 1, _id: 0 },
        ).lean()
      : [],
  ]);
  const rows = [
    ...members.map((m) => ({ uid: m.uid, username: m.username, addtime: m.addtime })),
    ...teamMembers.map((m) => ({
      uid: m.member_uid,
      username: m.member_username,
      addtime: m.addtime,
    })),
  ].sort((a, b) => b.addtime - a.addtime);
  const seen = new Set<string>();
  return rows.filter((r) => {
    const key = `${r.uid}|${r.username}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
