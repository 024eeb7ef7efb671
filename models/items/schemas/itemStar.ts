/** ShowDoc's `item_star`: an item a user starred. Datetime strings as ShowDoc stores them. */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ItemStarDoc {
  id: number;
  uid: number;
  item_id: number;
  s_number: number;
  created_at: string;
  updated_at: string;
}

const itemStarSchema = new Schema<ItemStarDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    item_id: { type: Number, required: true },
    s_number: { type: Number, default: 0 },
    created_at: { type: String, default: '' },
    updated_at: { type: String, default: '' },
  },
  { collection: 'item_star', versionKey: false },
);

itemStarSchema.index({ id: 1 }, { unique: true });
itemStarSchema.index({ uid: 1, item_id: 1 }, { unique: true });
// Hard delete of an item removes its stars.
itemStarSchema.index({ item_id: 1 });

export const ItemStar = defineModel<ItemStarDoc>('ItemStar', itemStarSchema);
