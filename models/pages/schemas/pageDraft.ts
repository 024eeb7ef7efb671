/**
 * A page's live shared draft: the Yjs state of its collaborative document (realtime/collab), kept
 * between editing sessions and across restarts. Not ShowDoc's "draft page" (`page.is_draft`, a page
 * only its author sees): this is the unsaved working copy everyone who edits the page shares.
 *
 * `state` and `text` are written together, so readers of the draft never decode Yjs. `base_hash`
 * names the saved page content the draft was last brought up to date with: when the page's content
 * no longer has that hash, the page was saved while nobody had it open, and the next load applies
 * the saved content into the draft (realtime/collab/persistence.ts).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageDraftDoc {
  page_id: number;
  item_id: number;
  /** Yjs update holding the whole document (Y.encodeStateAsUpdate). */
  state: Buffer;
  /** The document's Markdown (the PAGE_TEXT Y.Text) when `state` was written. */
  text: string;
  /** sha256 (hex) of the saved page content this draft was last reconciled with. */
  base_hash: string;
  /** 1 when `text` is exactly that saved content (nothing unsaved). */
  saved: number;
  /** Unix seconds of the last write, and who made the last change in it (0 = the server). */
  updated_at: number;
  updated_by: number;
  /** Unix seconds when an explicit save last matched the draft (0 = never). */
  saved_at: number;
}

const pageDraftSchema = new Schema<PageDraftDoc>(
  {
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    state: { type: Buffer, required: true },
    text: { type: String, default: '' },
    base_hash: { type: String, default: '' },
    saved: { type: Number, default: 0 },
    updated_at: { type: Number, required: true },
    updated_by: { type: Number, default: 0 },
    saved_at: { type: Number, default: 0 },
  },
  { collection: 'page_draft', versionKey: false },
);

// One draft per page; loading and storing a document look it up by page.
pageDraftSchema.index({ page_id: 1 }, { unique: true });

export const PageDraft = defineModel<PageDraftDoc>('PageDraft', pageDraftSchema);
