/**
 * `teamItemMember/*` (reference accounts §9.18): one team member's authority and catalog
 * restriction on one of the team's items. Rules in models/members/teamItems.ts.
 */
import { toParamRecord } from '../sanitize';
import { teamItemMembers, updateTeamItemMember } from '../../models/members';
import { requireLogin } from '../auth';
import { teamItemMemberContract } from '../contracts';
import { defineController } from '../registry';
import { catIds } from './member';

export const teamItemMemberController = defineController('teamItemMember', teamItemMemberContract, {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return teamItemMembers(actor, ctx.input.item_id, ctx.input.team_id);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    // Only fields sent in the body (or path) change, as in ShowDoc: a query string cannot.
    const body = toParamRecord(ctx.req.body);
    const sent = (name: string) => Object.hasOwn(body, name);
    const { input } = ctx;
    const updated = await updateTeamItemMember(actor, input.id, {
      member_group_id: sent('member_group_id') ? input.member_group_id : undefined,
      cat_id: sent('cat_id') ? input.cat_id : undefined,
      cat_ids: sent('cat_ids') ? catIds(input.cat_ids) : undefined,
    });
    return updated === null ? [] : { success: updated };
  },
});
