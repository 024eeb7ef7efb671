/** The read markers of an item being purged (inside models/backOffice's transaction). */
import { PageRead } from './schemas';

export async function purgeItemReadMarkers(itemId: number): Promise<void> {
  await PageRead.deleteMany({ item_id: itemId });
}
