/** `teamMember/*` (reference accounts §9.18). Rules in models/members/teams.ts. */
import { addTeamMember, listTeamMembers, removeTeamMember } from '../../models/members';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const teamMemberController = defineController('teamMember', {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listTeamMembers(actor, ctx.params.int('team_id'));
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return addTeamMember(
      actor,
      ctx.params.int('team_id'),
      ctx.params.str('member_username'),
      ctx.params.int('team_member_group_id', 1),
    );
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await removeTeamMember(actor, ctx.params.int('id'));
    return { success: true };
  },
});
