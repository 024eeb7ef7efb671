/**
 * Ranked search over the items an actor may read: pages and attachments that hold every part of
 * the query (query.ts), ordered by relevance, each with a snippet around its best match.
 *
 * Order of pages: more query parts in the title first (a title hit beats any body), then the
 * MiniSearch BM25+ score (title ×3, prose ×1, code ×0.4 or not at all with `skipCode`; CJK text
 * scored by characters and pairs; length-normalised), ×1.5 when the bare words appear together as
 * typed (the exact phrase), then the most recently saved.
 *
 * Access is the one `item/search` always had: items the actor may read (checked by the caller or
 * listed here), never another author's draft, nothing outside a member's catalog restriction.
 * An attachment is found only when one of the pages it is attached to is found visible by the
 * same rules (a file of the item itself: when the actor may read the item).
 */
import { catalogParents, catalogVisible, type Actor, type ItemAccess } from '../access';
import { findLivePages, Page, type PageDoc, searchableText } from '../pages';
import {
  candidatesIn,
  indexesOf,
  withAttachments,
  type IndexedAttachment,
  type ItemIndex,
} from './pageIndex';
import { matchesAll, parseQuery, partsFound, type ParsedQuery } from './query';
import {
  firstHit,
  highlightRanges,
  makeSnippet,
  splitCode,
  type Ranges,
  type Snippet,
} from './snippet';

/** Boost of a page holding the bare words together, as typed. */
const PHRASE_BOOST = 1.5;

export interface RankOptions {
  /** Leave fenced code blocks out of matching, scoring and snippets. */
  skipCode?: boolean;
  /** Most page hits returned (attachments have their own, smaller bound). */
  limit?: number;
  /** Also search the attachments' extracted text (default true). */
  attachments?: boolean;
}

export interface RankedPage {
  page: PageDoc;
  score: number;
  snippet: string;
  highlights: Ranges;
  title_highlights: Ranges;
  /** Where ShowDoc's `search_content` starts: the first hit in the searched text (-1: none). */
  first_hit: { at: number; length: number };
}

export interface AttachmentHit {
  type: 'attachment';
  file_id: number;
  display_name: string;
  /** Relative download URL (ShowDoc's visitFile form). */
  url: string;
  item_id: number;
  item_name: string;
  /** The first visible page the file is attached to (0: a file of the item). */
  page_id: number;
  page_title: string;
  score: number;
  snippet: string;
  highlights: Ranges;
  addtime: number;
}

export interface RankedResult {
  pages: RankedPage[];
  attachments: AttachmentHit[];
}

/** Attachment hits returned per search. */
export const MAX_ATTACHMENT_HITS = 20;

function visibleFilter(actor: Actor, scope: ItemAccess[]) {
  const byItem = new Map(scope.map((a) => [a.item.item_id, a]));
  const restricted = new Map<number, Awaited<ReturnType<typeof catalogParents>>>();
  const load = Promise.all(
    scope
      .filter((a) => a.catalogRestriction)
      .map(async (a) => restricted.set(a.item.item_id, await catalogParents(a.item.item_id))),
  );
  return async () => {
    await load;
    return (page: Pick<PageDoc, 'item_id' | 'cat_id' | 'is_draft' | 'author_uid'>) => {
      if (page.is_draft && page.author_uid !== actor.uid) return false;
      const access = byItem.get(page.item_id);
      if (!access) return false;
      const parents = restricted.get(page.item_id);
      return !parents || catalogVisible(access, page.cat_id, parents);
    };
  };
}

function searchedText(page: PageDoc, skipCode: boolean): string {
  // A whiteboard's words, not its geometry (models/pages whiteboardContent).
  const text = searchableText(page.page_content);
  return skipCode ? splitCode(text).prose : text;
}

/** Live pages of the indexed items holding every part of the query. */
async function matchingPages(
  indexes: Map<number, ItemIndex>,
  keyword: string,
  query: ParsedQuery,
  skipCode: boolean,
): Promise<PageDoc[]> {
  const itemIds = [...indexes.keys()];
  if (!itemIds.length || !query.parts.length) return [];
  const candidates = candidatesIn(indexes.values(), keyword);
  if (candidates && !candidates.length) return [];
  const inScope = new Set(itemIds);
  // Without a term to look up (punctuation only), the database narrows by the first part.
  const first = { $regex: query.patterns[0].source, $options: 'i' };
  const pages = candidates
    ? (await findLivePages(candidates)).filter((p) => inScope.has(p.item_id))
    : await Page.find(
        {
          $or: [{ page_title: first }, { page_content: first }],
          item_id: itemIds.length === 1 ? itemIds[0] : { $in: itemIds },
          is_del: 0,
        },
        { _id: 0 },
      ).lean<PageDoc[]>();
  return pages.filter((p) => matchesAll(query, [p.page_title, searchedText(p, skipCode)]));
}

/** Pages of these items holding every word of the keyword (the item menu's keyword mode). */
export async function pagesMatching(itemIds: number[], keyword: string): Promise<PageDoc[]> {
  return matchingPages(await indexesOf(itemIds), keyword, parseQuery(keyword), false);
}

function phraseFound(query: ParsedQuery, texts: string[]): boolean {
  const pattern = query.phrasePattern;
  return pattern !== null && texts.some((text) => pattern.test(text));
}

/** A page matching a query in one item, before access: what the item's ranked cache keeps. */
interface Match {
  pageId: number;
  inTitle: number;
  score: number;
  snippet: Snippet;
  titleHighlights: Ranges;
  firstHit: { at: number; length: number };
}

/** Queries remembered per item (least recently asked dropped first). */
const MAX_CACHED_QUERIES = 32;
/** Matches remembered per query (a broader query is ranked again each time). */
const MAX_CACHED_MATCHES = 500;

/** The item's pages holding the query, scored, with their snippets (from its cache when fresh). */
async function matchesIn(
  index: ItemIndex,
  itemId: number,
  keyword: string,
  query: ParsedQuery,
  skipCode: boolean,
): Promise<Match[]> {
  const key = `${skipCode ? 1 : 0}:${keyword}`;
  const cached = index.rankedCache.get(key) as Match[] | undefined;
  if (cached) {
    index.rankedCache.delete(key);
    index.rankedCache.set(key, cached);
    return cached;
  }
  const version = index.version;
  const pages = await matchingPages(new Map([[itemId, index]]), keyword, query, skipCode);
  const scores = index.score(query.parts, new Set(pages.map((p) => p.page_id)), skipCode);
  const matches = pages.map((page) => {
    const text = searchedText(page, skipCode);
    const boost = phraseFound(query, [page.page_title, text]) ? PHRASE_BOOST : 1;
    return {
      pageId: page.page_id,
      inTitle: partsFound(query, page.page_title),
      score: Math.round((scores.get(page.page_id) ?? 0) * boost * 1000) / 1000,
      snippet: makeSnippet(query, text),
      titleHighlights: highlightRanges(query, page.page_title),
      firstHit: firstHit(query, text),
    };
  });
  if (index.version === version && matches.length <= MAX_CACHED_MATCHES) {
    index.rankedCache.set(key, matches);
    if (index.rankedCache.size > MAX_CACHED_QUERIES)
      index.rankedCache.delete(index.rankedCache.keys().next().value!);
  }
  return matches;
}

/** Ranked pages (and attachments) of `scope` for the keyword. */
export async function rankScope(
  actor: Actor,
  scope: ItemAccess[],
  keyword: string,
  options: RankOptions = {},
): Promise<RankedResult> {
  const skipCode = options.skipCode === true;
  const limit = options.limit ?? 200;
  const query = parseQuery(keyword);
  const visibility = visibleFilter(actor, scope);
  const indexes = await indexesOf(scope.map((a) => a.item.item_id));
  const matches: Match[] = [];
  if (query.parts.length)
    for (const [itemId, index] of indexes)
      matches.push(...(await matchesIn(index, itemId, keyword, query, skipCode)));
  // Access from the pages as they are now (the read model: memory first).
  const live = new Map(
    (await findLivePages(matches.map((m) => m.pageId))).map((p) => [p.page_id, p]),
  );
  const visible = await visibility();
  const ranked = matches
    .map((match) => ({ match, page: live.get(match.pageId)! }))
    .filter(({ page }) => page !== undefined && visible(page))
    .sort(
      (a, b) =>
        b.match.inTitle - a.match.inTitle ||
        b.match.score - a.match.score ||
        b.page.addtime - a.page.addtime ||
        a.page.page_id - b.page.page_id,
    )
    .slice(0, limit)
    .map(({ match, page }) => ({
      page,
      score: match.score,
      snippet: match.snippet.text,
      highlights: match.snippet.highlights,
      title_highlights: match.titleHighlights,
      first_hit: match.firstHit,
    }));

  const attachments =
    options.attachments === false || !query.parts.length
      ? []
      : await rankAttachments(scope, indexes, query, visible);
  return { pages: ranked, attachments };
}

async function rankAttachments(
  scope: ItemAccess[],
  indexes: Map<number, ItemIndex>,
  query: ParsedQuery,
  visible: (page: PageDoc) => boolean,
): Promise<AttachmentHit[]> {
  const matched: Array<{ file: IndexedAttachment; access: ItemAccess; score: number }> = [];
  for (const access of scope) {
    const itemId = access.item.item_id;
    const index = await withAttachments(indexes.get(itemId)!, itemId);
    const files = [...index.attachments!.values()].filter((file) =>
      matchesAll(query, [file.display_name, file.text]),
    );
    if (!files.length) continue;
    const scores = index.scoreAttachments(query.parts, new Set(files.map((f) => f.id)));
    for (const file of files) matched.push({ file, access, score: scores.get(file.id) ?? 0 });
  }
  matched.sort((a, b) => b.score - a.score || b.file.addtime - a.file.addtime);

  const hits: AttachmentHit[] = [];
  for (const { file, access, score } of matched) {
    if (hits.length >= MAX_ATTACHMENT_HITS) break;
    let page: PageDoc | undefined;
    if (file.pageIds.length) {
      page = (await findLivePages(file.pageIds)).find(
        (p) => p.item_id === access.item.item_id && visible(p),
      );
      if (!page) continue;
    }
    const snippet = makeSnippet(query, file.text);
    hits.push({
      type: 'attachment',
      file_id: file.file_id,
      display_name: file.display_name,
      url: `/server/?s=/api/attachment/visitFile&sign=${file.sign}`,
      item_id: access.item.item_id,
      item_name: access.item.item_name,
      page_id: page?.page_id ?? 0,
      page_title: page?.page_title ?? '',
      score: Math.round(score * 1000) / 1000,
      snippet: snippet.text,
      highlights: snippet.highlights,
      addtime: file.addtime,
    });
  }
  return hits;
}
