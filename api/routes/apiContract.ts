/** `apiContract/*`: an item's followed OpenAPI document and its change marks (models/contracts). */
import {
  checkContractNow,
  contractInfo,
  followContract,
  pageContractMark,
  unfollowContract,
} from '../../models/contracts';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { apiContractContract } from '../contracts';
import { defineController } from '../registry';

export const apiContractController = defineController('apiContract', apiContractContract, {
  async info(ctx) {
    const { actor } = await requireLogin(ctx);
    return contractInfo(actor, ctx.input.item_id);
  },

  async follow(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id, url, schedule, interval_minutes } = ctx.input;
    return followContract(actor, {
      itemId: item_id,
      url,
      schedule,
      intervalMinutes: interval_minutes,
    });
  },

  async unfollow(ctx) {
    const { actor } = await requireLogin(ctx);
    return unfollowContract(actor, ctx.input.item_id);
  },

  async check(ctx) {
    const { actor } = await requireLogin(ctx);
    return checkContractNow(actor, ctx.input.item_id);
  },

  async mark(ctx) {
    const { actor } = await optionalLogin(ctx);
    return { mark: await pageContractMark(actor, ctx.input.page_id, itemPassword(ctx)) };
  },
});
