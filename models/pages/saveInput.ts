/**
 * What a page save takes, and the first step of the pipeline (savePage.ts): the checks that need
 * nothing but the input itself.
 */
import { validDraftFlag } from '../access';
import { type DomainEvents, errors } from '../platform';
import type { LiveDocPort, SaveAgent } from './ports';
import type { PageDoc } from './schemas/page';

export const MAX_TITLE_LENGTH = 255;
export const MAX_REMARK_LENGTH = 1000;
export const MAX_EXT_INFO_LENGTH = 65_536;
export const MAX_ORDER = 1_000_000_000;
export const CUSTOM_ID_RULE = /^[A-Za-z0-9_-]{1,64}$/;

/** Where a save came from: carried by `page.saved` for listeners (it steers nothing here). */
export type SaveOrigin = DomainEvents['page.saved']['origin'];

export interface SavePageInput {
  /** 0 = create. */
  pageId: number;
  itemId: number;
  title: string;
  /** Raw Markdown (already URL-decoded). */
  content: string;
  /** The version remark (`page_comments`). */
  remark?: string;
  /** Undefined: root on create, unchanged on update. */
  catId?: number;
  /** Applied when > 0; new pages otherwise get 99. */
  sNumber?: number;
  /** -1/undefined = unchanged (new pages: 0); see models/access/pageRules.ts. */
  isDraft?: number;
  /** JSON string; undefined = unchanged. */
  extInfo?: string;
  /** "Article ID": undefined = unchanged, '' = none. */
  customId?: string;
  /** "Save and notify" (update only): remind the page's subscribers with this text. */
  notify?: { content: string } | null;
}

export interface SaveOptions {
  origin: SaveOrigin;
  now?: number;
  agent?: SaveAgent;
  /**
   * The save changes only its own hunks of the stored text (an accepted suggestion): an open live
   * document gets just those, so what editors typed meanwhile stays — as for an agent's save.
   */
  rebase?: boolean;
  /**
   * The live document the save comes from (the collaborative editor's own save): it takes the
   * save instead of the registered live documents, so a save never goes back into the document
   * that made it.
   */
  liveDoc?: LiveDocPort;
  /**
   * Called once the page row is on disk, before the version, the change log and the events are
   * written: the caller may tell others of the stored row meanwhile (a kanban board's live push).
   * The row is then written journaled, instead of being carried by the change log's flush. Used
   * through `savePageStaged`.
   */
  rowStored?: (page: PageDoc) => void;
  /**
   * false: the save keeps no version of the text it replaces and writes no change-log row (its row
   * is then written journaled). A kanban card's move: the board's version and the board's activity
   * log record it, and a version per drag would push the task's own edits out of its kept versions.
   */
  versioned?: boolean;
}

/** Check: the input on its own (no query). */
export function checkSaveInput(input: SavePageInput): void {
  if (!(input.itemId > 0)) throw errors.failed('Parameter error');
  if (!(input.pageId >= 0)) throw errors.failed('Parameter error');
  if (input.content === '') throw errors.failed('Saving empty content is not allowed');
  if (input.title.trim() === '') throw errors.failed('Please enter the page title');
  if (input.title.length > MAX_TITLE_LENGTH)
    throw errors.failed(`The page title must be at most ${MAX_TITLE_LENGTH} characters`);
  if ((input.remark ?? '').length > MAX_REMARK_LENGTH)
    throw errors.failed(`The remark must be at most ${MAX_REMARK_LENGTH} characters`);
  if (input.sNumber !== undefined && (input.sNumber < 0 || input.sNumber > MAX_ORDER))
    throw errors.failed('Invalid order number');
  if (!validDraftFlag(input.isDraft)) throw errors.failed('Invalid draft flag');
  if (input.customId && !CUSTOM_ID_RULE.test(input.customId))
    throw errors.failed('The article ID may hold letters, digits, - and _ only (at most 64)');
  if (input.extInfo) {
    if (input.extInfo.length > MAX_EXT_INFO_LENGTH) throw errors.failed('ext_info is too large');
    try {
      JSON.parse(input.extInfo);
    } catch {
      throw errors.failed('ext_info must be JSON');
    }
  }
  if ((input.notify?.content ?? '').length > MAX_REMARK_LENGTH)
    throw errors.failed(`The notice must be at most ${MAX_REMARK_LENGTH} characters`);
}
