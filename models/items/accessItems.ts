/**
 * The live items the access policy reads (models/access fills its read model through this port;
 * the index plugs it in), so access never names the items collection.
 */
import type { LiveItemSource } from '../access';
import { Item, type ItemDoc } from './schemas/item';

export const liveItemsForAccess: LiveItemSource = {
  findLiveItem: (by) =>
    Item.findOne({ ...by, is_del: 0 }, { _id: 0 })
      .lean<ItemDoc>()
      .then((item) => item ?? null),
};
