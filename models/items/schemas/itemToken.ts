/**
 * ShowDoc's `item_token`: the open-API credentials of an item (reference accounts §5). One row
 * per item, made on first `item/getKey`; `api_key` never changes, `resetKey` replaces `api_token`.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface ItemTokenDoc {
  id: number;
  item_id: number;
  api_key: string;
  api_token: string;
  addtime: number;
  last_check_time: number;
}

const itemTokenSchema = new Schema<ItemTokenDoc>(
  {
    id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    api_key: { type: String, required: true },
    api_token: { type: String, required: true },
    addtime: { type: Number, required: true },
    last_check_time: { type: Number, default: 0 },
  },
  { collection: 'item_token', versionKey: false },
);

itemTokenSchema.index({ id: 1 }, { unique: true });
itemTokenSchema.index({ item_id: 1 }, { unique: true });
// The open API finds the item by its key on every call.
itemTokenSchema.index({ api_key: 1 }, { unique: true });

export const ItemToken = defineModel<ItemTokenDoc>('ItemToken', itemTokenSchema);
