/** The catalogs of an item being purged (inside models/backOffice's transaction). */
import { Catalog } from './schemas';

export async function purgeItemCatalogs(itemId: number): Promise<void> {
  await Catalog.deleteMany({ item_id: itemId });
}
