/**
 * ShowDoc's `page_history` (reference pages §1.3): the version a page had before a save. Each
 * update of an existing page first copies the page's previous state here; creation writes none.
 * `page_content` is raw Markdown like `page` (rows migrated from ShowDoc may hold zlib+Base64 or
 * HTML-escaped content; the importer normalises them) — or, for longer texts, empty with the text
 * deflated in `page_content_z` (models/pages/versionText.ts; read through `versionText`).
 * `history_version_count` rows are kept.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageHistoryDoc {
  page_history_id: number;
  page_id: number;
  item_id: number;
  cat_id: number;
  page_title: string;
  page_content: string;
  /** The text, raw-DEFLATE compressed, when `page_content` is left empty for it. */
  page_content_z?: Buffer;
  page_comments: string;
  s_number: number;
  /** The saved version's own time (its page's `addtime` when it was current). */
  addtime: number;
  author_uid: number;
  author_username: string;
  ext_info: string;
  /**
   * The version's number among its page's versions (the page's `history_seq` after it was
   * stored): the retention trim drops `version_seq ≤ newest − kept` without a query. Versions
   * stored before pages carried the sequence get theirs on their page's next save (≤ 0).
   */
  version_seq?: number;
}

const pageHistorySchema = new Schema<PageHistoryDoc>(
  {
    page_history_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    cat_id: { type: Number, default: 0 },
    page_title: { type: String, default: '' },
    page_content: { type: String, default: '' },
    page_content_z: { type: Buffer },
    page_comments: { type: String, default: '' },
    s_number: { type: Number, default: 99 },
    addtime: { type: Number, required: true },
    author_uid: { type: Number, default: 0 },
    author_username: { type: String, default: '' },
    ext_info: { type: String, default: '' },
    version_seq: { type: Number },
  },
  { collection: 'page_history', versionKey: false },
);

pageHistorySchema.index({ page_history_id: 1 }, { unique: true });
// A page's versions, newest first (history list, retention pruning, diff lookups).
pageHistorySchema.index({ page_id: 1, page_history_id: -1 });

export const PageHistory = defineModel<PageHistoryDoc>('PageHistory', pageHistorySchema);
