/**
 * `adminItem/*` (reference accounts §9.22): the back office's project list, delete (to the
 * recycle bin or for good), recover and transfer. Rules in models/items (the list and the
 * permanent delete, which span domains, in models/backOffice).
 */
import { adminHardDeleteItem, listAllItems } from '../../models/backOffice';
import { adminActionMissing } from '../../models/compat';
import { adminDeleteItem, adminRecoverItem, adminTransferItem } from '../../models/items';
import { paging } from '../../models/notices';
import { requireAdmin } from '../auth';
import { adminItemContract } from '../contracts';
import { defineController, type ActionContext } from '../registry';

const PAGE_SIZE = 20;

/** Called by ShowDoc's front end, absent from ShowDoc's open-source server (models/compat). */
async function missing(ctx: ActionContext): Promise<never> {
  const { actor } = await requireAdmin(ctx);
  return adminActionMissing(actor);
}

export const adminItemController = defineController('adminItem', adminItemContract, {
  async getList(ctx) {
    const { actor } = await requireAdmin(ctx);
    return listAllItems(
      actor,
      {
        itemName: ctx.input.item_name,
        username: ctx.input.username,
        itemType: ctx.input.item_type,
        privacyType: ctx.input.privacy_type,
        deleted: ctx.input.is_del === 1,
      },
      paging(ctx.input.page, ctx.input.count, PAGE_SIZE),
    );
  },

  async deleteItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminDeleteItem(actor, ctx.input.item_id);
    return [];
  },

  async recoverItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminRecoverItem(actor, ctx.input.item_id);
    return [];
  },

  async hardDeleteItem(ctx) {
    const { actor } = await requireAdmin(ctx);
    await adminHardDeleteItem(actor, ctx.input.item_id);
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
    return adminTransferItem(actor, ctx.input.item_id, ctx.input.username);
  },
});
