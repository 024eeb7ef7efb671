/**
 * `member/*` (reference accounts §9.17): an item's personal members. Rules in models/members/members.ts.
 */
import { errors } from '../../models/platform';
import {
  addMembers,
  listAllMembers,
  listMembers,
  myCollaborators,
  removeMember,
} from '../../models/members';
import { requireLogin } from '../auth';
import { memberContract } from '../contracts';
import { defineController } from '../registry';

/** Catalog ids from `cat_ids` (array, JSON array or comma list); anything non-numeric is dropped. */
export function catIds(entries: string[]): number[] {
  return entries.filter((v) => /^\d{1,15}$/.test(v)).map(Number);
}

export const memberController = defineController('member', memberContract, {
  async getList(ctx) {
    const itemId = ctx.input.item_id;
    if (!(itemId > 0)) return [];
    const { actor } = await requireLogin(ctx);
    return listMembers(actor, itemId);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemId = ctx.input.item_id;
    if (!(itemId > 0)) throw errors.failed('Item not found');
    return addMembers(actor, itemId, {
      usernames: ctx.input.username.split(','),
      member_group_id: ctx.input.member_group_id,
      cat_id: ctx.input.cat_id,
      cat_ids: catIds(ctx.input.cat_ids),
    });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await removeMember(actor, ctx.input.item_id, ctx.input.item_member_id);
    return { success: true };
  },

  async getAllList(ctx) {
    const itemId = ctx.input.item_id;
    if (!(itemId > 0)) return [];
    const { actor } = await requireLogin(ctx);
    return listAllMembers(actor, itemId);
  },

  async getMyAllList(ctx) {
    const { actor } = await requireLogin(ctx);
    return myCollaborators(actor);
  },
});
