/**
 * `kanban/*`: ShowDoc's board activity log, and Quire's board operations — each one atomic step
 * on the stored board (models/kanban), pushed live to everyone watching the board.
 */
import {
  addList,
  archiveList,
  createTask,
  deleteList,
  deleteTask,
  exportKanbanActivity,
  getBoard,
  getTask,
  kanbanActivity,
  logKanbanEvent,
  moveList,
  moveTask,
  renameList,
  restoreList,
  updateTask,
} from '../../models/kanban';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { kanbanContract } from '../contracts';
import { defineController } from '../registry';

export const kanbanController = defineController('kanban', kanbanContract, {
  async logEvent(ctx) {
    const { actor } = await requireLogin(ctx);
    await logKanbanEvent(
      actor,
      {
        itemId: ctx.input.item_id,
        pageId: ctx.input.page_id,
        eventType: ctx.input.event_type,
        eventData: ctx.input.event_data,
      },
      { itemPassword: itemPassword(ctx) },
    );
    return [];
  },

  async getActivity(ctx) {
    const { actor } = await optionalLogin(ctx);
    return kanbanActivity(
      actor,
      {
        itemId: ctx.input.item_id,
        eventTypes: ctx.input.event_types,
        startTime: ctx.input.start_time,
        endTime: ctx.input.end_time,
        page: ctx.input.page,
        pageSize: ctx.input.page_size,
      },
      { itemPassword: itemPassword(ctx) },
    );
  },

  async board(ctx) {
    const { actor } = await optionalLogin(ctx);
    return getBoard(actor, ctx.input.item_id, { itemPassword: itemPassword(ctx) });
  },

  async task(ctx) {
    const { actor } = await optionalLogin(ctx);
    return getTask(actor, ctx.input.page_id, { itemPassword: itemPassword(ctx) });
  },

  async addTask(ctx) {
    const { actor } = await requireLogin(ctx);
    const { item_id: itemId, list_id: listId, title, index, ...fields } = ctx.input;
    return createTask(actor, itemId, { ...fields, listId, title, index });
  },

  async updateTask(ctx) {
    const { actor } = await requireLogin(ctx);
    const { page_id: pageId, ...fields } = ctx.input;
    return updateTask(actor, pageId, fields);
  },

  async moveTask(ctx) {
    const { actor } = await requireLogin(ctx);
    return moveTask(actor, ctx.input.page_id, ctx.input.list_id, ctx.input.index);
  },

  async deleteTask(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteTask(actor, ctx.input.page_id);
    return [];
  },

  async addList(ctx) {
    const { actor } = await requireLogin(ctx);
    const list = await addList(actor, ctx.input.item_id, ctx.input.title);
    return { item_id: ctx.input.item_id, list };
  },

  async renameList(ctx) {
    const { actor } = await requireLogin(ctx);
    const list = await renameList(actor, ctx.input.item_id, ctx.input.list_id, ctx.input.title);
    return { item_id: ctx.input.item_id, list };
  },

  async moveList(ctx) {
    const { actor } = await requireLogin(ctx);
    await moveList(actor, ctx.input.item_id, ctx.input.list_id, ctx.input.index);
    return [];
  },

  async archiveList(ctx) {
    const { actor } = await requireLogin(ctx);
    const out = await archiveList(actor, ctx.input.item_id, ctx.input.list_id);
    return { item_id: ctx.input.item_id, list: out.list, tasks_count: out.tasks };
  },

  async restoreList(ctx) {
    const { actor } = await requireLogin(ctx);
    const out = await restoreList(actor, ctx.input.item_id, ctx.input.list_id);
    return { item_id: ctx.input.item_id, list: out.list, tasks_count: out.tasks };
  },

  async deleteList(ctx) {
    const { actor } = await requireLogin(ctx);
    const out = await deleteList(actor, ctx.input.item_id, ctx.input.list_id);
    return {
      item_id: ctx.input.item_id,
      list_id: ctx.input.list_id,
      completed_tasks_count: out.completed,
    };
  },
});

/** The CSV download: no contract (its answer is a file, not an envelope). */
export const kanbanDownloadController = defineController('kanban', {
  async exportActivity(ctx) {
    const { actor } = await optionalLogin(ctx);
    const file = await exportKanbanActivity(
      actor,
      {
        itemId: ctx.params.int('item_id'),
        eventTypes: ctx.params.value('event_types'),
        startTime: ctx.params.int('start_time'),
        endTime: ctx.params.int('end_time'),
      },
      { itemPassword: itemPassword(ctx) },
    );
    ctx.res
      .status(200)
      .set({
        'Content-Type': 'text/csv; charset=utf-8',
        'Content-Disposition': `attachment; filename="${file.fileName}"`,
        'Cache-Control': 'no-store',
      })
      .send(file.csv);
  },
});
