/**
 * The items side of purging a deleted item for good (`adminItem/hardDeleteItem`; models/
 * backOffice runs the whole purge in one transaction and these join it).
 */
import { errors } from '../platform';
import { Item, ItemChangeLog, ItemGroup, ItemStar, ItemToken, ItemTop } from './schemas';

/** Refuses unless the item is in the admin recycle bin (ShowDoc refuses live items too). */
export async function requirePurgeableItem(itemId: number): Promise<void> {
  const item = await Item.findOne({ item_id: itemId }, { is_del: 1, _id: 0 }).lean();
  if (!item || item.is_del !== 1)
    throw errors.failed('Only a deleted item can be deleted permanently');
}

/** Takes the item's id out of every user's item groups (`item_ids` is a comma list). */
async function dropFromGroups(itemId: number): Promise<void> {
  const id = String(itemId);
  const groups = await ItemGroup.find(
    { item_ids: { $regex: `(^|,)${id}(,|$)` } },
    { id: 1, item_ids: 1, _id: 0 },
  ).lean();
  for (const group of groups) {
    const rest = group.item_ids.split(',').filter((part) => part.trim() !== id);
    await ItemGroup.updateOne({ id: group.id }, { $set: { item_ids: rest.join(',') } });
  }
}

/** The item's stars, pins, API keys, change log and group entries, then the item itself. */
export async function purgeItemRecord(itemId: number): Promise<void> {
  const byItem = { item_id: itemId };
  await ItemStar.deleteMany(byItem);
  await ItemTop.deleteMany(byItem);
  await ItemToken.deleteMany(byItem);
  await ItemChangeLog.deleteMany(byItem);
  await dropFromGroups(itemId);
  await Item.deleteOne({ item_id: itemId, is_del: 1 });
}
