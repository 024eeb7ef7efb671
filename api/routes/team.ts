/** `team/*` (reference accounts §9.18). Rules in models/members/teams.ts. */
import { deleteTeam, exitTeam, listTeams, saveTeam, transferTeam } from '../../models/members';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const teamController = defineController('team', {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listTeams(actor);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveTeam(actor, { id: ctx.params.int('id'), team_name: ctx.params.str('team_name') });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteTeam(actor, ctx.params.int('id'));
    return { success: true };
  },

  async attorn(ctx) {
    const { actor } = await requireLogin(ctx);
    await transferTeam(
      actor,
      ctx.params.int('team_id'),
      ctx.params.str('username'),
      ctx.params.str('password'),
    );
    return [];
  },

  async exitTeam(ctx) {
    const { actor } = await requireLogin(ctx);
    await exitTeam(actor, ctx.params.int('id'));
    return [];
  },
});
