/** `kanban/*`: kanban items are left out; answers as ShowDoc for a non-kanban item (models/kanban.ts). */
import { kanbanActivity, logKanbanEvent } from '../../models/compat';
import { requireLogin } from '../auth';
import { kanbanContract } from '../contracts';
import { defineController } from '../registry';

export const kanbanController = defineController('kanban', kanbanContract, {
  async logEvent(ctx) {
    await requireLogin(ctx);
    return logKanbanEvent({
      itemId: ctx.input.item_id,
      eventType: ctx.input.event_type,
    });
  },

  getActivity: (ctx) => kanbanActivity(ctx.input.item_id),
  exportActivity: (ctx) => kanbanActivity(ctx.input.item_id),
});
