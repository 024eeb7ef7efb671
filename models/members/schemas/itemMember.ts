/**
 * ShowDoc's `item_member`: a user's personal membership of an item.
 * `member_group_id`: 0 read-only, 1 edit, 2 item admin. `cat_ids`: the top-level (level-2)
 * catalogs the member is restricted to; empty = the whole item. (`cat_id` is ShowDoc's older
 * single-catalog form, kept in step with `cat_ids[0]`.)
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const MEMBER_READ = 0;
export const MEMBER_EDIT = 1;
export const MEMBER_ADMIN = 2;

export interface ItemMemberDoc {
  item_member_id: number;
  item_id: number;
  uid: number;
  username: string;
  addtime: number;
  member_group_id: number;
  cat_id: number;
  cat_ids: number[];
}

const itemMemberSchema = new Schema<ItemMemberDoc>(
  {
    item_member_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    addtime: { type: Number, required: true },
    member_group_id: {
      type: Number,
      default: MEMBER_READ,
      enum: [MEMBER_READ, MEMBER_EDIT, MEMBER_ADMIN],
    },
    cat_id: { type: Number, default: 0 },
    cat_ids: { type: [Number], default: [] },
  },
  { collection: 'item_member', versionKey: false },
);

itemMemberSchema.index({ item_member_id: 1 }, { unique: true });
itemMemberSchema.index({ item_id: 1, uid: 1 }, { unique: true });
itemMemberSchema.index({ uid: 1 });

export const ItemMember = defineModel<ItemMemberDoc>('ItemMember', itemMemberSchema);
