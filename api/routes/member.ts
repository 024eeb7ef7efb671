/**
 * `member/*` (reference accounts §9.17): an item's personal members. Rules in models/members/members.ts.
 */
import { ApiError } from '../../models/platform';
import {
  addMembers,
  listAllMembers,
  listMembers,
  myCollaborators,
  removeMember,
} from '../../models/members';
import { requireLogin } from '../auth';
import { defineController, type ActionContext } from '../registry';

/** Catalog ids from `cat_ids` (array, JSON array or comma list); anything non-numeric is dropped. */
export function catIdsParam(ctx: ActionContext): number[] {
  return ctx.params
    .list('cat_ids')
    .filter((v) => /^\d{1,15}$/.test(v))
    .map(Number);
}

export const memberController = defineController('member', {
  async getList(ctx) {
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) return [];
    const { actor } = await requireLogin(ctx);
    return listMembers(actor, itemId);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) throw new ApiError(10101, 'Item not found');
    return addMembers(actor, itemId, {
      usernames: ctx.params.str('username').split(','),
      member_group_id: ctx.params.int('member_group_id', 0),
      cat_id: ctx.params.int('cat_id'),
      cat_ids: catIdsParam(ctx),
    });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await removeMember(actor, ctx.params.int('item_id'), ctx.params.int('item_member_id'));
    return { success: true };
  },

  async getAllList(ctx) {
    const itemId = ctx.params.int('item_id');
    if (!(itemId > 0)) return [];
    const { actor } = await requireLogin(ctx);
    return listAllMembers(actor, itemId);
  },

  async getMyAllList(ctx) {
    const { actor } = await requireLogin(ctx);
    return myCollaborators(actor);
  },
});
