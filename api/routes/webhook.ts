/** `webhook/*`: an item's webhooks and chat pushes (Quire's own); models/webhooks does the work. */
import { errors } from '../../models/platform';
import {
  deleteHook,
  listDeliveries,
  listHooks,
  redeliver,
  rotateSecret,
  saveHook,
  testHook,
} from '../../models/webhooks';
import { requireLogin } from '../auth';
import { parseList, webhookContract } from '../contracts';
import { defineController } from '../registry';

export const webhookController = defineController('webhook', webhookContract, {
  async list(ctx) {
    const { actor } = await requireLogin(ctx);
    return listHooks(actor, ctx.input.item_id);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id, id, url, preset, secret, enabled } = ctx.input;
    let events: string[] | undefined;
    if (ctx.input.events !== undefined && ctx.input.events !== null) {
      const parsed = parseList(ctx.input.events);
      if (parsed === null) throw errors.badParam('events');
      events = parsed;
    }
    return saveHook(actor, { itemId: item_id, id, url, preset, events, secret, enabled });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteHook(actor, ctx.input.item_id, ctx.input.id);
    return true as const;
  },

  async test(ctx) {
    const { actor } = await requireLogin(ctx);
    return testHook(actor, ctx.input.item_id, ctx.input.id);
  },

  async deliveries(ctx) {
    const { actor } = await requireLogin(ctx);
    return listDeliveries(actor, ctx.input.item_id, ctx.input.id, ctx.input.page);
  },

  async redeliver(ctx) {
    const { actor } = await requireLogin(ctx);
    return redeliver(actor, ctx.input.item_id, ctx.input.delivery_id);
  },

  async rotateSecret(ctx) {
    const { actor } = await requireLogin(ctx);
    return rotateSecret(actor, ctx.input.item_id, ctx.input.id);
  },
});
