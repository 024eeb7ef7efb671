/**
 * `page/isLock`, `page/setLock` (reference pages §3.9–3.10): advisory edit locks. Rules in
 * models/pages/locks.ts (edit access to the page's own item, capped lock time, login to ask).
 */
import { pageLockState, setPageLock } from '../../models/pages';
import { itemPassword, requireLogin } from '../auth';
import { defineController } from '../registry';

export const pageLockController = defineController('page', {
  async isLock(ctx) {
    const { actor } = await requireLogin(ctx);
    return pageLockState(actor, ctx.params.int('page_id'), {
      itemId: ctx.params.int('item_id'),
      itemPassword: itemPassword(ctx),
    });
  },

  async setLock(ctx) {
    const { actor } = await requireLogin(ctx);
    return setPageLock(actor, {
      pageId: ctx.params.int('page_id'),
      itemId: ctx.params.int('item_id'),
      lockTo: ctx.params.has('lock_to') ? ctx.params.int('lock_to') : undefined,
    });
  },
});
