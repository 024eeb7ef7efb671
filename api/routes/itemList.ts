/**
 * `item/*` actions of the item list: myList, star/unstar, sort, top, exitItem, itemList
 * (reference accounts §9.2, §9.9, §9.10, §9.16). Rules in models/items/itemList.ts.
 */
import {
  exitItem,
  myItemList,
  ownedItems,
  pinItem,
  saveItemSort,
  starItem,
  unstarItem,
} from '../../models/items';
import { itemPassword, requireLogin } from '../auth';
import { defineController } from '../registry';

export const itemListController = defineController('item', {
  async myList(ctx) {
    const { actor } = await requireLogin(ctx);
    return myItemList(actor, {
      itemGroupId: ctx.params.int('item_group_id'),
      original: ctx.params.int('original') > 0,
    });
  },

  async star(ctx) {
    const { actor } = await requireLogin(ctx);
    return starItem(actor, ctx.params.int('item_id'), itemPassword(ctx));
  },

  async unstar(ctx) {
    const { actor } = await requireLogin(ctx);
    await unstarItem(actor, ctx.params.int('item_id'));
    return [];
  },

  async sort(ctx) {
    const { actor } = await requireLogin(ctx);
    // The web client sends a JSON string; a JSON body may carry the map itself.
    const raw = ctx.params.value('data');
    const data =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? JSON.stringify(raw)
        : ctx.params.str('data');
    await saveItemSort(actor, ctx.params.int('item_group_id'), data);
    return [];
  },

  async top(ctx) {
    const { actor } = await requireLogin(ctx);
    await pinItem(actor, ctx.params.int('item_id'), ctx.params.str('action'), itemPassword(ctx));
    return [];
  },

  async exitItem(ctx) {
    const { actor } = await requireLogin(ctx);
    await exitItem(actor, ctx.params.int('item_id'));
    return [];
  },

  async itemList(ctx) {
    const { actor } = await requireLogin(ctx);
    return ownedItems(actor);
  },
});
