/**
 * `adminItem/*` (reference accounts §9.22): the back office's project list, delete (to the
 * recycle bin or for good), recover and transfer. Rules in models/items.
 */
import { adminActionMissing } from '../../models/compat';
import {
  adminDeleteItem,
  adminHardDeleteItem,
  adminRecoverItem,
  adminTransferItem,
  listAllItems,
} from '../../models/items';
import { paging } from '../../models/notices';
import { requireAdmin } from '../auth';
import { defineController, type ActionContext } from '../registry';

const PAGE_SIZE = 20;

/** Called by ShowDoc's front end, absent from ShowDoc's open-source server (models/compat). */
async function missing(ctx: ActionContext): Promise<never> {
  const { actor } = await requireAdmin(ctx);
  return adminActionMissing(actor);
}

export const adminItemController = defineController('adminItem', {
  async getList(ctx) {
    const { actor } = await requireAdmin(ctx);
    return listAllItems(
      actor,
      {
        itemName: ctx.params.str('item_name'),
        username: ctx.params.str('username'),
        itemType: ctx.params.int('item_type'),
        privacyType: ctx.params.int('privacy_type'),
        deleted: ctx.params.int('is_del') === 1,
      },
      paging(ctx.params.int('page', 1), ctx.params.int('count', PAGE_SIZE), PAGE_SIZE),
    );
  },

  async deleteItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminDeleteItem(actor, ctx.params.int('item_id'));
    return [];
  },

  async recoverItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminRecoverItem(actor, ctx.params.int('item_id'));
    return [];
  },

  async hardDeleteItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminHardDeleteItem(actor, ctx.params.int('item_id'));
    return [];
  },

  addKeyword: missing,
  ban: missing,
  white: missing,
  recommendItem: missing,
  deleteRecommend: missing,
  getVisitList: missing,

  async attorn(ctx) {
    const { actor } = await requireAdmin(ctx);
    return adminTransferItem(actor, ctx.params.int('item_id'), ctx.params.str('username'));
  },
});
