/**
 * ShowDoc's `mock` (reference pages §1.6, §7): one mock response per page, served publicly by its
 * `unique_key` (32 lowercase hex chars) or by `path` within the item (a leading `~` marks a
 * regular expression). `template` is the JSON the editor wrote (Mock.js syntax), stored as sent;
 * `addtime` and `last_update_time` are datetime strings, as ShowDoc stores them.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface MockDoc {
  id: number;
  unique_key: string;
  uid: number;
  page_id: number;
  item_id: number;
  view_times: number;
  template: string;
  path: string;
  addtime: string;
  last_update_time: string;
}

const mockSchema = new Schema<MockDoc>(
  {
    id: { type: Number, required: true },
    unique_key: { type: String, required: true },
    uid: { type: Number, required: true },
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    view_times: { type: Number, default: 0 },
    template: { type: String, default: '' },
    path: { type: String, default: '/' },
    addtime: { type: String, default: '' },
    last_update_time: { type: String, default: '' },
  },
  { collection: 'mock', versionKey: false },
);

mockSchema.index({ id: 1 }, { unique: true });
// Serving by key; one mock per page (mock/add, infoByPageId).
mockSchema.index({ unique_key: 1 }, { unique: true });
mockSchema.index({ page_id: 1 }, { unique: true });
// Serving by path: the item's exact path first, then its regex mocks in id order.
mockSchema.index({ item_id: 1, path: 1 });

export const Mock = defineModel<MockDoc>('Mock', mockSchema);
