/**
 * The back office's project management (`adminItem/*`, reference accounts §9.22): list every
 * item (models/backOffice adds the member counts), delete one, transfer one. Site admins only; no password re-entry (ShowDoc asked none
 * here either).
 *
 * Departures: rows never carry the visit password (Quire stores a hash); `is_private` says
 * whether there is one. Transfer refuses deleted items (ShowDoc moved them silently).
 */
import { requireSiteAdmin, type Actor } from '../access';
import { User } from '../accounts';
import { errors, events, formatUnix, nowSeconds } from '../platform';
import { giveItemTo, itemRow, type ItemRow } from './items';
import { Item, type ItemDoc } from './schemas/item';

const MAX_FILTER = 100;

/** Escapes every character a regular expression treats specially (for `$regex` filters). */
function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

export interface AdminItemRow extends Omit<ItemRow, 'addtime'> {
  addtime: string;
  is_private: number;
  member_num: number;
}

export interface AdminItemFilter {
  itemName: string;
  /** Owner username substring. */
  username: string;
  /** 0 = any. */
  itemType: number;
  /** 2 public, 3 private, else any. */
  privacyType: number;
  /** true = the deleted items. */
  deleted: boolean;
}

/** adminItem/getList's page of items (newest first): the rows, without their member counts. */
export async function adminItemMatch(
  actor: Actor,
  filter: AdminItemFilter,
  paging: { page: number; count: number },
): Promise<{ total: number; items: ItemDoc[] }> {
  requireSiteAdmin(actor);
  const match: Record<string, unknown> = { is_del: filter.deleted ? 1 : { $ne: 1 } };
  const name = filter.itemName.trim().slice(0, MAX_FILTER);
  if (name) match.item_name = { $regex: escapeRegExp(name), $options: 'i' };
  const owner = filter.username.trim().slice(0, MAX_FILTER);
  if (owner) match.username = { $regex: escapeRegExp(owner), $options: 'i' };
  if (filter.itemType > 0) match.item_type = filter.itemType;
  if (filter.privacyType === 2) match.password = { $in: ['', null] };
  if (filter.privacyType === 3) match.password = { $nin: ['', null] };
  const [total, rows] = await Promise.all([
    Item.countDocuments(match),
    Item.find(match, { _id: 0 })
      .sort({ addtime: -1, item_id: -1 })
      .skip((paging.page - 1) * paging.count)
      .limit(paging.count)
      .lean<ItemDoc[]>(),
  ]);
  return { total, items: rows };
}

/** An item as the back office lists it. */
export function adminItemRow(item: ItemDoc, memberCount: number): AdminItemRow {
  return {
    ...itemRow(item),
    addtime: formatUnix(item.addtime ?? 0),
    del_time: item.is_del ? formatUnix(item.del_time ?? 0) : '',
    is_private: item.password ? 1 : 0,
    member_num: memberCount,
  };
}

/** adminItem/deleteItem: moves the item to the admin recycle bin (recoverable). */
export async function adminDeleteItem(actor: Actor, itemId: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
  const result = await Item.updateOne(
    { item_id: itemId, is_del: { $ne: 1 } },
    { $set: { is_del: 1, del_time: nowSeconds() } },
  );
  if (!result.matchedCount) throw errors.failed('Item not found');
  events.publish('item.changed', { itemId, change: 'deleted', byUid: actor.uid });
}

/** adminItem/recoverItem: takes an item out of the admin recycle bin, as ShowDoc does. */
export async function adminRecoverItem(actor: Actor, itemId: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
  const result = await Item.updateOne(
    { item_id: itemId, is_del: 1 },
    { $set: { is_del: 0, del_time: 0, last_update_time: nowSeconds() } },
  );
  if (!result.matchedCount) throw errors.failed('The item does not exist or is not deleted');
  events.publish('item.changed', { itemId, change: 'restored', byUid: actor.uid });
}

/** adminItem/attorn: gives the item to the user with exactly this username; the new row. */
export async function adminTransferItem(
  actor: Actor,
  itemId: number,
  username: string,
): Promise<ItemRow> {
  requireSiteAdmin(actor);
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
  const name = username.trim();
  const target = name
    ? await User.findOne({ username: name }, { uid: 1, username: 1, _id: 0 }).lean()
    : null;
  if (!target) throw errors.targetUserNotFound('User not found');
  const before = await Item.findOne({ item_id: itemId, is_del: { $ne: 1 } }, { uid: 1 }).lean();
  if (!before) throw errors.failed('Item not found');
  return giveItemTo(
    actor,
    { item_id: itemId, is_del: { $ne: 1 } },
    { previousOwner: before.uid, target },
  );
}
