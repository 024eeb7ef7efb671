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
import MiniSearch from 'minisearch';
import { events, noteUntracedRead, perContext, type DomainEvents } from '../platform';
import { Page, searchableText } from '../pages';
import { itemFilesWithText } from '../files';
import { splitCode } from './snippet';

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

/** The tokens of a text (already folded) with repeats, for scoring: words, CJK characters and pairs. */
export function tokensOf(folded: string): string[] {
  const tokens: string[] = [];
  for (const match of folded.matchAll(TOKEN)) {
    if (match[2] !== undefined) {
      tokens.push(match[2]);
      continue;
    }
    const chars = [...match[1]];
    for (let i = 0; i < chars.length; i++) {
      tokens.push(chars[i]);
      if (i + 1 < chars.length) tokens.push(chars[i] + chars[i + 1]);
    }
  }
  return tokens;
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

/** A page as the scorer sees it: prose and fenced code apart, so code can weigh less or nothing. */
interface ScoredPage {
  id: number;
  title: string;
  prose: string;
  code: string;
}

/** An attachment with extracted text, as search needs it (the text is kept for snippets). */
export interface IndexedAttachment {
  id: number;
  file_id: number;
  sign: string;
  display_name: string;
  text: string;
  addtime: number;
  /** Pages the file is attached to (empty: a file of the item itself). */
  pageIds: number[];
}

/** Expansions of a query word into the index's terms that contain it ("ndpoi" → ENDPOINT). */
const MAX_EXPANSIONS = 12;

const tokenizeFolded = (text: string) => tokensOf(fold(text));
const identity = (term: string) => term;

/**
 * MiniSearch scores (BM25+, per field, length-normalised). Query terms are handed over already
 * made (index terms), so its own tokenizer and term processing stay out of the query's way.
 */
function newScorer<T>(fields: string[]): MiniSearch<T> {
  return new MiniSearch<T>({
    idField: 'id',
    fields,
    storeFields: [],
    tokenize: tokenizeFolded,
    processTerm: identity,
    searchOptions: { tokenize: (text) => [text], processTerm: identity },
  });
}

class ItemIndex {
  readonly scorer = newScorer<ScoredPage>(['title', 'prose', 'code']);
  /** The item's attachments with text; null until read (and again after an attachment change). */
  attachments: Map<number, IndexedAttachment> | null = null;
  attachmentScorer = newScorer<IndexedAttachment>(['display_name', 'text']);
  attachmentsLoading: Promise<void> | null = null;
  /** Bumped by every attachment change, so a read begun before one is not kept. */
  attachmentGeneration = 0;
  /**
   * Ranked matches of recent queries (ranked.ts), dropped by any change to the pages: a search
   * repeated before the next edit skips matching, scoring and snippets.
   */
  readonly rankedCache = new Map<string, unknown>();
  /** Bumped by every page put or removed, so a ranking computed across a change is not kept. */
  version = 0;
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
    this.version++;
    this.rankedCache.clear();
    const terms = [...termsOf(fold(`${title}\n${content}`))];
    for (const term of terms) {
      let pages = this.postings.get(term);
      if (!pages) this.postings.set(term, (pages = new Set()));
      pages.add(pageId);
    }
    this.termsByPage.set(pageId, terms);
    this.size += terms.length;
    const { prose, code } = splitCode(content);
    const doc = { id: pageId, title, prose, code };
    if (this.scorer.has(pageId)) this.scorer.replace(doc);
    else this.scorer.add(doc);
  }

  remove(pageId: number): void {
    const terms = this.termsByPage.get(pageId);
    if (!terms) return;
    this.version++;
    this.rankedCache.clear();
    for (const term of terms) {
      const pages = this.postings.get(term);
      pages?.delete(pageId);
      if (pages?.size === 0) this.postings.delete(term);
    }
    this.termsByPage.delete(pageId);
    this.size -= terms.length;
    if (this.scorer.has(pageId)) this.scorer.discard(pageId);
  }

  /** The index terms a query part stands for: its words (or the terms containing them), CJK pairs. */
  termsFor(parts: string[]): string[] {
    const terms = new Set<string>();
    for (const part of parts) {
      const needs = keywordNeeds(part);
      for (const term of needs.exact) terms.add(term);
      for (const word of needs.words) {
        if (this.postings.has(word)) {
          terms.add(word);
          continue;
        }
        let added = 0;
        for (const term of this.postings.keys()) {
          if (!term.includes(word)) continue;
          terms.add(term);
          if (++added >= MAX_EXPANSIONS) break;
        }
      }
    }
    return [...terms];
  }

  /**
   * Relevance of the given pages for the query parts: title above prose above code (code not at
   * all with `skipCode`). Pages without a scoring term (a punctuation query) are absent.
   */
  score(parts: string[], pageIds: Set<number>, skipCode: boolean): Map<number, number> {
    const terms = this.termsFor(parts);
    const scores = new Map<number, number>();
    if (!terms.length || !pageIds.size) return scores;
    const results = this.scorer.search(
      { combineWith: 'OR', queries: terms },
      {
        fields: skipCode ? ['title', 'prose'] : ['title', 'prose', 'code'],
        boost: { title: 3, prose: 1, code: 0.4 },
        filter: (result) => pageIds.has(result.id as number),
      },
    );
    for (const result of results) scores.set(result.id as number, result.score);
    return scores;
  }

  /** Relevance of the item's attachments for the query parts (name above text). */
  scoreAttachments(parts: string[], ids: Set<number>): Map<number, number> {
    const scores = new Map<number, number>();
    const terms = [...new Set(parts.flatMap((part) => tokensOf(fold(part))))];
    if (!terms.length || !ids.size) return scores;
    const results = this.attachmentScorer.search(
      { combineWith: 'OR', queries: terms },
      {
        boost: { display_name: 2, text: 1 },
        prefix: true,
        filter: (result) => ids.has(result.id as number),
      },
    );
    for (const result of results) scores.set(result.id as number, result.score);
    return scores;
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
  // Uploads, bindings, deletions and finished text extraction: the attachments are read again.
  events.subscribe('attachment.changed', ({ itemId }) => {
    const index = indexes.get(itemId);
    if (!index) return;
    index.attachments = null;
    index.attachmentGeneration++;
  });
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

/** Pages read per batch while an index is built. */
const BUILD_BATCH = 200;
/** Pages indexed between two turns given back to the process's other work. */
const PAGES_PER_TURN = 25;

/**
 * Reads the item's pages in batches and indexes them a few at a time, giving the event loop back
 * in between: indexing costs about a millisecond per 3 KB page, so a 100,000-page item takes a
 * minute or more, and in one go it held every other request of the process for all of it. Pages
 * saved or deleted meanwhile are marked stale on the index (registered before the build) and
 * re-read after it, so the result is exact. Nor are all the texts in memory at once.
 */
async function build(itemId: number, index: ItemIndex): Promise<void> {
  const pages = Page.find(
    { item_id: itemId, is_del: 0 },
    { page_id: 1, page_title: 1, page_content: 1, _id: 0 },
  )
    .lean()
    .cursor({ batchSize: BUILD_BATCH });
  let sinceTurn = 0;
  for await (const page of pages) {
    index.put(page.page_id, page.page_title, searchableText(page.page_content));
    if (++sinceTurn < PAGES_PER_TURN) continue;
    sinceTurn = 0;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
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

/** Longest text kept per attachment in memory (the stored text is bounded at extraction too). */
const MAX_ATTACHMENT_TEXT = 200_000;

async function loadAttachments(
  itemId: number,
  index: ItemIndex,
  generation: number,
): Promise<void> {
  const files = await itemFilesWithText(itemId);
  const attachments = new Map<number, IndexedAttachment>();
  const scorer = newScorer<IndexedAttachment>(['display_name', 'text']);
  for (const file of files) {
    const entry = { id: file.file_id, ...file, text: file.text.slice(0, MAX_ATTACHMENT_TEXT) };
    attachments.set(entry.id, entry);
    scorer.add(entry);
  }
  if (index.attachmentGeneration !== generation) return;
  index.attachmentScorer = scorer;
  index.attachments = attachments;
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
 * The indexes of these items, each built and brought up to date. The indexes change in place,
 * which a read trace cannot follow: an answer that searched is never reused (api/answerCache.ts).
 */
export async function indexesOf(itemIds: number[]): Promise<Map<number, ItemIndex>> {
  noteUntracedRead();
  const found = new Map<number, ItemIndex>();
  for (const itemId of itemIds) found.set(itemId, await indexOf(itemId));
  return found;
}

/**
 * The ids of the live pages in these indexes that may contain every word of the keyword (a
 * superset: the caller matches each), or null when the keyword has no indexable term and every
 * page is a candidate.
 */
export function candidatesIn(indexes: Iterable<ItemIndex>, keyword: string): number[] | null {
  const needs = keywordNeeds(keyword);
  if (!needs.words.length && !needs.exact.length) return null;
  const ids: number[] = [];
  for (const index of indexes) ids.push(...index.candidates(needs));
  return ids;
}

export async function candidatePageIds(
  itemIds: number[],
  keyword: string,
): Promise<number[] | null> {
  const needs = keywordNeeds(keyword);
  if (!needs.words.length && !needs.exact.length) return null;
  return candidatesIn((await indexesOf(itemIds)).values(), keyword);
}

/** The item's attachments with text, read on first use after a change. */
export async function withAttachments(index: ItemIndex, itemId: number): Promise<ItemIndex> {
  while (!index.attachments) {
    const generation = index.attachmentGeneration;
    index.attachmentsLoading ??= loadAttachments(itemId, index, generation).finally(() => {
      index.attachmentsLoading = null;
    });
    await index.attachmentsLoading;
    if (index.attachmentGeneration !== generation) continue;
  }
  return index;
}

export type { ItemIndex };

/** For tests and the bench: how many items are indexed now. */
export function indexedItemCount(): number {
  return itemIndexes().size;
}
