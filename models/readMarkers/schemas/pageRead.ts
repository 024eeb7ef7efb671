/**
 * `page_read` (Quire only): what one user last read of one item — one small document per user
 * and item, written in batches (one upsert per request, however many pages it reports).
 *
 * `pages` maps a page id to the `addtime` of the version the user read: a page's `addtime` is
 * overwritten by every save and each saved-over version keeps its own in `page_history`, so the
 * marker both tells "changed since" (the page's `addtime` differs) and finds the version read
 * (the history row with that `addtime`) for "show changes". `since` is when the user started
 * following the item (first read, or "mark all as read"): a page without a marker that was saved
 * after it is new or changed to them too.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageReadDoc {
  uid: number;
  item_id: number;
  since: number;
  /** page id (as a string key) → addtime of the version read. */
  pages: Record<string, number>;
  updated_at: number;
}

const pageReadSchema = new Schema<PageReadDoc>(
  {
    uid: { type: Number, required: true },
    item_id: { type: Number, required: true },
    since: { type: Number, required: true },
    pages: { type: Schema.Types.Mixed, default: {} },
    updated_at: { type: Number, required: true },
  },
  { collection: 'page_read', versionKey: false, minimize: false },
);

pageReadSchema.index({ uid: 1, item_id: 1 }, { unique: true });
// Purging an item drops its markers.
pageReadSchema.index({ item_id: 1 });

export const PageRead = defineModel<PageReadDoc>('PageRead', pageReadSchema);
