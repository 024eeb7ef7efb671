/**
 * ShowDoc's `item_sort`: a user's custom order of the item list for one view (`item_group_id`:
 * 0 all items, −1 starred, >0 a group). `item_sort_data` is the JSON map item_id → order the
 * client sent.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ItemSortDoc {
  id: number;
  uid: number;
  item_group_id: number;
  item_sort_data: string;
  addtime: number;
}

const itemSortSchema = new Schema<ItemSortDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    item_group_id: { type: Number, default: 0 },
    item_sort_data: { type: String, default: '' },
    addtime: { type: Number, required: true },
  },
  { collection: 'item_sort', versionKey: false },
);

itemSortSchema.index({ id: 1 }, { unique: true });
itemSortSchema.index({ uid: 1, item_group_id: 1 }, { unique: true });

export const ItemSort = defineModel<ItemSortDoc>('ItemSort', itemSortSchema);
