/**
 * `item/*` actions of the item list: myList, star/unstar, sort, top, exitItem, itemList
 * (reference accounts §9.2, §9.9, §9.10, §9.16). Rules in models/items/itemList.ts
 * (leaving: models/members/exitItem.ts).
 */
import {
  myItemList,
  ownedItems,
  pinItem,
  saveItemSort,
  starItem,
  unstarItem,
} from '../../models/items';
import { exitItem } from '../../models/members';
import { itemPassword, requireLogin } from '../auth';
import { itemContract, readStr } from '../contracts';
import { errors } from '../../models/platform';
import { defineController } from '../registry';

/** `data` that is neither a string nor a map: refused as `Params.str` refused it. */
function fail(): never {
  throw errors.badParam('data');
}

export const itemListController = defineController('item', itemContract, {
  async myList(ctx) {
    const { actor } = await requireLogin(ctx);
    return myItemList(actor, {
      itemGroupId: ctx.input.item_group_id,
      original: ctx.input.original > 0,
    });
  },

  async star(ctx) {
    const { actor } = await requireLogin(ctx);
    return starItem(actor, ctx.input.item_id, itemPassword(ctx));
  },

  async unstar(ctx) {
    const { actor } = await requireLogin(ctx);
    await unstarItem(actor, ctx.input.item_id);
    return [];
  },

  async sort(ctx) {
    const { actor } = await requireLogin(ctx);
    // The web client sends a JSON string; a JSON body may carry the map itself.
    const raw = ctx.input.data;
    const data =
      raw !== null && typeof raw === 'object' && !Array.isArray(raw)
        ? JSON.stringify(raw)
        : raw === undefined
          ? ''
          : (readStr(raw, '') ?? fail());
    await saveItemSort(actor, ctx.input.item_group_id, data);
    return [];
  },

  async top(ctx) {
    const { actor } = await requireLogin(ctx);
    await pinItem(actor, ctx.input.item_id, ctx.input.action, itemPassword(ctx));
    return [];
  },

  async exitItem(ctx) {
    const { actor } = await requireLogin(ctx);
    await exitItem(actor, ctx.input.item_id);
    return [];
  },

  async itemList(ctx) {
    const { actor } = await requireLogin(ctx);
    return ownedItems(actor);
  },
});
