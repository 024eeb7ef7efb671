/**
 * The caller's item list and its personal touches (reference accounts §9.2, §9.9, §9.10, §9.16):
 * `myList`, stars, pins and custom order (leaving an item is models/members' `exitItem`). Nothing here changes an item, so
 * these work on archived items too.
 */
import { itemAccess, MEMBER_ADMIN, memberItemRows, permits, type Actor } from '../access';
import { errors, formatNow, nextId, nowSeconds } from '../platform';
import { groupItemIds } from './itemGroups';
import { itemRow, type ItemRow } from './items';
import { Item, type ItemDoc } from './schemas/item';
import { ItemSort } from './schemas/itemSort';
import { ItemStar } from './schemas/itemStar';
import { ItemTop } from './schemas/itemTop';

/** Views of the list: 0 all, −1 starred, >0 one of the caller's groups. */
export const STARRED_VIEW = -1;
const MAX_SORT_ENTRIES = 10_000;

export interface MyListEntry {
  item_id: string;
  uid: string;
  item_name: string;
  item_domain: string;
  item_type: string;
  last_update_time: string;
  item_description: string;
  is_del: string;
  /** ShowDoc sent the plain visit password to managers; Quire never sends it ('' or absent). */
  password?: string;
  s_number: number | string;
  creator: number;
  manage: number;
  is_private: number;
  is_star: number;
  is_archived: string;
  top?: number;
}

/** Every item the user can reach through ownership, personal or team membership (not deleted). */
async function reachableItems(uid: number): Promise<{ items: ItemDoc[]; managed: Set<number> }> {
  const { personal, teams: team } = await memberItemRows(uid);
  const managed = new Set<number>();
  for (const row of [...personal, ...team])
    if (row.member_group_id === MEMBER_ADMIN) managed.add(row.item_id);
  const memberIds = [...new Set([...personal, ...team].map((r) => r.item_id))];
  const [owned, shared] = await Promise.all([
    Item.find({ uid, is_del: 0 }).lean<ItemDoc[]>(),
    memberIds.length ? Item.find({ item_id: { $in: memberIds }, is_del: 0 }).lean<ItemDoc[]>() : [],
  ]);
  const byId = new Map<number, ItemDoc>();
  for (const item of [...owned, ...shared]) byId.set(item.item_id, item);
  return { items: [...byId.values()].sort((a, b) => a.item_id - b.item_id), managed };
}

export async function myItemList(
  actor: Actor,
  options: { itemGroupId: number; original: boolean },
): Promise<MyListEntry[]> {
  const { items: all, managed } = await reachableItems(actor.uid);
  const stars = new Set(
    (await ItemStar.find({ uid: actor.uid }, { item_id: 1, _id: 0 }).lean()).map((s) => s.item_id),
  );
  let items = all;
  if (options.itemGroupId > 0) {
    const ids = new Set((await groupItemIds(actor, options.itemGroupId)) ?? []);
    items = items.filter((i) => ids.has(i.item_id));
  } else if (options.itemGroupId === STARRED_VIEW)
    items = items.filter((i) => stars.has(i.item_id));
  if (options.original) items = items.filter((i) => i.uid === actor.uid);

  let list: MyListEntry[] = items.map((item) => {
    const creator = item.uid === actor.uid;
    const manage = creator || managed.has(item.item_id);
    const row = itemRow(item);
    return {
      item_id: row.item_id,
      uid: row.uid,
      item_name: row.item_name,
      item_domain: row.item_domain,
      item_type: row.item_type,
      last_update_time: row.last_update_time,
      item_description: row.item_description,
      is_del: row.is_del,
      ...(manage ? { password: '' } : {}),
      s_number: 0,
      creator: creator ? 1 : 0,
      manage: manage ? 1 : 0,
      is_private: item.password ? 1 : 0,
      is_star: stars.has(item.item_id) ? 1 : 0,
      is_archived: row.is_archived,
    };
  });

  const tops = new Set(
    (await ItemTop.find({ uid: actor.uid }, { item_id: 1, _id: 0 }).lean()).map((t) => t.item_id),
  );
  if (list.length && tops.size) {
    for (const entry of list) entry.top = tops.has(Number(entry.item_id)) ? 1 : 0;
    list = [...list.filter((e) => e.top), ...list.filter((e) => !e.top)];
  }

  const sort = await ItemSort.findOne(
    { uid: actor.uid, item_group_id: options.itemGroupId },
    { item_sort_data: 1, _id: 0 },
  ).lean();
  const order = sort ? parseSortData(sort.item_sort_data) : null;
  if (list.length && order && Object.keys(order).length) {
    for (const entry of list) entry.s_number = order[entry.item_id] ?? Number(entry.item_id);
    // Stable: pinned items keep their lead among equal orders.
    list = list
      .map((entry, index) => ({ entry, index }))
      .sort((a, b) => Number(a.entry.s_number) - Number(b.entry.s_number) || a.index - b.index)
      .map(({ entry }) => entry);
  }
  return list;
}

/** `{"12": 1, "15": 2}` → a clean map of item id → integer order; null when not such a map. */
export function parseSortData(text: string): Record<string, number> | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/&quot;/g, '"'));
  } catch {
    return null;
  }
  if (parsed === null || typeof parsed !== 'object') return null;
  const out: Record<string, number> = Object.create(null);
  let count = 0;
  for (const [key, value] of Object.entries(parsed as Record<string, unknown>)) {
    if (!/^\d{1,15}$/.test(key)) continue;
    const n =
      typeof value === 'number'
        ? value
        : typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())
          ? Number(value)
          : NaN;
    if (!Number.isSafeInteger(n)) continue;
    out[String(Number(key))] = n;
    if (++count > MAX_SORT_ENTRIES) return null;
  }
  return out;
}

/** Stores the caller's order for one view of the list. */
export async function saveItemSort(actor: Actor, itemGroupId: number, data: string): Promise<void> {
  const order = data ? parseSortData(data) : null;
  if (!order || !Object.keys(order).length)
    throw errors.failed('Sort data is missing or malformed');
  const existing = await ItemSort.findOne(
    { uid: actor.uid, item_group_id: itemGroupId },
    { id: 1 },
  ).lean();
  const stored = JSON.stringify(order);
  if (existing)
    await ItemSort.updateOne(
      { id: existing.id },
      { $set: { item_sort_data: stored, addtime: nowSeconds() } },
    );
  else
    await ItemSort.create({
      id: await nextId('item_sort_id'),
      uid: actor.uid,
      item_group_id: itemGroupId,
      item_sort_data: stored,
      addtime: nowSeconds(),
    });
}

/** Stars an item the caller may visit; ShowDoc answers error code 1 otherwise. */
export async function starItem(
  actor: Actor,
  itemId: number,
  itemPassword: string,
): Promise<{ id: number }> {
  const access = await itemAccess(actor, itemId, { itemPassword });
  if (!access || !permits(access, 'item.read'))
    throw errors.starDenied('No permission to visit this item');
  const now = formatNow();
  await ItemStar.deleteMany({ uid: actor.uid, item_id: itemId });
  const id = await nextId('item_star_id');
  await ItemStar.create({
    id,
    uid: actor.uid,
    item_id: itemId,
    s_number: 0,
    created_at: now,
    updated_at: now,
  });
  return { id };
}

export async function unstarItem(actor: Actor, itemId: number): Promise<void> {
  await ItemStar.deleteMany({ uid: actor.uid, item_id: itemId });
}

/** Pins (`top`) or unpins (`cancel`) an item on the caller's list. */
export async function pinItem(
  actor: Actor,
  itemId: number,
  action: string,
  itemPassword: string,
): Promise<void> {
  if (action === 'cancel') {
    await ItemTop.deleteMany({ uid: actor.uid, item_id: itemId });
    return;
  }
  if (action !== 'top') throw errors.failed('action must be top or cancel');
  const access = await itemAccess(actor, itemId, { itemPassword });
  if (!access || !permits(access, 'item.read'))
    throw errors.failed('No permission to visit this item');
  if (await ItemTop.exists({ uid: actor.uid, item_id: itemId })) return;
  try {
    await ItemTop.create({
      id: await nextId('item_top_id'),
      uid: actor.uid,
      item_id: itemId,
      addtime: nowSeconds(),
    });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 11000) throw error; // pinned concurrently: fine
  }
}

/** Every live item the caller owns (item/itemList), as raw rows without the password. */
export async function ownedItems(actor: Actor): Promise<ItemRow[]> {
  const items = await Item.find({ uid: actor.uid, is_del: 0 })
    .sort({ item_id: 1 })
    .lean<ItemDoc[]>();
  return items.map(itemRow);
}
