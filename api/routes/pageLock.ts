/**
 * `page/isLock`, `page/setLock` (reference pages §3.9–3.10): advisory edit locks. Rules in
 * models/pages/locks.ts (edit access to the page's own item, capped lock time, login to ask).
 */
import { pageLockState, setPageLock } from '../../models/pages';
import { itemPassword, requireLogin } from '../auth';
import { pageContract } from '../contracts';
import { defineController } from '../registry';

export const pageLockController = defineController('page', pageContract, {
  async isLock(ctx) {
    const { actor } = await requireLogin(ctx);
    return pageLockState(actor, ctx.input.page_id, {
      itemId: ctx.input.item_id,
      itemPassword: itemPassword(ctx),
    });
  },

  async setLock(ctx) {
    const { actor } = await requireLogin(ctx);
    return setPageLock(actor, {
      pageId: ctx.input.page_id,
      itemId: ctx.input.item_id,
      lockTo: ctx.input.lock_to,
    });
  },
});
