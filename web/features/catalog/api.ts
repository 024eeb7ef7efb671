/**
 * The catalog manager's calls (reference pages §2, §3.11, §4; spec 001 §7). It is a workspace
 * screen: a dead login goes to the login screen and back, a missing item to the item list.
 */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';
import type { ItemInfo } from '../reader/types';
import type { TreeSaveEntry } from './tree';

/** The item with its menu and the caller's rights; errors are shown by the screen. */
export const fetchItemTree = (itemId: number) =>
  request<ItemInfo>('item/info', { item_id: itemId }, { alert: false });

/** Creates (catId 0) or renames / re-parents a catalog; resolves with its id. */
export const saveCatalog = (input: {
  itemId: number;
  catId: number;
  name: string;
  parentCatId: number;
}) =>
  request<number>('catalog/save', {
    item_id: input.itemId,
    cat_id: input.catId,
    cat_name: input.name,
    parent_cat_id: input.parentCatId,
  });

export const deleteCatalog = (itemId: number, catId: number) =>
  request<unknown>('catalog/delete', { item_id: itemId, cat_id: catId });

/** Saves the dragged tree in one call; `dragged` names the moved node for the change log. */
export const saveTree = (
  itemId: number,
  cats: TreeSaveEntry[],
  dragged?: { id: number; title: string; type: 'page' | 'catalog' },
) =>
  request<unknown>('catalog/batUpdate', {
    item_id: itemId,
    cats: JSON.stringify(cats),
    dragged_id: dragged?.id,
    dragged_title: dragged?.title,
    dragged_type: dragged?.type,
  });

/** Copies (move false) or moves a catalog under `parentCatId` (0 = top) of `toItemId`. */
export const copyCatalog = (input: {
  catId: number;
  toItemId: number;
  parentCatId: number;
  move: boolean;
}) =>
  request<unknown>('catalog/copy', {
    cat_id: input.catId,
    new_p_cat_id: input.parentCatId,
    to_item_id: input.toItemId,
    is_del: input.move ? 1 : 0,
  });

/** A catalog named by its slash path 'Top/Child'. */
export type CatalogName = Output<'catalog', 'catListName'>[number];

/** An item's catalogs in tree order, named by their paths. */
export const catalogNames = (itemId: number) =>
  request<CatalogName[]>('catalog/catListName', { item_id: itemId }).then((rows) =>
    Array.isArray(rows) ? rows : [],
  );

export type CatalogPage = Output<'catalog', 'getPagesBycat'>[number];

/**
 * The pages of a catalog in menu order; catId 0: the pages at the item's top level (they belong
 * to no catalog, so they come from the item's menu; page/sort orders them like any others).
 */
export const pagesOfCatalog = (itemId: number, catId: number): Promise<CatalogPage[]> =>
  catId > 0
    ? request<CatalogPage[]>('catalog/getPagesBycat', { item_id: itemId, cat_id: catId }).then(
        (rows) => (Array.isArray(rows) ? rows : []),
      )
    : request<ItemInfo>('item/info', { item_id: itemId }).then((info) =>
        (info.menu?.pages ?? []).map((p) => ({
          page_id: p.page_id,
          page_title: p.page_title,
          s_number: '',
        })),
      );

/** New order of a catalog's pages: page id → position (1-based). */
export const sortPages = (itemId: number, order: Record<string, number>) =>
  request<unknown>('page/sort', { item_id: itemId, pages: JSON.stringify(order) });
