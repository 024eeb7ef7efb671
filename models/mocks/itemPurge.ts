/** The mocks of an item being purged (inside models/backOffice's transaction). */
import { Mock } from './schemas';

export async function purgeItemMocks(itemId: number, pageIds: number[]): Promise<void> {
  await Mock.deleteMany({ $or: [{ item_id: itemId }, { page_id: { $in: pageIds } }] });
}
