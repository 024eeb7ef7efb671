/**
 * Search: ranked keyword search across the items a user may read, pages and attachments, and
 * the public square.
 *
 * For code inside Quire (the assistant, MCP tools):
 *
 *   rankedSearch(actor, itemId, query, { skipCode?, limit?, itemPassword?, attachments? })
 *     → { pages: PageHit[], attachments: AttachmentHit[] }
 *
 *   - `itemId`: one item (id or custom domain, checked with `item.read`), or 0/null for every
 *     item the actor may read. Drafts of others and catalogs outside a restriction never appear.
 *   - `query`: words, all required, any order, matched case-insensitively inside words;
 *     "quoted text" is one phrase. 10101 for an empty, one-letter or over-long query.
 *   - PageHit: { type: 'page', page_id, page_title, item_id, item_name, cat_id, score, snippet,
 *     highlights, title_highlights, addtime }, best first. `snippet` is plain text (not HTML);
 *     `highlights` are [start, end) ranges in it (`markSnippet` makes escaped HTML with <mark>).
 *   - AttachmentHit: { type: 'attachment', file_id, display_name, url (relative visitFile URL),
 *     item_id, item_name, page_id, page_title, score, snippet, highlights, addtime }.
 */
export {
  checkKeyword,
  findMatchingPages,
  MAX_RESULTS,
  searchItemPages,
  searchPages,
  rankedSearch,
} from './search';
export type { PageHit, RankedSearchOptions, SearchOptions } from './search';
export type { AttachmentHit } from './ranked';
export { markSnippet, type Ranges, type Snippet } from './snippet';
export {
  MAX_SQUARE_COUNT,
  publicSquareItems,
  publicSquareState,
  type PublicSquareItem,
} from './publicSquare';
