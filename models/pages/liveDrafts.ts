/**
 * Live shared drafts (models/schemas/pageDraft.ts): reading and writing the stored Yjs state of a
 * page's collaborative document. realtime/collab is the only writer of `state`; everything here
 * takes bytes and text and knows nothing of Yjs.
 *
 * Life of a draft: the first editor who opens a page creates it (initialised from the saved
 * content), edits are stored debounced and when the last editor leaves, and an explicit save of
 * the page (REST page/save from the editor, a script, history restore …) makes the draft match the
 * saved content again and flags it `saved`. A purge of the page removes it.
 */
import { createHash } from 'node:crypto';
import { PageDraft, type PageDraftDoc } from './schemas/pageDraft';
import { Page } from './schemas/page';
import { storedBytes } from './storedBytes';
import { nowSeconds } from '../platform';

/** sha256 (hex) of a text: how a draft names the saved content it is based on. */
export function contentHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export interface DraftRecord {
  pageId: number;
  itemId: number;
  state: Uint8Array;
  text: string;
  baseHash: string;
  saved: boolean;
  updatedAt: number;
  updatedBy: number;
  savedAt: number;
}

function toRecord(row: PageDraftDoc): DraftRecord {
  return {
    pageId: row.page_id,
    itemId: row.item_id,
    state: storedBytes(row.state),
    text: row.text,
    baseHash: row.base_hash,
    saved: row.saved === 1,
    updatedAt: row.updated_at,
    updatedBy: row.updated_by,
    savedAt: row.saved_at,
  };
}

export async function loadDraft(pageId: number): Promise<DraftRecord | null> {
  const row = await PageDraft.findOne({ page_id: pageId }, { _id: 0 }).lean<PageDraftDoc>();
  return row ? toRecord(row) : null;
}

export interface StoreDraftInput {
  pageId: number;
  itemId: number;
  state: Uint8Array;
  text: string;
  /** Hash of the saved content the document was last reconciled with. */
  baseHash: string;
  /** Who made the latest change (0 = the server). */
  byUid: number;
  now?: number;
}

/**
 * Writes the document's state and text together. Skips pages that no longer exist at all (purged
 * while the document was open), so no orphan draft outlives its page.
 */
export async function storeDraft(input: StoreDraftInput): Promise<boolean> {
  // Flags the page (once: later stores leave it unchanged) and tells whether it still exists.
  const page = await Page.updateOne({ page_id: input.pageId }, { $max: { has_draft: 1 } });
  if (page.matchedCount === 0) return false;
  const now = input.now ?? nowSeconds();
  const saved = contentHash(input.text) === input.baseHash;
  await PageDraft.updateOne(
    { page_id: input.pageId },
    {
      $set: {
        item_id: input.itemId,
        state: Buffer.from(input.state),
        text: input.text,
        base_hash: input.baseHash,
        saved: saved ? 1 : 0,
        updated_at: now,
        updated_by: input.byUid,
        ...(saved ? { saved_at: now } : {}),
      },
    },
    { upsert: true },
  );
  return true;
}

/**
 * A save reached a page whose document is not open in this process: when the stored draft already
 * holds exactly the saved content (the editor saved, then everybody left), it is now saved. A draft
 * that differs stays as it is and is brought up to the saved content when it is next opened.
 */
export async function markDraftSaved(
  pageId: number,
  content: string,
  now = nowSeconds(),
): Promise<boolean> {
  const hash = contentHash(content);
  const result = await PageDraft.updateOne(
    { page_id: pageId, text: content },
    { $set: { base_hash: hash, saved: 1, saved_at: now } },
  );
  return result.modifiedCount > 0;
}

/**
 * Flags the pages that have a draft (`has_draft`), for drafts stored before pages carried the
 * flag. Run at start, before any save (the lead worker starts before the others).
 */
export async function flagPagesWithDrafts(): Promise<void> {
  const pageIds = (await PageDraft.distinct('page_id')) as number[];
  if (pageIds.length)
    await Page.updateMany(
      { page_id: { $in: pageIds }, has_draft: { $ne: 1 } },
      { $set: { has_draft: 1 } },
    );
}

/** Drops the drafts of pages removed for good. */
export async function deleteDrafts(pageIds: number[]): Promise<void> {
  if (pageIds.length) await PageDraft.deleteMany({ page_id: { $in: pageIds } });
}

/**
 * Where a page's draft stands against its saved content: `none` (never opened in the editor),
 * `saved` (nothing unsaved), `unsaved` (edits not saved yet), `stale` (the page was saved since;
 * the draft is brought up to date when next opened).
 */
export type DraftStatus = 'none' | 'saved' | 'unsaved' | 'stale';

export async function draftStatus(pageId: number, savedContent: string): Promise<DraftStatus> {
  const row = await PageDraft.findOne(
    { page_id: pageId },
    { base_hash: 1, saved: 1, _id: 0 },
  ).lean();
  if (!row) return 'none';
  if (row.base_hash !== contentHash(savedContent)) return 'stale';
  return row.saved ? 'saved' : 'unsaved';
}
