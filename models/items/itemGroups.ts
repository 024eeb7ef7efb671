/**
 * Personal item groups (`item_group`, reference accounts §9.1): folders on a user's item list.
 * A group belongs to one user; every function here acts on the caller's own groups only, so an id
 * of someone else's group behaves like an unknown one.
 */
import type { Actor } from '../access';
import { nextId, ApiError, formatNow } from '../platform';
import { ItemGroup, type ItemGroupDoc } from './schemas/itemGroup';
import { ItemSort } from './schemas/itemSort';

export const MAX_GROUP_NAME = 100;
export const DEFAULT_GROUP_NAME = 'default';
export const MAX_GROUPS = 500;
const MAX_ITEM_IDS = 5000;

export interface GroupRow {
  id: string;
  uid?: string;
  group_name: string;
  item_ids: string;
  s_number: string;
  created_at: string;
  updated_at: string;
}

function toRow(group: ItemGroupDoc, withUid: boolean): GroupRow {
  return {
    id: String(group.id),
    ...(withUid ? { uid: String(group.uid) } : {}),
    group_name: group.group_name,
    item_ids: group.item_ids,
    s_number: String(group.s_number),
    created_at: group.created_at,
    updated_at: group.updated_at,
  };
}

/** "3,5,x,5" → [3, 5]: positive integers, de-duplicated, order kept. */
export function parseIdList(text: string): number[] {
  const ids: number[] = [];
  for (const part of text.split(',')) {
    const trimmed = part.trim();
    if (!/^\d+$/.test(trimmed)) continue;
    const id = Number(trimmed);
    if (Number.isSafeInteger(id) && id > 0 && !ids.includes(id)) ids.push(id);
  }
  return ids;
}

export async function listGroups(actor: Actor): Promise<GroupRow[]> {
  const groups = await ItemGroup.find({ uid: actor.uid }, { _id: 0 })
    .sort({ s_number: 1, id: 1 })
    .lean<ItemGroupDoc[]>();
  return groups.map((g) => toRow(g, true));
}

export interface GroupInput {
  id: number;
  group_name: string;
  item_ids: string;
}

/** Creates (id 0) or renames/refills one of the caller's groups. */
export async function saveGroup(actor: Actor, input: GroupInput): Promise<GroupRow> {
  // The spec'd client names a blank group 'default'; the server does the same for other clients.
  const name = input.group_name.trim() || DEFAULT_GROUP_NAME;
  if (name.length > MAX_GROUP_NAME)
    throw new ApiError(10101, `Group name must be at most ${MAX_GROUP_NAME} characters`);
  const ids = parseIdList(input.item_ids);
  if (ids.length > MAX_ITEM_IDS) throw new ApiError(10101, 'Too many items in one group');
  const itemIds = ids.join(',');
  if (input.id > 0) {
    const updated = await ItemGroup.findOneAndUpdate(
      { id: input.id, uid: actor.uid },
      { $set: { group_name: name, item_ids: itemIds } },
      { returnDocument: 'after', lean: true, projection: { _id: 0 } },
    );
    if (!updated) throw new ApiError(10103, 'Group not found');
    return toRow(updated as ItemGroupDoc, false);
  }
  if ((await ItemGroup.countDocuments({ uid: actor.uid })) >= MAX_GROUPS)
    throw new ApiError(10100, `At most ${MAX_GROUPS} groups`);
  const now = formatNow();
  const group = await ItemGroup.create({
    id: await nextId('item_group_id'),
    uid: actor.uid,
    group_name: name,
    item_ids: itemIds,
    s_number: 0,
    created_at: now,
    updated_at: now,
  });
  return toRow(group.toObject(), false);
}

export async function deleteGroup(actor: Actor, id: number): Promise<void> {
  if (!(id > 0)) throw new ApiError(10101, 'Group not found');
  const removed = await ItemGroup.deleteOne({ id, uid: actor.uid });
  if (!removed.deletedCount) throw new ApiError(10101, 'Group not found');
  await ItemSort.deleteMany({ uid: actor.uid, item_group_id: id });
}

/** Sets the order of the caller's groups; ids of other users' groups are skipped. */
export async function sortGroups(
  actor: Actor,
  order: { id: number; s_number: number }[],
): Promise<void> {
  for (const { id, s_number } of order)
    await ItemGroup.updateOne({ id, uid: actor.uid }, { $set: { s_number } });
}

/** The caller's groups that contain the item (item/detail's `group_ids`). */
export async function groupIdsOf(actor: Actor, itemId: number): Promise<number[]> {
  const groups = await ItemGroup.find({ uid: actor.uid }, { id: 1, item_ids: 1, _id: 0 })
    .sort({ s_number: 1, id: 1 })
    .lean();
  return groups.filter((g) => parseIdList(g.item_ids).includes(itemId)).map((g) => g.id);
}

/** Appends the item to each listed group the caller owns (others are ignored). */
export async function addItemToGroups(
  actor: Actor,
  itemId: number,
  groupIds: number[],
): Promise<void> {
  if (!groupIds.length) return;
  const groups = await ItemGroup.find(
    { uid: actor.uid, id: { $in: groupIds } },
    { id: 1, item_ids: 1, _id: 0 },
  ).lean();
  for (const group of groups) {
    const ids = parseIdList(group.item_ids);
    if (ids.includes(itemId)) continue;
    await ItemGroup.updateOne(
      { id: group.id, uid: actor.uid },
      { $set: { item_ids: [...ids, itemId].join(',') } },
    );
  }
}

/**
 * Makes the item a member of exactly the listed groups among the caller's own (item/update):
 * only when at least one listed id is a group of the caller, as ShowDoc does.
 */
export async function setItemGroups(
  actor: Actor,
  itemId: number,
  groupIds: number[],
): Promise<void> {
  const groups = await ItemGroup.find({ uid: actor.uid }, { id: 1, item_ids: 1, _id: 0 }).lean();
  if (!groups.some((g) => groupIds.includes(g.id))) return;
  for (const group of groups) {
    const ids = parseIdList(group.item_ids);
    const wanted = groupIds.includes(group.id);
    const has = ids.includes(itemId);
    if (wanted === has) continue;
    const next = wanted ? [...ids, itemId] : ids.filter((id) => id !== itemId);
    await ItemGroup.updateOne(
      { id: group.id, uid: actor.uid },
      { $set: { item_ids: next.join(',') } },
    );
  }
}

/** The item ids of one of the caller's groups (null when the group is not theirs). */
export async function groupItemIds(actor: Actor, groupId: number): Promise<number[] | null> {
  const group = await ItemGroup.findOne(
    { id: groupId, uid: actor.uid },
    { item_ids: 1, _id: 0 },
  ).lean();
  return group ? parseIdList(group.item_ids) : null;
}
