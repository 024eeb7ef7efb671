/**
 * `item/search` (reference accounts §9.7): keyword search over the pages of one item, or — with
 * no `item_id` — of every item the caller may read. The rest of the `item` controller lives in
 * item.ts; the registry merges actions of the same controller. Rules in models/search/search.ts.
 */
import { requireItem } from '../../models/access';
import { checkKeyword, searchPages } from '../../models/search';
import { itemPassword, requireLogin } from '../auth';
import { defineController } from '../registry';

export const itemSearchController = defineController('item', {
  async search(ctx) {
    const { actor } = await requireLogin(ctx);
    const keyword = checkKeyword(ctx.params.str('keyword'));
    const rawItem = ctx.params.str('item_id').trim();
    if (rawItem === '' || rawItem === '0') return searchPages(actor, keyword, null);
    const access = await requireItem(actor, rawItem, 'visit', {
      missing: 10101,
      denied: 10303,
      message: 'No permission to visit this item',
      itemPassword: itemPassword(ctx),
    });
    return searchPages(actor, keyword, access);
  },
});
