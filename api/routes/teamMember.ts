/** `teamMember/*` (reference accounts §9.18). Rules in models/members/teams.ts. */
import { addTeamMember, listTeamMembers, removeTeamMember } from '../../models/members';
import { requireLogin } from '../auth';
import { teamMemberContract } from '../contracts';
import { defineController } from '../registry';

export const teamMemberController = defineController('teamMember', teamMemberContract, {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listTeamMembers(actor, ctx.input.team_id);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return addTeamMember(
      actor,
      ctx.input.team_id,
      ctx.input.member_username,
      ctx.input.team_member_group_id,
    );
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await removeTeamMember(actor, ctx.input.id);
    return { success: true };
  },
});
