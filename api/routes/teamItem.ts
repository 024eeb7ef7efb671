/** `teamItem/*` (reference accounts §9.18): items bound to teams. Rules in models/members/teamItems.ts. */
import { bindTeamItems, itemsOfTeam, teamsOfItem, unbindTeamItem } from '../../models/members';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const teamItemController = defineController('teamItem', {
  async save(ctx) {
    const { actor } = await requireLogin(ctx);
    const itemIds = ctx.params
      .list('item_id')
      .filter((v) => /^\d{1,15}$/.test(v))
      .map(Number);
    return bindTeamItems(actor, ctx.params.int('team_id'), itemIds);
  },

  async getList(ctx) {
    const { actor } = await requireLogin(ctx);
    return teamsOfItem(actor, ctx.params.int('item_id'));
  },

  async getListByTeam(ctx) {
    const { actor } = await requireLogin(ctx);
    return itemsOfTeam(actor, ctx.params.int('team_id'));
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await unbindTeamItem(actor, ctx.params.int('id'));
    return { success: true };
  },
});
