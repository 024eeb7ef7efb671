/**
 * An inverted index of each item's live pages (title and content), so a keyword search reads only
 * the pages that can contain the keyword instead of running a regex over every page.
 *
 * Terms: words (runs of letters, digits, marks and `_`, outside CJK scripts) and, for Chinese,
 * Japanese and Korean text (no spaces between words), every character and every pair of adjacent
 * characters. Text is case-folded the way a case-insensitive regex compares characters, so the
 * index never misses what the regex would match.
 *
 * The index only narrows: search.ts still matches the keyword literally against each candidate
 * page loaded from the database, so results are exactly today's (substring, case-insensitive);
 * a keyword inside a word ("point" in "endpoint") is found through the term list.
 *
 * Kept in memory, built lazily per item on its first search, and bounded (least recently searched
 * items are dropped past MAX_INDEXED_ITEMS or MAX_POSTINGS). Not persisted: it is rebuilt from the
 * pages in one read, and a persisted copy would be one more thing to keep exact. Kept exact by the
 * domain events, which the bus relays from other processes too: a saved or deleted page is marked
 * stale synchronously when the event is delivered (before the saving request answers) and re-read
 * on the next search; a menu change (restore from the bin, catalog copy) or an item change drops
 * the item's index.
 */
import { events, perContext, type DomainEvents } from '../platform';
import { Page, searchableText } from '../pages';

/** Items whose index is kept (least recently searched dropped first). */
export const MAX_INDEXED_ITEMS = 64;
/** Postings (term × page pairs) kept over all items: about 40 MB. */
export const MAX_POSTINGS = 1_000_000;

const CJK_CLASS = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\p{Script=Hangul}';
/** A CJK run, or a word (letters, digits, marks, `_` of other scripts). */
const TOKEN = new RegExp(`([${CJK_CLASS}]+)|((?:(?![${CJK_CLASS}])[\\p{L}\\p{N}\\p{M}_])+)`, 'gu');

const foldCache = new Map<string, string>();

/**
 * What a case-insensitive (non-unicode) regex compares: each character's upper case when that is
 * one character, else the character itself. Whole-string upper-casing is the fast path when it
 * keeps the length (then it mapped character by character).
 */
export function fold(text: string): string {
  const upper = text.toUpperCase();
  if (upper.length === text.length) return upper;
  let out = '';
  for (const ch of text) {
    let folded = foldCache.get(ch);
    if (folded === undefined) {
      const u = ch.toUpperCase();
      folded = u.length === ch.length ? u : ch;
      foldCache.set(ch, folded);
    }
    out += folded;
  }
  return out;
}

/** The terms of a text (already folded): words, CJK characters and CJK pairs, each once. */
export function termsOf(folded: string): Set<string> {
  const terms = new Set<string>();
  for (const match of folded.matchAll(TOKEN)) {
    if (match[2] !== undefined) {
      terms.add(match[2]);
      continue;
    }
    const chars = [...match[1]];
    for (let i = 0; i < chars.length; i++) {
      terms.add(chars[i]);
      if (i + 1 < chars.length) terms.add(chars[i] + chars[i + 1]);
    }
  }
  return terms;
}

/**
 * What a page must hold to contain the keyword: for each word of the keyword, some term that
 * contains it (the keyword may start or end inside a page's word); for each CJK run, its pair
 * terms (or its character, for a one-character run). Empty when the keyword has neither
 * (punctuation only): the index cannot narrow such a search.
 */
export interface KeywordNeeds {
  words: string[];
  exact: string[];
}

export function keywordNeeds(keyword: string): KeywordNeeds {
  const needs: KeywordNeeds = { words: [], exact: [] };
  for (const match of fold(keyword).matchAll(TOKEN)) {
    if (match[2] !== undefined) {
      needs.words.push(match[2]);
      continue;
    }
    const chars = [...match[1]];
    if (chars.length === 1) needs.exact.push(chars[0]);
    for (let i = 0; i + 1 < chars.length; i++) needs.exact.push(chars[i] + chars[i + 1]);
  }
  return needs;
}

class ItemIndex {
  readonly postings = new Map<string, Set<number>>();
  readonly termsByPage = new Map<number, string[]>();
  /** Pages saved or deleted since they were indexed: re-read before the next search. */
  readonly stale = new Set<number>();
  size = 0;
  ready: Promise<void> | null = null;
  /** The last refresh: a search waits for one in flight (it may be re-reading a saved page). */
  refreshed: Promise<void> = Promise.resolve();

  put(pageId: number, title: string, content: string): void {
    this.remove(pageId);
    const terms = [...termsOf(fold(`${title}\n${content}`))];
    for (const term of terms) {
      let pages = this.postings.get(term);
      if (!pages) this.postings.set(term, (pages = new Set()));
      pages.add(pageId);
    }
    this.termsByPage.set(pageId, terms);
    this.size += terms.length;
  }

  remove(pageId: number): void {
    const terms = this.termsByPage.get(pageId);
    if (!terms) return;
    for (const term of terms) {
      const pages = this.postings.get(term);
      pages?.delete(pageId);
      if (pages?.size === 0) this.postings.delete(term);
    }
    this.termsByPage.delete(pageId);
    this.size -= terms.length;
  }

  /** Pages holding a term that contains `word`. */
  containing(word: string): Set<number> {
    const found = new Set<number>(this.postings.get(word) ?? []);
    for (const [term, pages] of this.postings)
      if (term.length > word.length && term.includes(word)) for (const id of pages) found.add(id);
    return found;
  }

  candidates(needs: KeywordNeeds): number[] {
    const sets = [
      ...needs.exact.map((term) => this.postings.get(term) ?? new Set<number>()),
      ...needs.words.map((word) => this.containing(word)),
    ].sort((a, b) => a.size - b.size);
    if (!sets.length) return [];
    return [...sets[0]].filter((id) => sets.every((set) => set.has(id)));
  }
}

/**
 * The instance's indexes: itemId → index, in least-recently-used order (Map keeps insertion
 * order), kept exact by page and item events, relayed ones included (another process's save must
 * reach this process's index).
 */
const itemIndexes = perContext(() => {
  const indexes = new Map<number, ItemIndex>();
  const markStale = ({ itemId, pageId }: { itemId: number; pageId: number }) =>
    void indexes.get(itemId)?.stale.add(pageId);
  events.subscribe('page.saved', markStale);
  events.subscribe('page.deleted', markStale);
  events.subscribe('page.purged', ({ itemId, pageIds }: DomainEvents['page.purged']) => {
    for (const pageId of pageIds) markStale({ itemId, pageId });
  });
  events.subscribe('menu.changed', ({ itemId }) => void indexes.delete(itemId));
  events.subscribe('item.changed', ({ itemId }) => void indexes.delete(itemId));
  return indexes;
});

function evict(): void {
  const indexes = itemIndexes();
  let total = 0;
  for (const index of indexes.values()) total += index.size;
  for (const [itemId, index] of indexes) {
    if (indexes.size <= MAX_INDEXED_ITEMS && total <= MAX_POSTINGS) break;
    if (indexes.size === 1) break; // the one being searched stays
    indexes.delete(itemId);
    total -= index.size;
  }
}

async function build(itemId: number, index: ItemIndex): Promise<void> {
  const pages = await Page.find(
    { item_id: itemId, is_del: 0 },
    { page_id: 1, page_title: 1, page_content: 1, _id: 0 },
  ).lean();
  for (const page of pages)
    index.put(page.page_id, page.page_title, searchableText(page.page_content));
}

/** Re-reads the pages marked stale (saved: re-indexed; deleted or moved away: removed). */
async function refresh(itemId: number, index: ItemIndex): Promise<void> {
  if (!index.stale.size) return;
  const ids = [...index.stale];
  index.stale.clear();
  const pages = await Page.find(
    { page_id: { $in: ids } },
    { page_id: 1, item_id: 1, is_del: 1, page_title: 1, page_content: 1, _id: 0 },
  ).lean();
  const live = new Map(
    pages.filter((p) => p.item_id === itemId && p.is_del === 0).map((p) => [p.page_id, p]),
  );
  for (const id of ids) {
    const page = live.get(id);
    if (page) index.put(id, page.page_title, searchableText(page.page_content));
    else index.remove(id);
  }
}

/** The item's index, built on first use and brought up to date with the pages marked stale. */
async function indexOf(itemId: number): Promise<ItemIndex> {
  const indexes = itemIndexes();
  let index = indexes.get(itemId);
  if (index) indexes.delete(itemId);
  else index = new ItemIndex();
  // Registered before it is built, so saves during the build are marked on it.
  indexes.set(itemId, index);
  index.ready ??= build(itemId, index).catch((error: unknown) => {
    indexes.delete(itemId);
    throw error;
  });
  await index.ready;
  const current = index;
  index.refreshed = index.refreshed.then(() => refresh(itemId, current));
  await index.refreshed;
  evict();
  return index;
}

/**
 * The ids of the live pages of these items that may contain the keyword (a superset: the caller
 * matches each), or null when the keyword has no indexable term and every page is a candidate.
 */
export async function candidatePageIds(
  itemIds: number[],
  keyword: string,
): Promise<number[] | null> {
  const needs = keywordNeeds(keyword);
  if (!needs.words.length && !needs.exact.length) return null;
  const ids: number[] = [];
  for (const itemId of itemIds) ids.push(...(await indexOf(itemId)).candidates(needs));
  return ids;
}

/** For tests and the bench: how many items are indexed now. */
export function indexedItemCount(): number {
  return itemIndexes().size;
}
