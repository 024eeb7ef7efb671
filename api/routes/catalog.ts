/**
 * `catalog/*` (reference pages §4): listing an item's catalogs, the pages of one catalog, and the
 * catalog writes (save, delete, drag-and-drop tree save, copy/move). Rules — whole-tree checks,
 * transactions, restrictions, recycle bin — are in models/catalogs/catalogs.ts and models/catalogs/catalogCopy.ts.
 */
import {
  copyCatalog,
  listCatalogs,
  pagesOfCatalog,
  saveCatalog,
  deleteCatalog,
  saveCatalogTree,
  parseTreeNodes,
  TreeError,
  type TreeNode,
} from '../../models/catalogs';
import { ApiError } from '../../models/platform';
import { unescapeFromClient } from '../../models/pages';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { defineController, type ActionContext } from '../registry';

/** The three read-only listings share everything but their shape. */
function listing(shape: 'flat' | 'group' | 'names') {
  return async (ctx: ActionContext) => {
    const { actor } = await optionalLogin(ctx);
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) return [];
    return listCatalogs(actor, itemId, shape, itemPassword(ctx));
  };
}

/**
 * batUpdate's `cats`: a JSON array — as a string (form posts; ShowDoc clients may send it
 * HTML-escaped) or already parsed (JSON bodies).
 */
function treeNodes(ctx: ActionContext): TreeNode[] {
  let value = ctx.params.value('cats');
  if (value === undefined || value === '') throw new ApiError(10101, 'Parameter error: cats');
  if (typeof value === 'string') {
    try {
      value = JSON.parse(unescapeFromClient(value));
    } catch {
      throw new ApiError(10101, 'cats is not valid JSON');
    }
  }
  try {
    return parseTreeNodes(value);
  } catch (error) {
    if (error instanceof TreeError) throw new ApiError(10101, error.message);
    throw error;
  }
}

export const catalogController = defineController('catalog', {
  catList: listing('flat'),
  catListGroup: listing('group'),
  catListName: listing('names'),

  async getPagesBycat(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.params.int('item_id');
    const catId = ctx.params.int('cat_id');
    if (!(itemId > 0) || !(catId > 0))
      throw new ApiError(10101, 'Parameter error: item_id and cat_id are required');
    return pagesOfCatalog(actor, itemId, catId);
  },

  /** Answers the bare cat_id as `data` (ShowDoc's legacy-compatible shape, pages §4.1). */
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveCatalog(actor, {
      itemId: ctx.params.int('item_id'),
      catId: ctx.params.int('cat_id'),
      catName: ctx.params.str('cat_name'),
      parentCatId: ctx.params.has('parent_cat_id') ? ctx.params.int('parent_cat_id') : undefined,
      sNumber: ctx.params.int('s_number'),
    });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteCatalog(actor, ctx.params.int('cat_id'));
    return { success: true };
  },

  async batUpdate(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) throw new ApiError(10101, 'Parameter error: item_id');
    const nodes = treeNodes(ctx);
    await saveCatalogTree(actor, itemId, nodes, {
      id: ctx.params.int('dragged_id'),
      title: ctx.params.str('dragged_title'),
      type: ctx.params.str('dragged_type'),
    });
    return [];
  },

  async copy(ctx) {
    const { actor } = await requireLogin(ctx);
    return copyCatalog(actor, {
      catId: ctx.params.int('cat_id'),
      // The client sends '/' for the top level; a non-number reads as 0.
      newParentCatId: ctx.params.int('new_p_cat_id'),
      toItemId: ctx.params.int('to_item_id'),
      move: ctx.params.bool('is_del'),
    });
  },
});
