/**
 * ShowDoc's `page` table (reference pages §1.2): one Markdown page of an item.
 *
 * `page_content` holds the Markdown exactly as the author wrote it — never HTML-escaped. ShowDoc
 * stores escaped text and its clients un-escape once after reading; models/pages/pageContent.ts escapes on
 * the way out so those clients keep working (see the note there).
 *
 * `addtime` is the last-modified time (overwritten on every save) and `author_*` the last editor;
 * `page_addtime` is the creation time. Order inside a catalog: `s_number`, then `page_id`.
 * `cat_id` 0 = the item root. `is_draft` pages are visible to their author only.
 * `page_custom_id` (hosted-edition "article ID"): optional, letters/digits/-/_, unique per item.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const DEFAULT_PAGE_ORDER = 99;

export interface PageDoc {
  page_id: number;
  item_id: number;
  cat_id: number;
  page_title: string;
  /** Raw Markdown (or RunApi/spreadsheet JSON) as written. */
  page_content: string;
  /** The free "version remark" sent with the last save. */
  page_comments: string;
  s_number: number;
  /** Unix seconds of the last save. */
  addtime: number;
  /** Unix seconds of creation (0 for rows migrated from servers that never set it). */
  page_addtime: number;
  author_uid: number;
  author_username: string;
  is_del: number;
  /** JSON string (RunApi page type, kanban task state); '' when none. */
  ext_info: string;
  is_draft: number;
  page_custom_id: string;
  /**
   * 1 once the page has a stored collaborative draft (models/pages/liveDrafts.ts): a save of a page
   * without one skips bringing a draft up to date (one query fewer per save). Absent = none.
   */
  has_draft?: number;
  /**
   * Versions stored for this page so far (models/pages/pageHistory.ts), bumped by the very write
   * that replaces a version. Absent on pages from before it existed.
   */
  history_seq?: number;
  /** The lowest `version_seq` its versions from before the sequence got (≤ 0); absent: 1. */
  history_low?: number;
}

const pageSchema = new Schema<PageDoc>(
  {
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    cat_id: { type: Number, default: 0 },
    page_title: { type: String, default: '' },
    page_content: { type: String, default: '' },
    page_comments: { type: String, default: '' },
    s_number: { type: Number, default: DEFAULT_PAGE_ORDER },
    addtime: { type: Number, required: true },
    page_addtime: { type: Number, default: 0 },
    author_uid: { type: Number, default: 0 },
    author_username: { type: String, default: '' },
    is_del: { type: Number, default: 0 },
    ext_info: { type: String, default: '' },
    is_draft: { type: Number, default: 0 },
    page_custom_id: { type: String, default: '' },
    has_draft: { type: Number },
    history_seq: { type: Number },
    history_low: { type: Number },
  },
  { collection: 'page', versionKey: false },
);

pageSchema.index({ page_id: 1 }, { unique: true });
// Menu, catalog listings, recycle and purge: pages of an item (optionally one catalog), live or deleted.
pageSchema.index({ item_id: 1, cat_id: 1, is_del: 1 });
// "Article ID" lookups; unique among pages that have one ('' may repeat).
pageSchema.index(
  { item_id: 1, page_custom_id: 1 },
  { unique: true, partialFilterExpression: { page_custom_id: { $gt: '' } } },
);

export const Page = defineModel<PageDoc>('Page', pageSchema);
