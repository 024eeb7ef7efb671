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
import { findLivePages, Page, type PageDoc } from '../pages';
import {
  candidatesIn,
  indexesOf,
  withAttachments,
  type IndexedAttachment,
  type ItemIndex,
} from './pageIndex';
import { matchesAll, parseQuery, partsFound, type ParsedQuery } from './query';
import { highlightRanges, makeSnippet, splitCode, type Ranges } from './snippet';

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
  return skipCode ? splitCode(page.page_content).prose : page.page_content;
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
  if (!query.phrase) return false;
  const pattern = parseQuery(`"${query.phrase}"`).patterns[0];
  return texts.some((text) => pattern.test(text));
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
  const found = await matchingPages(indexes, keyword, query, skipCode);
  const visible = await visibility();
  const pages = found.filter(visible);

  const byItem = new Map<number, Set<number>>();
  for (const page of pages) {
    const ids = byItem.get(page.item_id) ?? new Set<number>();
    ids.add(page.page_id);
    byItem.set(page.item_id, ids);
  }
  const scores = new Map<number, number>();
  for (const [itemId, ids] of byItem)
    for (const [id, score] of indexes.get(itemId)!.score(query.parts, ids, skipCode))
      scores.set(id, score);

  const ranked = pages
    .map((page) => {
      const text = searchedText(page, skipCode);
      const boost = phraseFound(query, [page.page_title, text]) ? PHRASE_BOOST : 1;
      return {
        page,
        text,
        inTitle: partsFound(query, page.page_title),
        score: (scores.get(page.page_id) ?? 0) * boost,
      };
    })
    .sort(
      (a, b) =>
        b.inTitle - a.inTitle ||
        b.score - a.score ||
        b.page.addtime - a.page.addtime ||
        a.page.page_id - b.page.page_id,
    )
    .slice(0, limit)
    .map(({ page, text, score }) => {
      const snippet = makeSnippet(query, text);
      return {
        page,
        score: Math.round(score * 1000) / 1000,
        snippet: snippet.text,
        highlights: snippet.highlights,
        title_highlights: highlightRanges(query, page.page_title),
      };
    });

  const attachments =
    options.attachments === false ? [] : await rankAttachments(scope, indexes, query, visible);
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
