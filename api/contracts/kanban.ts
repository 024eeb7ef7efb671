/**
 * `kanban/*`: ShowDoc's activity log (`logEvent`, `getActivity`, `exportActivity`) and Quire's
 * board operations (each one atomic step on the stored board, pushed live to open boards).
 * `exportActivity` answers a CSV download (no contract; errors answer in the envelope).
 * Tags and linked pages arrive as JSON text (forms) or arrays (JSON bodies): decoded by the model.
 */
import { z } from 'zod';
import { action, id, int, maybeBool, maybeInt, maybeStr, nothing, raw, str } from './coerce';

const ListShape = z.object({ id: z.string(), title: z.string(), position: z.number() });

const BoardShape = z
  .object({
    lists: z.array(ListShape),
    tasks_order: z.record(z.string(), z.array(z.string())),
    archived_lists: z.array(ListShape),
    archived_tasks_order: z.record(z.string(), z.array(z.string())),
    meta: z.object({ version: z.number(), last_updated: z.number() }).loose(),
  })
  .loose();

export const KanbanCard = z.object({
  page_id: z.number(),
  page_title: z.string(),
  list_id: z.string(),
  description: z.string(),
  assignee_uid: z.string(),
  assignee_username: z.string(),
  creator_uid: z.string(),
  creator_username: z.string(),
  due_date: z.string(),
  tags: z.array(z.object({ color: z.string(), text: z.string() })),
  priority: z.string(),
  linked_pages: z.array(
    z.object({ item_id: z.string(), page_id: z.string(), page_title: z.string() }),
  ),
  completed: z.boolean(),
  updated_at: z.number(),
});

const ActivityRow = z.object({
  id: z.number(),
  item_id: z.number(),
  page_id: z.number(),
  event_type: z.string(),
  event_data: z.record(z.string(), z.unknown()),
  operator_uid: z.number(),
  operator_username: z.string(),
  addtime: z.number(),
});

const activityQuery = {
  item_id: id(),
  event_types: raw(),
  start_time: int(),
  end_time: int(),
  page: int(1),
  page_size: int(50),
};

const taskFields = {
  description: maybeStr(),
  assignee_uid: maybeStr(),
  assignee_username: maybeStr(),
  due_date: maybeStr(),
  tags: raw(),
  priority: maybeStr(),
  linked_pages: raw(),
};

const listAnswer = z.object({ item_id: z.number(), list: ListShape });

export const kanbanContract = {
  logEvent: action({ item_id: id(), page_id: id(), event_type: str(), event_data: raw() }, nothing),
  getActivity: action(
    activityQuery,
    z.object({
      item_id: z.number(),
      activities: z.array(ActivityRow),
      total: z.number(),
      page: z.number(),
      page_size: z.number(),
    }),
  ),

  // Quire's board operations.
  board: action(
    { item_id: id() },
    z.object({
      item_id: z.number(),
      page_id: z.number(),
      board: BoardShape,
      cards: z.array(KanbanCard),
      can_edit: z.boolean(),
      can_manage: z.boolean(),
    }),
  ),
  task: action(
    { page_id: id() },
    KanbanCard.extend({ item_id: z.number(), list_name: z.string() }),
  ),
  addTask: action(
    { item_id: id(), list_id: str(), title: str(), index: maybeInt(-1), ...taskFields },
    KanbanCard,
  ),
  updateTask: action(
    { page_id: id(), title: maybeStr(), completed: maybeBool(), ...taskFields },
    KanbanCard,
  ),
  moveTask: action(
    { page_id: id(), list_id: str(), index: maybeInt(-1) },
    z.object({
      page_id: z.number(),
      item_id: z.number(),
      from_list_id: z.string(),
      to_list_id: z.string(),
      index: z.number(),
      version: z.number(),
    }),
  ),
  deleteTask: action({ page_id: id() }, nothing),
  addList: action({ item_id: id(), title: str() }, listAnswer),
  renameList: action({ item_id: id(), list_id: str(), title: str() }, listAnswer),
  moveList: action({ item_id: id(), list_id: str(), index: int(-1) }, nothing),
  archiveList: action(
    { item_id: id(), list_id: str() },
    listAnswer.extend({ tasks_count: z.number() }),
  ),
  restoreList: action(
    { item_id: id(), list_id: str() },
    listAnswer.extend({ tasks_count: z.number() }),
  ),
  deleteList: action(
    { item_id: id(), list_id: str() },
    z.object({ item_id: z.number(), list_id: z.string(), completed_tasks_count: z.number() }),
  ),
};
