/**
 * `subscription/*` (reference pages §6): who is reminded when a page is saved with "save and
 * notify". Rules in models/notices/subscriptions.ts; the notify dialog picks people from
 * `member/getAllList`.
 */
import { errors } from '../../models/platform';
import { listPageSubscribers, subscribeUsers, unsubscribeUsers } from '../../models/notices';
import { requireLogin } from '../auth';
import { subscriptionContract } from '../contracts';
import { defineController } from '../registry';

/** `uids`: a comma list (or array) of user ids. */
function uidList(raw: string[]): number[] {
  if (raw.some((v) => !/^\d{1,15}$/.test(v))) throw errors.failed('Invalid user id');
  return raw.map(Number);
}

export const subscriptionController = defineController('subscription', subscriptionContract, {
  async getPageList(ctx) {
    const { actor } = await requireLogin(ctx);
    const rows = await listPageSubscribers(actor, ctx.input.page_id);
    return rows.map(({ subscription: s, username, name }) => ({
      id: String(s.id),
      uid: String(s.uid),
      object_id: String(s.object_id),
      object_type: s.object_type,
      action_type: s.action_type,
      sub_time: s.sub_time,
      username,
      name,
    }));
  },

  async savePage(ctx) {
    const { actor } = await requireLogin(ctx);
    await subscribeUsers(actor, ctx.input.page_id, uidList(ctx.input.uids));
  },

  async deletePage(ctx) {
    const { actor } = await requireLogin(ctx);
    await unsubscribeUsers(actor, ctx.input.page_id, uidList(ctx.input.uids));
  },
});
