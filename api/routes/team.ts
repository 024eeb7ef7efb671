/** `team/*` (reference accounts §9.18). Rules in models/members/teams.ts. */
import { deleteTeam, exitTeam, listTeams, saveTeam, transferTeam } from '../../models/members';
import { requireLogin } from '../auth';
import { teamContract } from '../contracts';
import { defineController } from '../registry';

export const teamController = defineController('team', teamContract, {
  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return listTeams(actor);
  },

  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    return saveTeam(actor, { id: ctx.input.id, team_name: ctx.input.team_name });
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteTeam(actor, ctx.input.id);
    return { success: true };
  },

  async attorn(ctx) {
    const { actor } = await requireLogin(ctx);
    await transferTeam(actor, ctx.input.team_id, ctx.input.username, ctx.input.password);
    return [];
  },

  async exitTeam(ctx) {
    const { actor } = await requireLogin(ctx);
    await exitTeam(actor, ctx.input.id);
    return [];
  },
});
