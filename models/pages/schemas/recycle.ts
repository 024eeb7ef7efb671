/**
 * ShowDoc's `recycle` (reference pages §1.6, §8): an item's recycle bin, one row per deleted page
 * (deleting again updates the row). `del_time` (Unix seconds) drives the 30-day purge — Quire
 * counts from the deletion, not from the page's last edit as ShowDoc did. The deleted page keeps
 * its `cat_id`, so recovery can put it back where it was.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface RecycleDoc {
  id: number;
  item_id: number;
  page_id: number;
  page_title: string;
  del_by_uid: number;
  del_by_username: string;
  del_time: number;
}

const recycleSchema = new Schema<RecycleDoc>(
  {
    id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    page_title: { type: String, default: '' },
    del_by_uid: { type: Number, default: 0 },
    del_by_username: { type: String, default: '' },
    del_time: { type: Number, required: true },
  },
  { collection: 'recycle', versionKey: false },
);

recycleSchema.index({ id: 1 }, { unique: true });
// Page ids are unique across items, so one row per page.
recycleSchema.index({ page_id: 1 }, { unique: true });
// The bin listing, newest deletion first.
recycleSchema.index({ item_id: 1, del_time: -1 });
// The purge sweep.
recycleSchema.index({ del_time: 1 });

export const Recycle = defineModel<RecycleDoc>('Recycle', recycleSchema);
