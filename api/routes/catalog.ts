/**
 * `catalog/*` (reference pages §4): listing an item's catalogs, the pages of one catalog, and the
 * catalog writes (save, delete, drag-and-drop tree save, copy/move). Rules — whole-tree checks,
 * transactions, restrictions, recycle bin — are in models/catalogs/catalogs.ts and models/catalogs/catalogCopy.ts.
 */
import {
  copyCatalog,
  listCatalogs,
  menuChildren,
  pagesOfCatalog,
  saveCatalog,
  deleteCatalog,
  saveCatalogTree,
  parseTreeNodes,
  TreeError,
  type TreeNode,
} from '../../models/catalogs';
import { errors } from '../../models/platform';
import { unescapeFromClient } from '../../models/pages';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { catalogContract, type Input } from '../contracts';
import { defineController, type ActionContext } from '../registry';

/** The three read-only listings share everything but their shape. */
function listing(shape: 'flat' | 'group' | 'names') {
  return async (ctx: ActionContext<Input<'catalog', 'catList'>>) => {
    const { actor } = await optionalLogin(ctx);
    const itemId = ctx.input.item_id;
    if (!(itemId > 0)) return [];
    return listCatalogs(actor, itemId, shape, itemPassword(ctx));
  };
}

/**
 * batUpdate's `cats`: a JSON array — as a string (form posts; ShowDoc clients may send it
 * HTML-escaped) or already parsed (JSON bodies).
 */
function treeNodes(cats: unknown): TreeNode[] {
  let value = cats;
  if (value === undefined || value === '') throw errors.failed('Parameter error: cats');
  if (typeof value === 'string') {
    try {
      value = JSON.parse(unescapeFromClient(value));
    } catch {
      throw errors.failed('cats is not valid JSON');
    }
  }
  try {
    return parseTreeNodes(value);
  } catch (error) {
    if (error instanceof TreeError) throw errors.failed(error.message);
    throw error;
  }
}

export const catalogController = defineController('catalog', catalogContract, {
  catList: listing('flat'),
  catListGroup: listing('group'),
  catListName: listing('names'),

  async menuChildren(ctx) {
    const { actor } = await optionalLogin(ctx);
    return menuChildren(actor, ctx.input.item_id, ctx.input.cat_id, {
      itemPassword: itemPassword(ctx),
    });
  },

  async getPagesBycat(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id: itemId, cat_id: catId } = ctx.input;
    if (!(itemId > 0) || !(catId > 0))
      throw errors.failed('Parameter error: item_id and cat_id are required');
    return pagesOfCatalog(actor, itemId, catId);
  },

  /** Answers the bare cat_id as `data` (ShowDoc's legacy-compatible shape, pages §4.1). */
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveCatalog(actor, {
      itemId: ctx.input.item_id,
      catId: ctx.input.cat_id,
      catName: ctx.input.cat_name,
      parentCatId: ctx.input.parent_cat_id,
      sNumber: ctx.input.s_number,
    });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteCatalog(actor, ctx.input.cat_id);
    return { success: true };
  },

  async batUpdate(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.input.item_id;
    if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
    const nodes = treeNodes(ctx.input.cats);
    await saveCatalogTree(actor, itemId, nodes, {
      id: ctx.input.dragged_id,
      title: ctx.input.dragged_title,
      type: ctx.input.dragged_type,
    });
    return [];
  },

  async copy(ctx) {
    const { actor } = await requireLogin(ctx);
    return copyCatalog(actor, {
      catId: ctx.input.cat_id,
      // The client sends '/' for the top level; a non-number reads as 0.
      newParentCatId: ctx.input.new_p_cat_id,
      toItemId: ctx.input.to_item_id,
      move: ctx.input.is_del,
    });
  },
});
