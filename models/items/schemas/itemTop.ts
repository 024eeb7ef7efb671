/** ShowDoc's `item_top`: an item a user pinned to the top of the item list. */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ItemTopDoc {
  id: number;
  uid: number;
  item_id: number;
  addtime: number;
}

const itemTopSchema = new Schema<ItemTopDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    item_id: { type: Number, required: true },
    addtime: { type: Number, required: true },
  },
  { collection: 'item_top', versionKey: false },
);

itemTopSchema.index({ id: 1 }, { unique: true });
itemTopSchema.index({ uid: 1, item_id: 1 }, { unique: true });
itemTopSchema.index({ item_id: 1 });

export const ItemTop = defineModel<ItemTopDoc>('ItemTop', itemTopSchema);
