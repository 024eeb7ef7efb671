/** `kanban/*`: kanban items are left out; answers as ShowDoc for a non-kanban item (models/kanban.ts). */
import { kanbanActivity, logKanbanEvent } from '../../models/compat';
import { requireLogin } from '../auth';
import { defineController } from '../registry';

export const kanbanController = defineController('kanban', {
  async logEvent(ctx) {
    await requireLogin(ctx);
    return logKanbanEvent({
      itemId: ctx.params.int('item_id'),
      eventType: ctx.params.str('event_type'),
    });
  },

  getActivity: (ctx) => kanbanActivity(ctx.params.int('item_id')),
  exportActivity: (ctx) => kanbanActivity(ctx.params.int('item_id')),
});
