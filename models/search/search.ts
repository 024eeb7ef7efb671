/**
 * Keyword search over page titles and content (`item/search`, reference accounts §9.7, and the
 * keyword mode of the item menu).
 *
 * - The keyword is matched literally and case-insensitively: it is regex-escaped before reaching
 *   the database, so `.*` or `(` find those characters instead of matching everything or failing.
 * - Substring matching (no word splitting) works the same for Chinese, Japanese and Korean text,
 *   which has no spaces between words. A one-character keyword is accepted only when it is a CJK
 *   character (one such character is a word; one Latin letter would match nearly every page).
 * - Access: only items the user may visit; inside them only pages the user may see — no other
 *   author's drafts, nothing outside a member's catalog restriction (sub-catalogs included).
 * - Pages are found through an inverted index of each item (pageIndex.ts), then matched exactly.
 * - Ranking: title hits first, then more hits, then the most recently saved. Each result carries a
 *   `search_content` snippet around the first hit in the content.
 */
import {
  catalogParents,
  catalogVisible,
  itemAccess,
  permits,
  requireAction,
  type Actor,
  type ItemAccess,
} from '../access';
import { errors } from '../platform';
import { escapeForClient, findLivePages, Page, type PageDoc, searchableText } from '../pages';
import { Item } from '../items';
import { ItemMember, TeamItemMember } from '../members/schemas';
import { candidatePageIds } from './pageIndex';

export const MAX_KEYWORD_LENGTH = 100;
/** Results returned per search (the best ones after ranking). */
export const MAX_RESULTS = 200;
/** Hits counted per page for ranking; beyond this a page is simply "very relevant". */
const MAX_COUNTED_HITS = 1000;
const SNIPPET_BEFORE = 100;
const SNIPPET_AFTER = 200;

/** Ideographs, kana and Hangul — letters that carry meaning alone (not CJK punctuation). */
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;

/** Escapes every character a regular expression treats specially. */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
}

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
 * Live pages of these items whose title or content contains the keyword (case-insensitive). The
 * inverted index (pageIndex.ts) names the pages that can; only those are read and matched.
 */
export async function findMatchingPages(itemIds: number[], keyword: string): Promise<PageDoc[]> {
  if (!itemIds.length || !keyword) return [];
  const candidates = await candidatePageIds(itemIds, keyword);
  if (candidates && !candidates.length) return [];
  const matcher = new RegExp(escapeRegExp(keyword), 'i');
  // Without a term to look up (punctuation only), the database matches every page.
  const pattern = { $regex: matcher.source, $options: 'i' };
  const inScope = new Set(itemIds);
  // The index's candidates come from the pages' read model (memory first, one query for the rest).
  const pages = candidates
    ? (await findLivePages(candidates)).filter((p) => inScope.has(p.item_id))
    : await Page.find(
        {
          $or: [{ page_title: pattern }, { page_content: pattern }],
          item_id: itemIds.length === 1 ? itemIds[0] : { $in: itemIds },
          is_del: 0,
        },
        { _id: 0 },
      ).lean<PageDoc[]>();
  return pages.filter(
    (p) => matcher.test(p.page_title) || matcher.test(searchableText(p.page_content)),
  );
}

interface Ranked {
  page: PageDoc;
  titleHit: boolean;
  hits: number;
  firstContentHit: number;
}

/** `matcher` must carry the `g` flag (matchAll works on a copy, so it stays stateless). */
function rank(page: PageDoc, matcher: RegExp): Ranked {
  let hits = 0;
  let firstContentHit = -1;
  for (const _ of page.page_title.matchAll(matcher)) hits++;
  const titleHit = hits > 0;
  for (const match of searchableText(page.page_content).matchAll(matcher)) {
    if (firstContentHit < 0) firstContentHit = match.index;
    if (++hits >= MAX_COUNTED_HITS) break;
  }
  return { page, titleHit, hits, firstContentHit };
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
}

export interface SearchResult {
  item_id: number;
  item_name: string;
  pages: SearchResultPage[];
}

/** The items a user may read and search without naming one: owned, member, team member. */
async function readableItems(actor: Actor): Promise<ItemAccess[]> {
  if (!(actor.uid > 0)) return [];
  const [owned, personal, team] = await Promise.all([
    Item.find({ uid: actor.uid, is_del: 0 }, { item_id: 1, _id: 0 }).lean(),
    ItemMember.find({ uid: actor.uid }, { item_id: 1, _id: 0 }).lean(),
    TeamItemMember.find({ member_uid: actor.uid }, { item_id: 1, _id: 0 }).lean(),
  ]);
  const ids = [...new Set([...owned, ...personal, ...team].map((r) => r.item_id))];
  const accesses = await Promise.all(ids.map((id) => itemAccess(actor, id)));
  return accesses.filter((a): a is ItemAccess => a !== null && permits(a, 'item.read'));
}

/**
 * `item/search`: one item (visit checked by the caller, passed as `access`) or every item the
 * user may read (`access` null).
 */
/**
 * `item/search`: one item (`rawItem`: its id or custom domain, the visit password when it has
 * one) or, with no item, every item the actor may read.
 */
export async function searchItemPages(
  actor: Actor,
  rawKeyword: string,
  rawItem: string,
  itemPassword: string,
): Promise<SearchResult> {
  if (rawItem === '' || rawItem === '0') return searchPages(actor, rawKeyword, null);
  const access = await requireAction(actor, 'item.read', rawItem, { itemPassword });
  return searchPages(actor, rawKeyword, access);
}

export async function searchPages(
  actor: Actor,
  rawKeyword: string,
  access: ItemAccess | null,
): Promise<SearchResult> {
  const keyword = checkKeyword(rawKeyword);
  const scope = access ? [access] : await readableItems(actor);
  const byItem = new Map(scope.map((a) => [a.item.item_id, a]));
  const found = await findMatchingPages([...byItem.keys()], keyword);

  // Catalog trees are loaded only for items where the user is restricted.
  const restricted = new Map<
    number,
    ReadonlyMap<number, { parent_cat_id: number; level: number }>
  >();
  await Promise.all(
    scope
      .filter((a) => a.catalogRestriction)
      .map(async (a) => restricted.set(a.item.item_id, await catalogParents(a.item.item_id))),
  );
  const visible = found.filter((page) => {
    if (page.is_draft && page.author_uid !== actor.uid) return false;
    const itemAccessRow = byItem.get(page.item_id);
    if (!itemAccessRow) return false;
    const parents = restricted.get(page.item_id);
    return !parents || catalogVisible(itemAccessRow, page.cat_id, parents);
  });

  const matcher = new RegExp(escapeRegExp(keyword), 'gi');
  const ranked = visible
    .map((page) => rank(page, matcher))
    .sort(
      (a, b) =>
        Number(b.titleHit) - Number(a.titleHit) ||
        b.hits - a.hits ||
        b.page.addtime - a.page.addtime ||
        a.page.page_id - b.page.page_id,
    )
    .slice(0, MAX_RESULTS);

  const pages = ranked.map(({ page, firstContentHit }) => {
    const item = byItem.get(page.item_id)!.item;
    return {
      page_id: String(page.page_id),
      author_uid: String(page.author_uid),
      author_username: page.author_username,
      item_id: page.item_id,
      item_name: item.item_name,
      cat_id: String(page.cat_id),
      page_title: page.page_title,
      page_comments: page.page_comments ?? '',
      s_number: String(page.s_number),
      addtime: String(page.addtime),
      page_addtime: String(page.page_addtime ?? 0),
      is_del: String(page.is_del),
      ext_info: page.ext_info ?? '',
      is_draft: String(page.is_draft ?? 0),
      search_content: snippet(searchableText(page.page_content), firstContentHit, keyword.length),
    };
  });
  return access
    ? { item_id: access.item.item_id, item_name: access.item.item_name, pages }
    : { item_id: 0, item_name: '', pages };
}
