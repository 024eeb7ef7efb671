/** Whether an item has simultaneous editing on (read by the live editor when a page opens). */
import { Item } from './schemas';

export async function itemCoEditOn(itemId: number): Promise<boolean> {
  const item = await Item.findOne({ item_id: itemId }, { co_edit: 1, _id: 0 }).lean();
  return item?.co_edit === 1;
}
