/**
 * ShowDoc's `item_group`: a user's personal folder of items on the item list. `item_ids` is a
 * comma list of item ids (as ShowDoc stores it); `created_at`/`updated_at` are datetime strings.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ItemGroupDoc {
  id: number;
  uid: number;
  group_name: string;
  item_ids: string;
  s_number: number;
  created_at: string;
  updated_at: string;
}

const itemGroupSchema = new Schema<ItemGroupDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    group_name: { type: String, default: '' },
    item_ids: { type: String, default: '' },
    s_number: { type: Number, default: 0 },
    created_at: { type: String, default: '' },
    updated_at: { type: String, default: '' },
  },
  { collection: 'item_group', versionKey: false },
);

itemGroupSchema.index({ id: 1 }, { unique: true });
itemGroupSchema.index({ uid: 1, s_number: 1, id: 1 });

export const ItemGroup = defineModel<ItemGroupDoc>('ItemGroup', itemGroupSchema);
