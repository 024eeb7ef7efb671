/**
 * `item/search` (reference accounts §9.7): keyword search over the pages of one item, or — with
 * no `item_id` — of every item the caller may read. The rest of the `item` controller lives in
 * item.ts; the registry merges actions of the same controller. Rules in models/search/search.ts.
 */
import { checkKeyword, searchItemPages } from '../../models/search';
import { itemPassword, requireLogin } from '../auth';
import { itemContract } from '../contracts';
import { defineController } from '../registry';

export const itemSearchController = defineController('item', itemContract, {
  async search(ctx) {
    const { actor } = await requireLogin(ctx);
    const keyword = checkKeyword(ctx.input.keyword);
    const rawItem = ctx.input.item_id.trim();
    return searchItemPages(actor, keyword, rawItem, itemPassword(ctx), {
      skipCode: ctx.input.skip_code,
    });
  },
});
