/**
 * The reader's calls (reference pages §2–§3). Reader screens are not workspace screens: a dead
 * login or a missing item sends the visitor to `/`, not to the item list (`manager: false`), and
 * the answers the reader turns into screens of its own (password, no results, missing page) are
 * not alerted.
 */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';
import type { SearchResult } from '../../api/types';
import type { HistoryEntry, ItemInfo, Menu, PageAttachment, PageInfo, SharedPage } from './types';

const READER = { manager: false } as const;
const QUIET = { manager: false, alert: false } as const;

export const fetchItemInfo = (item: string, pageId = 0) =>
  request<ItemInfo>(
    'item/info',
    { item_id: item, default_page_id: pageId || undefined, page_id: pageId || undefined },
    QUIET,
  );

/**
 * The reader's item/info: a big item's menu comes lazily (the top level and the way to the page;
 * each other catalog's level on expand, `fetchMenuLevel`). Other screens use fetchItemInfo.
 */
export const fetchReaderItem = (item: string, pageId = 0) =>
  request<ItemInfo>(
    'item/info',
    {
      item_id: item,
      default_page_id: pageId || undefined,
      page_id: pageId || undefined,
      lazy_menu: 1,
    },
    QUIET,
  );

/** One catalog's pages and sub-catalogs (the lazy menu's level), for the catalog tree. */
export const fetchMenuLevel = (itemId: string, catId: string) =>
  request<Menu>('catalog/menuChildren', { item_id: itemId, cat_id: catId }, QUIET);

/**
 * Ranked search of the item (item/search: words, "phrases", snippets with highlight ranges,
 * attachments); needs a login — visitors fall back to `searchItem`.
 */
export const searchRanked = (itemId: string, keyword: string, skipCode: boolean) =>
  request<SearchResult>(
    'item/search',
    { item_id: itemId, keyword, skip_code: skipCode ? 1 : undefined },
    // A login that just ran out falls back to the menu search instead of leaving the page.
    { ...QUIET, redirect: false },
  );

/** Keyword mode of item/info: matching pages (999 when there is none). */
export const searchItem = (itemId: string, keyword: string) =>
  request<ItemInfo>('item/info', { item_id: itemId, keyword }, QUIET);

export const fetchPage = (pageId: number) =>
  request<PageInfo>('page/info', { page_id: pageId }, QUIET);

/** A custom page id (or a page id) of an item → its page id and article ID. */
export async function resolvePage(
  itemId: string,
  pageParam: string,
): Promise<{ pageId: number; customId: string }> {
  const data = await request<Output<'page', 'getPageID'>>(
    'page/getPageID',
    { item_id: itemId, page_custom_id: pageParam },
    QUIET,
  );
  const pageId = Number(data.page_id);
  return { pageId, customId: String(data.page_custom_id || pageId) };
}

/** A custom page id (or a page id) of an item → its page id. */
export const resolvePageId = (itemId: string, pageParam: string): Promise<number> =>
  resolvePage(itemId, pageParam).then((r) => r.pageId);

/** A page's article ID (its id as text when it has none). */
export const fetchPageCustomId = (pageId: number) =>
  request<Output<'page', 'getPageID'>>('page/getPageID', { page_id: pageId }, QUIET).then((d) =>
    String(d.page_custom_id ?? ''),
  );

export const fetchSharedPage = (uniqueKey: string) =>
  request<SharedPage>('page/infoByKey', { unique_key: uniqueKey }, QUIET);

/** Turns the page's single-page link on (returns its key) or off (returns ''). */
export async function toggleSinglePage(pageId: number, on: boolean): Promise<string> {
  const data = await request<Output<'page', 'createSinglePage'>>(
    'page/createSinglePage',
    { page_id: pageId, isCreateSiglePage: on ? 'true' : 'false' },
    READER,
  );
  return !Array.isArray(data) && data?.unique_key ? data.unique_key : '';
}

export const pageHistory = (pageId: number) =>
  request<HistoryEntry[] | Record<string, never>>('page/history', { page_id: pageId }, READER).then(
    (rows) => (Array.isArray(rows) ? rows : []),
  );

export const pageAttachments = (pageId: number) =>
  request<PageAttachment[]>('page/uploadList', { page_id: pageId }, READER).then((rows) =>
    Array.isArray(rows) ? rows : [],
  );

export const deletePage = (pageId: number) =>
  request<unknown>('page/delete', { page_id: pageId }, READER);

export const changeLog = (itemId: number, page: number, count: number) =>
  request<Output<'item', 'getChangeLog'>>(
    'item/getChangeLog',
    { item_id: itemId, page, count },
    READER,
  );
