/**
 * ShowDoc's `item` table: a documentation project. Times are Unix seconds.
 * `password` holds a hash of the visit password (never the plain text, never sent to clients);
 * empty means the item is public.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

/** 1 regular, 2 single page, 3 RunApi, 4 spreadsheet, 5 whiteboard, 6 kanban (0 reads as 1). */
export const ITEM_TYPES = [0, 1, 2, 3, 4, 5, 6] as const;

export interface ItemDoc {
  item_id: number;
  item_name: string;
  item_description: string;
  /** Owner. */
  uid: number;
  username: string;
  password: string;
  addtime: number;
  last_update_time: number;
  /** Custom address (letters and digits, not all digits); '' when none. */
  item_domain: string;
  item_type: number;
  is_archived: number;
  is_del: number;
  /** When it went to the admin recycle bin (0 while alive). */
  del_time: number;
  allow_comment: number;
  allow_feedback: number;
  /** Several editors may co-edit a page at once (no auto-lock); off by default. */
  co_edit: number;
  /**
   * Suggest mode: read-only members may propose changes (never make them), and AI agents' text
   * changes arrive as suggestions unless their token writes directly. Off by default.
   */
  suggest_only_readers: number;
}

const itemSchema = new Schema<ItemDoc>(
  {
    item_id: { type: Number, required: true },
    item_name: { type: String, default: '' },
    item_description: { type: String, default: '' },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    password: { type: String, default: '' },
    addtime: { type: Number, required: true },
    last_update_time: { type: Number, default: 0 },
    item_domain: { type: String, default: '' },
    item_type: { type: Number, default: 1 },
    is_archived: { type: Number, default: 0 },
    is_del: { type: Number, default: 0 },
    del_time: { type: Number, default: 0 },
    allow_comment: { type: Number, default: 0 },
    allow_feedback: { type: Number, default: 0 },
    co_edit: { type: Number, default: 0 },
    suggest_only_readers: { type: Number, default: 0 },
  },
  { collection: 'item', versionKey: false },
);

itemSchema.index({ item_id: 1 }, { unique: true });
itemSchema.index({ uid: 1, is_del: 1 });
// The public square lists open items, newest change first.
itemSchema.index({ is_del: 1, password: 1, last_update_time: -1 });
// Unique among items that have one; '' (no domain) may repeat.
itemSchema.index(
  { item_domain: 1 },
  { unique: true, partialFilterExpression: { item_domain: { $gt: '' } } },
);

export const Item = defineModel<ItemDoc>('Item', itemSchema);
