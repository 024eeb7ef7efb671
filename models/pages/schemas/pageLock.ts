/**
 * ShowDoc's `page_lock` (reference pages §1.5): an advisory edit lock. A page is locked while its
 * row's `lock_to` (Unix seconds) is in the future; a release writes a row with a past `lock_to`.
 * Quire keeps at most one row per page (unique index), so concurrent takers cannot both win.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageLockDoc {
  id: number;
  page_id: number;
  lock_uid: number;
  lock_username: string;
  lock_to: number;
  addtime: number;
}

const pageLockSchema = new Schema<PageLockDoc>(
  {
    id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    lock_uid: { type: Number, required: true },
    lock_username: { type: String, default: '' },
    lock_to: { type: Number, required: true },
    addtime: { type: Number, required: true },
  },
  { collection: 'page_lock', versionKey: false },
);

pageLockSchema.index({ page_id: 1 }, { unique: true });
// Sweeping expired rows.
pageLockSchema.index({ lock_to: 1 });

export const PageLock = defineModel<PageLockDoc>('PageLock', pageLockSchema);
