/**
 * `teamItemMember/*` (reference accounts §9.18): one team member's authority and catalog
 * restriction on one of the team's items. Rules in models/members/teamItems.ts.
 */
import { toParamRecord } from '../sanitize';
import { teamItemMembers, updateTeamItemMember } from '../../models/members';
import { requireLogin } from '../auth';
import { defineController } from '../registry';
import { catIdsParam } from './member';

export const teamItemMemberController = defineController('teamItemMember', {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return teamItemMembers(actor, ctx.params.int('item_id'), ctx.params.int('team_id'));
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    // Only fields sent in the body (or path) change, as in ShowDoc: a query string cannot.
    const body = toParamRecord(ctx.req.body);
    const sent = (name: string) => Object.hasOwn(body, name);
    const updated = await updateTeamItemMember(actor, ctx.params.int('id'), {
      member_group_id: sent('member_group_id') ? ctx.params.int('member_group_id') : undefined,
      cat_id: sent('cat_id') ? ctx.params.int('cat_id') : undefined,
      cat_ids: sent('cat_ids') ? catIdsParam(ctx) : undefined,
    });
    return updated === null ? [] : { success: updated };
  },
});
