/**
 * Keyword search over page titles and content (`item/search`, reference accounts §9.7, and the
 * keyword mode of the item menu).
 *
 * - The keyword is matched literally and case-insensitively: it is regex-escaped before reaching
 *   the database, so `.*` or `(` find those characters instead of matching everything or failing.
 * - Substring matching (inside words) works the same for Chinese, Japanese and Korean text,
 *   which has no spaces between words. A one-character keyword is accepted only when it is a CJK
 *   character (one such character is a word; one Latin letter would match nearly every page).
 * - Access: only items the user may visit; inside them only pages the user may see — no other
 *   author's drafts, nothing outside a member's catalog restriction (sub-catalogs included).
 * - The keyword is a query of words (query.ts): every word and every "quoted phrase" must appear,
 *   in any order, each matched as above.
 * - Pages are found through an inverted index of each item (pageIndex.ts), then matched exactly,
 *   and ranked by relevance (ranked.ts). Each result carries ShowDoc's `search_content` (the text
 *   around the first hit in the content) and Quire's `snippet` around the best match with the
 *   ranges to highlight; `skip_code` leaves fenced code blocks out.
 */
import {
  itemAccess,
  memberItemRows,
  permits,
  requireAction,
  type Actor,
  type ItemAccess,
} from '../access';
import { errors } from '../platform';
import { escapeForClient, type PageDoc, searchableText } from '../pages';
import { Item } from '../items';
import { pagesMatching, rankScope, type AttachmentHit } from './ranked';
import { splitCode, type Ranges } from './snippet';

export { escapeRegExp } from './query';

export const MAX_KEYWORD_LENGTH = 100;
/** Results returned per search (the best ones after ranking). */
export const MAX_RESULTS = 200;
const SNIPPET_BEFORE = 100;
const SNIPPET_AFTER = 200;

/** Ideographs, kana and Hangul — letters that carry meaning alone (not CJK punctuation). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

export function isCjkCharacter(char: string): boolean {
  return CJK.test(char);
}

/** The trimmed keyword, or 10101 with the reason. */
export function checkKeyword(raw: string): string {
  const keyword = raw.trim();
  if (!keyword) throw errors.failed('Please enter a keyword');
  const chars = [...keyword];
  if (chars.length > MAX_KEYWORD_LENGTH)
    throw errors.failed(`Keywords may be at most ${MAX_KEYWORD_LENGTH} characters`);
  if (chars.length === 1 && !isCjkCharacter(keyword))
    throw errors.failed(
      'Please enter at least two characters (or one Chinese, Japanese or Korean character)',
    );
  return keyword;
}

/**
 * Live pages of these items holding every word of the keyword (case-insensitive), for the item
 * menu's keyword mode. The inverted index (pageIndex.ts) names the pages that can; only those are
 * read and matched.
 */
export async function findMatchingPages(itemIds: number[], keyword: string): Promise<PageDoc[]> {
  if (!itemIds.length || !keyword) return [];
  return pagesMatching(itemIds, keyword);
}

/** Moves an index off the low half of a surrogate pair so a snippet never splits a character. */
function charBoundary(text: string, index: number): number {
  const code = text.charCodeAt(index);
  return index > 0 && code >= 0xdc00 && code <= 0xdfff ? index - 1 : index;
}

/** ShowDoc's snippet: "..." + up to keyword+200 characters from ≤100 before the first hit + "...". */
export function snippet(content: string, firstHit: number, keywordLength: number): string {
  const from = charBoundary(content, Math.max(0, firstHit - SNIPPET_BEFORE));
  const to = charBoundary(
    content,
    Math.min(content.length, Math.max(firstHit, 0) + keywordLength + SNIPPET_AFTER),
  );
  return `...${escapeForClient(content.slice(from, to))}...`;
}

export interface SearchResultPage {
  page_id: string;
  author_uid: string;
  author_username: string;
  item_id: number;
  item_name: string;
  cat_id: string;
  page_title: string;
  page_comments: string;
  s_number: string;
  addtime: string;
  page_addtime: string;
  is_del: string;
  ext_info: string;
  is_draft: string;
  search_content: string;
  /** Quire: the text around the best match (plain text, not HTML) and the ranges to highlight. */
  snippet: string;
  highlights: Ranges;
  title_highlights: Ranges;
  /** Quire: the relevance score (higher is better; comparable within one answer). */
  score: number;
}

export interface SearchResult {
  item_id: number;
  item_name: string;
  pages: SearchResultPage[];
  /** Quire: attachments whose name or extracted text holds the query. */
  attachments: AttachmentHit[];
}

/** The items a user may read and search without naming one: owned, member, team member. */
async function readableItems(actor: Actor): Promise<ItemAccess[]> {
  if (!(actor.uid > 0)) return [];
  const [owned, { personal, teams: team }] = await Promise.all([
    Item.find({ uid: actor.uid, is_del: 0 }, { item_id: 1, _id: 0 }).lean(),
    memberItemRows(actor.uid),
  ]);
  const ids = [...new Set([...owned, ...personal, ...team].map((r) => r.item_id))];
  const accesses = await Promise.all(ids.map((id) => itemAccess(actor, id)));
  return accesses.filter((a): a is ItemAccess => a !== null && permits(a, 'item.read'));
}

export interface SearchOptions {
  skipCode?: boolean;
}

/**
 * `item/search`: one item (`rawItem`: its id or custom domain, the visit password when it has
 * one) or, with no item, every item the actor may read.
 */
export async function searchItemPages(
  actor: Actor,
  rawKeyword: string,
  rawItem: string,
  itemPassword: string,
  options: SearchOptions = {},
): Promise<SearchResult> {
  if (rawItem === '' || rawItem === '0') return searchPages(actor, rawKeyword, null, options);
  const access = await requireAction(actor, 'item.read', rawItem, { itemPassword });
  return searchPages(actor, rawKeyword, access, options);
}

/** The searched item (checked by the caller, passed as `access`) or, null, every readable item. */
export async function searchPages(
  actor: Actor,
  rawKeyword: string,
  access: ItemAccess | null,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const keyword = checkKeyword(rawKeyword);
  const scope = access ? [access] : await readableItems(actor);
  const names = new Map(scope.map((a) => [a.item.item_id, a.item.item_name]));
  const ranked = await rankScope(actor, scope, keyword, {
    skipCode: options.skipCode,
    limit: MAX_RESULTS,
  });
  const pages = ranked.pages.map((hit) => {
    const { page, snippet: best, highlights, title_highlights, score, first_hit: first } = hit;
    const content = searchableText(page.page_content);
    const text = options.skipCode ? splitCode(content).prose : content;
    return {
      page_id: String(page.page_id),
      author_uid: String(page.author_uid),
      author_username: page.author_username,
      item_id: page.item_id,
      item_name: names.get(page.item_id) ?? '',
      cat_id: String(page.cat_id),
      page_title: page.page_title,
      page_comments: page.page_comments ?? '',
      s_number: String(page.s_number),
      addtime: String(page.addtime),
      page_addtime: String(page.page_addtime ?? 0),
      is_del: String(page.is_del),
      ext_info: page.ext_info ?? '',
      is_draft: String(page.is_draft ?? 0),
      search_content: snippet(text, first.at, first.at < 0 ? keyword.length : first.length),
      snippet: best,
      highlights,
      title_highlights,
      score,
    };
  });
  // Across items: each item's hits together (in relevance order, the sort is stable), items in
  // the order of their best hit.
  if (!access) {
    const firstOf = new Map<number, number>();
    pages.forEach((p, i) => void (firstOf.has(p.item_id) || firstOf.set(p.item_id, i)));
    pages.sort((a, b) => firstOf.get(a.item_id)! - firstOf.get(b.item_id)!);
  }
  const attachments = ranked.attachments;
  return access
    ? { item_id: access.item.item_id, item_name: access.item.item_name, pages, attachments }
    : { item_id: 0, item_name: '', pages, attachments };
}

/** One page found by `rankedSearch`. */
export interface PageHit {
  type: 'page';
  page_id: number;
  page_title: string;
  item_id: number;
  item_name: string;
  cat_id: number;
  score: number;
  snippet: string;
  highlights: Ranges;
  title_highlights: Ranges;
  addtime: number;
}

export interface RankedSearchOptions {
  skipCode?: boolean;
  /** Most page hits (default 20, at most MAX_RESULTS). */
  limit?: number;
  /** The item's visit password, when it has one and the actor is not a member. */
  itemPassword?: string;
  /** Search attachments too (default true). */
  attachments?: boolean;
}

/**
 * Ranked search for callers inside Quire (the assistant, MCP): the pages and attachments of one
 * item (`itemId`: its id or custom domain) or, with 0/null, of every item the actor may read, as
 * the actor may see them. Throws as `item/search` does (10101 bad query, 10303 no access…).
 */
export async function rankedSearch(
  actor: Actor,
  itemId: number | string | null,
  query: string,
  options: RankedSearchOptions = {},
): Promise<{ pages: PageHit[]; attachments: AttachmentHit[] }> {
  const keyword = checkKeyword(query);
  const rawItem = itemId === null ? '' : String(itemId).trim();
  const scope =
    rawItem === '' || rawItem === '0'
      ? await readableItems(actor)
      : [await requireAction(actor, 'item.read', rawItem, { itemPassword: options.itemPassword })];
  const names = new Map(scope.map((a) => [a.item.item_id, a.item.item_name]));
  const ranked = await rankScope(actor, scope, keyword, {
    skipCode: options.skipCode,
    limit: Math.min(Math.max(1, options.limit ?? 20), MAX_RESULTS),
    attachments: options.attachments,
  });
  return {
    pages: ranked.pages.map(({ page, score, snippet: text, highlights, title_highlights }) => ({
      type: 'page',
      page_id: page.page_id,
      page_title: page.page_title,
      item_id: page.item_id,
      item_name: names.get(page.item_id) ?? '',
      cat_id: page.cat_id,
      score,
      snippet: text,
      highlights,
      title_highlights,
      addtime: page.addtime,
    })),
    attachments: ranked.attachments,
  };
}
