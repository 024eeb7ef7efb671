/**
 * ShowDoc's `upload_file` (reference accounts §7, pages §1.6): one uploaded file. The bytes live in
 * the file storage (models/storage/) under `storage_key`, a server-made name; the client's file
 * name is kept only as `display_name` (sanitised) and never touches the disk.
 *
 * `file_type` is the type Quire detected from the content (ShowDoc stored the client's claim), so
 * the image filter of the attachment lists and the way a file is served rely on what it really is.
 * `sign` (32 lowercase hex, random) addresses the file in download URLs.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface UploadFileDoc {
  file_id: number;
  sign: string;
  display_name: string;
  file_type: string;
  file_size: number;
  uid: number;
  item_id: number;
  page_id: number;
  visit_times: number;
  addtime: number;
  /** ShowDoc's storage URL (migrated rows); Quire never redirects to it. */
  real_url: string;
  /** Where the bytes are in the file storage; never sent to clients. */
  storage_key: string;
  last_update_time: number;
  last_visit_time: number;
  /**
   * Quire: text extracted from a PDF, DOCX, XLSX, Markdown or plain-text file after upload
   * (models/files/textExtraction.ts), for search; '' when none. Never sent to clients.
   */
  search_text?: string;
}

const uploadFileSchema = new Schema<UploadFileDoc>(
  {
    file_id: { type: Number, required: true },
    sign: { type: String, required: true },
    display_name: { type: String, default: '' },
    file_type: { type: String, default: '' },
    file_size: { type: Number, default: 0 },
    uid: { type: Number, required: true },
    item_id: { type: Number, default: 0 },
    page_id: { type: Number, default: 0 },
    visit_times: { type: Number, default: 0 },
    addtime: { type: Number, required: true },
    real_url: { type: String, default: '' },
    storage_key: { type: String, default: '' },
    last_update_time: { type: Number, default: 0 },
    last_visit_time: { type: Number, default: 0 },
    // Left out of every read that does not ask for it (lists, visits, exports).
    search_text: { type: String, default: '', select: false },
  },
  { collection: 'upload_file', versionKey: false },
);

uploadFileSchema.index({ file_id: 1 }, { unique: true });
uploadFileSchema.index({ sign: 1 }, { unique: true });
// "My attachments", newest first; the caller's usage total.
uploadFileSchema.index({ uid: 1, addtime: -1 });
// Search reads an item's attachments with text.
uploadFileSchema.index({ item_id: 1 });
// The admin list, newest first.
uploadFileSchema.index({ addtime: -1 });

export const UploadFile = defineModel<UploadFileDoc>('UploadFile', uploadFileSchema);
