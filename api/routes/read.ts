/**
 * `read/*` (Quire only): read markers and "show changes". Rules in models/readMarkers; nothing is
 * recorded for anonymous readers (10102) or for pages the caller cannot read.
 */
import { changedCountsByItem, markAllRead, markRead, pageChanges } from '../../models/readMarkers';
import { errors } from '../../models/platform';
import { itemPassword, requireLogin } from '../auth';
import { readContract } from '../contracts';
import { defineController } from '../registry';

const ID = /^\d{1,15}$/;

export const readController = defineController('read', readContract, {
  async mark(ctx) {
    const { actor } = await requireLogin(ctx);
    const { page_ids: ids, addtimes } = ctx.input;
    if (ids.some((v) => !ID.test(v)) || addtimes.some((v) => !ID.test(v)))
      throw errors.badParam('page_ids');
    return markRead(
      actor,
      ctx.input.item_id,
      ids.map((id, i) => ({
        pageId: Number(id),
        addtime: addtimes[i] === undefined ? undefined : Number(addtimes[i]),
      })),
      { itemPassword: itemPassword(ctx) },
    );
  },

  async markAll(ctx) {
    const { actor } = await requireLogin(ctx);
    return markAllRead(actor, ctx.input.item_id, { itemPassword: itemPassword(ctx) });
  },

  async itemCounts(ctx) {
    const { actor } = await requireLogin(ctx);
    return changedCountsByItem(actor);
  },

  async changes(ctx) {
    const { actor } = await requireLogin(ctx);
    return pageChanges(actor, ctx.input.page_id, {
      since: ctx.input.since,
      itemPassword: itemPassword(ctx),
    });
  },
});
