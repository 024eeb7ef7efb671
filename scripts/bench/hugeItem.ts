/**
 * A huge item for the "huge item" bench cell and the tests of the lazy menu: tens of thousands of
 * pages in thousands of catalogs, written in bulk (ids from the database counters in blocks,
 * `insertMany` in batches, as item copy and import write their rows) — 100,000 page saves one by
 * one would take the better part of an hour. Plus, on request, one page at the 2 MB body limit,
 * saved through savePage like any page. The menu and search caches learn of it through
 * `menu.changed`, as after an import.
 */
import type { Actor } from '../../models/access';
import { Catalog, TOP_LEVEL, type CatalogDoc } from '../../models/catalogs';
import { events, nextIds, nowSeconds } from '../../models/platform';
import { Page, savePage, type PageDoc } from '../../models/pages';
import { catalogName, hasKeyword, pageMarkdown, pageTitle, RARE_KEYWORD } from './content';

export interface HugeItemOptions {
  pages: number;
  /** Catalogs per level, top level first (at most three levels, as ShowDoc nests them). */
  catalogLevels: number[];
  /** Also save one page whose text is just under this many bytes (the BODY_LIMIT). */
  bigPageBytes?: number;
  /** Short pages (a line each) instead of the ~3 KB Markdown of the bench set: quicker tests. */
  shortPages?: boolean;
}

export interface HugeItem {
  /** Catalog ids per level, top level first. */
  levels: number[][];
  pageIds: number[];
  /** Pages of each catalog (0 = the root), by catalog id. */
  pagesByCat: Map<number, number[]>;
  /** Pages whose text holds the bench keyword. */
  keywordHits: number;
  bigPageId: number;
  seconds: number;
}

const BATCH = 2000;

/** A Markdown text of just under `bytes` bytes, from the bench's page generator. */
export function bigMarkdown(bytes: number): string {
  const parts: string[] = ['# A page at the body limit\n'];
  let size = Buffer.byteLength(parts[0]);
  for (let n = 1; ; n++) {
    // Without the bench keyword: item/search's expected hits stay those of the seeded pages.
    if (hasKeyword(n)) continue;
    const chunk = `\n${pageMarkdown(n)}\n`;
    const length = Buffer.byteLength(chunk);
    if (size + length > bytes) break;
    parts.push(chunk);
    size += length;
  }
  return parts.join('');
}

export async function seedHugeItem(
  actor: Actor,
  itemId: number,
  options: HugeItemOptions,
): Promise<HugeItem> {
  const started = process.hrtime.bigint();
  const now = nowSeconds();
  const levels: number[][] = [];
  let parents = [0];
  for (const [depth, count] of options.catalogLevels.entries()) {
    const ids = await nextIds('cat_id', count);
    const positions = new Map<number, number>();
    const docs: CatalogDoc[] = ids.map((catId, j) => {
      const parent = parents[Math.floor((j * parents.length) / count)];
      const position = (positions.get(parent) ?? 0) + 1;
      positions.set(parent, position);
      return {
        cat_id: catId,
        cat_name: catalogName([depth + 1, j + 1]),
        item_id: itemId,
        s_number: position,
        addtime: now,
        parent_cat_id: parent,
        level: TOP_LEVEL + depth,
      };
    });
    for (let i = 0; i < docs.length; i += BATCH)
      await Catalog.insertMany(docs.slice(i, i + BATCH), { lean: true });
    levels.push(ids);
    parents = ids;
  }

  const allCats = levels.flat();
  const pageIds: number[] = [];
  const pagesByCat = new Map<number, number[]>();
  let keywordHits = 0;
  for (let from = 1; from <= options.pages; from += BATCH) {
    const count = Math.min(BATCH, options.pages - from + 1);
    const ids = await nextIds('page_id', count);
    const docs = ids.map((pageId, i): Partial<PageDoc> => {
      const number = from + i;
      // A few pages at the item's root, the rest spread over every catalog.
      const catId = !allCats.length || number % 1000 === 0 ? 0 : allCats[number % allCats.length];
      const list = pagesByCat.get(catId);
      if (list) list.push(pageId);
      else pagesByCat.set(catId, [pageId]);
      if (hasKeyword(number)) keywordHits++;
      return {
        page_id: pageId,
        item_id: itemId,
        cat_id: catId,
        page_title: pageTitle(number),
        page_content: options.shortPages
          ? `Page ${number}${hasKeyword(number) ? ` ${RARE_KEYWORD}` : ''}`
          : pageMarkdown(number),
        page_comments: '',
        s_number: number,
        addtime: now,
        page_addtime: now,
        author_uid: actor.uid,
        author_username: actor.username,
        is_del: 0,
        ext_info: '',
        is_draft: 0,
        page_custom_id: '',
        history_seq: 0,
      };
    });
    await Page.insertMany(docs, { lean: true });
    pageIds.push(...ids);
  }

  let bigPageId = 0;
  if (options.bigPageBytes) {
    const { page } = await savePage(
      actor,
      {
        pageId: 0,
        itemId,
        title: 'A page at the body limit',
        content: bigMarkdown(options.bigPageBytes),
        catId: levels[0]?.[0] ?? 0,
      },
      { origin: 'import' },
    );
    bigPageId = page.page_id;
  }
  events.publish('menu.changed', { itemId, byUid: actor.uid });
  return {
    levels,
    pageIds,
    pagesByCat,
    keywordHits,
    bigPageId,
    seconds: Number(process.hrtime.bigint() - started) / 1e9,
  };
}
