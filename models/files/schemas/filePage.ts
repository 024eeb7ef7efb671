/**
 * ShowDoc's `file_page` (reference pages §1.6): a file attached to a page (many-to-many). A page's
 * attachment list and count are its rows; a file bound to pages is readable by whoever may read
 * one of them. Quire keeps one row per (file, page): binding twice changes nothing.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface FilePageDoc {
  id: number;
  file_id: number;
  item_id: number;
  page_id: number;
  addtime: number;
}

const filePageSchema = new Schema<FilePageDoc>(
  {
    id: { type: Number, required: true },
    file_id: { type: Number, required: true },
    item_id: { type: Number, default: 0 },
    page_id: { type: Number, required: true },
    addtime: { type: Number, required: true },
  },
  { collection: 'file_page', versionKey: false },
);

filePageSchema.index({ id: 1 }, { unique: true });
// One binding per (file, page); also "the pages of this file".
filePageSchema.index({ file_id: 1, page_id: 1 }, { unique: true });
// A page's attachments, newest binding first (and their count).
filePageSchema.index({ page_id: 1, addtime: -1 });
// An item's attachments, newest binding first (the MCP list_attachments tool).
filePageSchema.index({ item_id: 1, addtime: -1 });

export const FilePage = defineModel<FilePageDoc>('FilePage', filePageSchema);
