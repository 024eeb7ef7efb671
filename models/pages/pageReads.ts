/**
 * Reading pages: `page/info` (the page with its attachment count, share key and catalog path) and
 * `page/getPageID` (page id ↔ article ID).
 */
import { pageMissing, type Actor } from '../access';
import { errors, nowSeconds } from '../platform';
import { requirePage } from './pageAccess';
import { countAttachments, pageCatalogs } from './ports';
import { Page, type PageDoc } from './schemas/page';
import { activeShareKey } from './shareLinks';

export interface PageDetails {
  page: PageDoc;
  attachmentCount: number;
  /** The active share-link key, '' when none. */
  uniqueKey: string;
  /** Catalogs top-down then the page (with_path=1 and the page is in a catalog). */
  fullPath?: Array<{ cat_id: number; cat_name: string } | { page_id: number; page_title: string }>;
}

/** page/info: the page for a reader (visit access; drafts and the catalog restriction apply). */
export async function readPage(
  actor: Actor,
  pageId: number,
  options: { itemPassword?: string; withPath?: boolean; now?: number } = {},
): Promise<PageDetails> {
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
    askPassword: true,
  });
  const [attachmentCount, uniqueKey] = await Promise.all([
    countAttachments(page.page_id),
    activeShareKey(page.page_id, options.now ?? nowSeconds()),
  ]);
  const details: PageDetails = { page, attachmentCount, uniqueKey };
  if (options.withPath && page.cat_id > 0) details.fullPath = await catalogPath(page);
  return details;
}

async function catalogPath(page: PageDoc): Promise<NonNullable<PageDetails['fullPath']>> {
  const chain = await pageCatalogs.use().chainOf(page.item_id, page.cat_id);
  return [...chain, { page_id: page.page_id, page_title: page.page_title }];
}

/**
 * page/getPageID (hosted edition): page id → its article ID, or (item, article ID) → page id.
 * A page without an article ID answers its numeric id, and a numeric "article ID" that no page
 * claims resolves to that page id in the item, so addresses built from either keep working.
 */
export async function resolvePageId(
  actor: Actor,
  input: { pageId?: number; itemId?: number; customId?: string; itemPassword?: string },
): Promise<{ page_id: number; page_custom_id: string }> {
  let page: PageDoc;
  if (input.pageId && input.pageId > 0) {
    page = (
      await requirePage(actor, input.pageId, {
        action: 'page.read',
        itemPassword: input.itemPassword,
      })
    ).page;
  } else if (input.itemId && input.itemId > 0 && input.customId) {
    const byCustom = await Page.findOne(
      { item_id: input.itemId, page_custom_id: input.customId, is_del: 0 },
      { page_id: 1, _id: 0 },
    ).lean();
    const id =
      byCustom?.page_id ?? (/^\d{1,15}$/.test(input.customId) ? Number(input.customId) : 0);
    if (!id) throw pageMissing();
    page = (
      await requirePage(actor, id, {
        action: 'page.read',
        itemPassword: input.itemPassword,
      })
    ).page;
    if (page.item_id !== input.itemId) throw pageMissing();
  } else {
    throw errors.failed('Parameter error');
  }
  return { page_id: page.page_id, page_custom_id: page.page_custom_id || String(page.page_id) };
}
