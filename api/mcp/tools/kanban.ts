/**
 * The 16 kanban tools (ShowDoc's KanbanHandler), on the boards of kanban items (type 6) through
 * models/kanban: the same board and task pages the web board and ShowDoc's clients read, and
 * every change is one step on the stored board, pushed live to open boards (`kanban:changed`).
 * Argument and permission checks come first and in ShowDoc's order; an item that is no board
 * answers -32006 "board not found", a page that holds no task -32010. Names, argument schemas
 * and answer shapes are ShowDoc's, so an agent's set-up moves over unchanged.
 */
import type { ItemAccess } from '../../../models/access';
import {
  checkDueDate,
  checkPriority,
  checkTags,
  getBoard,
  getTask,
  KANBAN_ITEM,
  kanbanActivity,
  parseTask,
} from '../../../models/kanban';
import * as kanban from '../../../models/kanban';
import { findLivePage } from '../../../models/pages';
import { isApiError } from '../../../models/platform';
import { attempt, itemFor, pageFor, type Need } from '../access';
import { has, idArg, intArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import {
  agentOf,
  defineTools,
  MCP_ERRORS,
  type McpCaller,
  type McpTool,
  McpToolError,
} from '../toolkit';

type Args = Record<string, unknown>;

const NO_BOARD = 'Kanban board not found: check that the item is a kanban item (item_type=6)';
const NO_TASK = 'Task data could not be parsed: this page is not a kanban task';

const itemIdProp = integer('Item ID');
const taskIdProp = integer('Task page ID');
const listIdProp = string('List ID');
const priorityProp = string('Priority (optional): high/medium/low');
const tagsProp = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      color: string('Tag colour: red/orange/yellow/green/blue/purple/gray'),
      text: string('Tag text, at most 20 characters'),
    },
  },
  description: 'Tags (optional, at most 3, each with color and text)',
};
const linkedPagesProp = {
  type: 'array',
  items: {
    type: 'object',
    properties: {
      item_id: string('Item ID of the linked page'),
      page_id: string('Linked page ID'),
      page_title: string('Linked page title'),
    },
  },
  description: 'Linked pages (optional)',
};

/** A required non-blank string argument, ShowDoc's "… is required" when blank. */
function required(args: Args, name: string, what: string): string {
  const value = args[name];
  const text =
    typeof value === 'string' ? value.trim() : typeof value === 'number' ? String(value) : '';
  if (!text) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, `${what} is required`);
  return text;
}

function optionalText(args: Args, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string')
    throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, `Parameter ${name} must be a string`);
  return value;
}

/** A model check whose refusal is ShowDoc's -32602 (tags, priority, due date). */
function invalidParams<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    if (isApiError(error)) throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, error.message);
    throw error;
  }
}

/** A task title as ShowDoc checks it (required, at most 100 characters). */
function checkTaskTitle(raw: string): string {
  if ([...raw].length > 100)
    throw new McpToolError(
      MCP_ERRORS.INVALID_PARAMS,
      'The task title must be at most 100 characters',
    );
  return raw;
}

/** The caller's access to a kanban item (ShowDoc: permission first, then the board). */
async function boardItem(caller: McpCaller, itemId: number, need: Need): Promise<ItemAccess> {
  const access = await itemFor(caller, itemId, need);
  if ((access.item.item_type || 1) !== KANBAN_ITEM)
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
  return access;
}

/** A task page the caller may reach with `need`, on a board. */
async function taskPage(caller: McpCaller, pageId: number, need: Need, needsBoard: boolean) {
  const { page, access } = await pageFor(caller, pageId, need);
  if (needsBoard && (access.item.item_type || 1) !== KANBAN_ITEM)
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
  const task = parseTask(page.page_content);
  if (!task) throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, NO_TASK);
  if ((access.item.item_type || 1) !== KANBAN_ITEM)
    throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
  return { page, access, task };
}

const writeOptions = (caller: McpCaller) => ({ agent: agentOf(caller) });

/** The task fields an update or create sends (checked as ShowDoc checks them). */
function taskFields(args: Args): kanban.TaskFields {
  const fields: kanban.TaskFields = {};
  const description = optionalText(args, 'description');
  if (description !== undefined) fields.description = description;
  const assignee = optionalText(args, 'assignee_uid');
  if (assignee !== undefined) fields.assignee_uid = assignee;
  const assigneeName = optionalText(args, 'assignee_username');
  if (assigneeName !== undefined) fields.assignee_username = assigneeName;
  const due = optionalText(args, 'due_date');
  if (due !== undefined) fields.due_date = invalidParams(() => checkDueDate(due.trim()));
  if (has(args, 'tags')) fields.tags = invalidParams(() => checkTags(args.tags));
  const priority = optionalText(args, 'priority');
  if (priority !== undefined) fields.priority = invalidParams(() => checkPriority(priority));
  if (has(args, 'linked_pages')) fields.linked_pages = args.linked_pages;
  return fields;
}

function tool(
  name: string,
  description: string,
  write: boolean,
  properties: Record<string, Record<string, unknown>>,
  requiredArgs: string[],
  handler: McpTool['handler'],
): McpTool {
  return { name, description, inputSchema: objectSchema(properties, requiredArgs), write, handler };
}

const taskCountOf = (order: Record<string, string[]>, listId: string) =>
  new Set(order[listId] ?? []).size;

export const kanbanTools = defineTools(
  tool(
    'kanban_get_board',
    'Get the whole kanban board (every list with the full details of all its tasks). For an overview of the lists prefer kanban_get_lists, which is lighter. For a kanban item (item_type=6) use this instead of list_pages. Returns the list definitions, the tasks of each list and the archived lists',
    false,
    { item_id: itemIdProp },
    ['item_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      await boardItem(caller, itemId, 'read');
      const view = await attempt(() => getBoard(caller.actor, itemId));
      const cards = new Map(view.cards.map((card) => [String(card.page_id), card]));
      return {
        item_id: itemId,
        page_id: view.page_id,
        lists: view.board.lists.map((list) => ({
          id: list.id,
          title: list.title,
          position: list.position,
          tasks: (view.board.tasks_order[list.id] ?? [])
            .map((id) => cards.get(id))
            .filter((card) => card !== undefined)
            .map((card) => ({ page_id: card.page_id, page_title: card.page_title })),
        })),
        archived_lists: view.board.archived_lists,
      };
    },
  ),
  tool(
    'kanban_get_lists',
    "Get the kanban board's lists: only the list definitions and their task counts, no task details. Lighter than kanban_get_board",
    false,
    { item_id: itemIdProp },
    ['item_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      await boardItem(caller, itemId, 'read');
      const { board } = await attempt(() => getBoard(caller.actor, itemId));
      const shape =
        (order: Record<string, string[]>) => (list: kanban.KanbanBoardData['lists'][number]) => ({
          id: list.id,
          title: list.title,
          position: list.position,
          task_count: taskCountOf(order, list.id),
        });
      return {
        item_id: itemId,
        lists: board.lists.map(shape(board.tasks_order)),
        archived_lists: board.archived_lists.map(shape(board.archived_tasks_order)),
      };
    },
  ),
  tool(
    'kanban_get_task',
    'Get the details of a kanban task. For a kanban item (item_type=6) use this instead of get_page',
    false,
    {
      page_id: integer(
        'Task ID (the page_id of the task, from kanban_get_board or kanban_list_tasks)',
      ),
    },
    ['page_id'],
    async (caller, args) => {
      const pageId = idArg(args, 'page_id');
      const { task } = await taskPage(caller, pageId, 'read', false);
      const card = await attempt(() => getTask(caller.actor, pageId));
      return {
        page_id: pageId,
        page_title: card.page_title,
        item_id: card.item_id,
        list_id: card.list_id,
        list_name: card.list_name,
        description: card.description,
        assignee_uid: card.assignee_uid,
        assignee_username: card.assignee_username,
        creator_uid: card.creator_uid,
        creator_username: card.creator_username,
        due_date: card.due_date,
        tags: card.tags,
        priority: card.priority,
        linked_pages: card.linked_pages,
        completed: card.completed,
        created_at: Number(task.created_at) || 0,
        updated_at: Number(task.updated_at) || 0,
      };
    },
  ),
  tool(
    'kanban_list_tasks',
    'List kanban tasks, filtered by list, assignee, creator, tag, priority or due date. Completed tasks are left out unless show_completed=true. For a kanban item (item_type=6) use this to filter tasks',
    false,
    {
      item_id: itemIdProp,
      list_id: string('List ID (optional)'),
      assignee_uid: string(
        'Assignee UID (optional: a UID as a string such as "123", or "none" for tasks without an assignee)',
      ),
      creator_uid: integer('Creator UID (optional)'),
      tag: string('Tag text (optional)'),
      priority: priorityProp,
      due_date_start: string('Due date from (optional, YYYY-MM-DD)'),
      due_date_end: string('Due date until (optional, YYYY-MM-DD)'),
      show_completed: {
        type: 'boolean',
        description: 'Show completed tasks too (optional, default false)',
      },
    },
    ['item_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      await boardItem(caller, itemId, 'read');
      const view = await attempt(() => getBoard(caller.actor, itemId));
      const listId = optionalText(args, 'list_id') ?? '';
      const assignee = optionalText(args, 'assignee_uid') ?? '';
      const creator = intArg(args, 'creator_uid', 0);
      const tag = optionalText(args, 'tag') ?? '';
      const priority = optionalText(args, 'priority') ?? '';
      const from = optionalText(args, 'due_date_start') ?? '';
      const until = optionalText(args, 'due_date_end') ?? '';
      const showCompleted = args.show_completed === true || args.show_completed === 'true';
      const onBoard = new Set(Object.values(view.board.tasks_order).flat());
      const tasks = view.cards.filter((card) => {
        if (!onBoard.has(String(card.page_id))) return false;
        if (card.completed && !showCompleted) return false;
        if (listId && card.list_id !== listId) return false;
        if (assignee === 'none' && card.assignee_uid) return false;
        if (assignee && assignee !== 'none' && Number(card.assignee_uid) !== Number(assignee))
          return false;
        if (creator > 0 && Number(card.creator_uid) !== creator) return false;
        if (tag && !card.tags.some((t) => t.text === tag)) return false;
        if (priority && card.priority !== priority) return false;
        if (from || until) {
          if (!card.due_date) return false;
          if (from && card.due_date < from) return false;
          if (until && card.due_date > until) return false;
        }
        return true;
      });
      return {
        item_id: itemId,
        tasks: tasks.map((card) => ({ ...card, item_id: itemId })),
        total: tasks.length,
      };
    },
  ),
  tool(
    'kanban_search_tasks',
    'Search kanban tasks by keyword. For a kanban item (item_type=6) use this to search tasks',
    false,
    { item_id: itemIdProp, query: string('Search keyword') },
    ['item_id', 'query'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const query = required(args, 'query', 'The search keyword');
      const access = await itemFor(caller, itemId, 'read');
      // ShowDoc matches task titles; an item that is no board holds no task.
      if ((access.item.item_type || 1) !== KANBAN_ITEM)
        return { item_id: itemId, query, tasks: [], total: 0 };
      const view = await attempt(() => getBoard(caller.actor, itemId));
      const needle = query.toLowerCase();
      const titleOf = (listId: string) =>
        [...view.board.lists, ...view.board.archived_lists].find((l) => l.id === listId)?.title ??
        '';
      const tasks = view.cards
        .filter((card) => card.page_title.toLowerCase().includes(needle))
        .slice(0, 50)
        .map((card) => ({
          page_id: card.page_id,
          page_title: card.page_title,
          list_id: card.list_id,
          list_name: titleOf(card.list_id),
          priority: card.priority,
          assignee_username: card.assignee_username,
          due_date: card.due_date,
        }));
      return { item_id: itemId, query, tasks, total: tasks.length };
    },
  ),
  tool(
    'kanban_create_task',
    'Create a task in a list of the kanban board (the board order is updated). For a kanban item (item_type=6) use this instead of create_page',
    true,
    {
      item_id: itemIdProp,
      list_id: string('Target list ID'),
      title: string('Task title (at most 100 characters)'),
      description: string('Task description (optional)'),
      due_date: string('Due date (optional, YYYY-MM-DD)'),
      tags: tagsProp,
      priority: priorityProp,
      linked_pages: linkedPagesProp,
    },
    ['item_id', 'list_id', 'title'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const listId = required(args, 'list_id', 'The list ID');
      const title = checkTaskTitle(required(args, 'title', 'The task title'));
      await boardItem(caller, itemId, 'write');
      const fields = taskFields(args);
      const card = await attempt(() =>
        kanban.createTask(caller.actor, itemId, { ...fields, listId, title }, writeOptions(caller)),
      );
      return {
        page_id: card.page_id,
        page_title: card.page_title,
        item_id: itemId,
        list_id: listId,
        message: 'Task created',
      };
    },
  ),
  tool(
    'kanban_update_task',
    'Update a kanban task: pass only the fields to change. Set completed to mark it done or not. For a kanban item (item_type=6) use this instead of update_page',
    true,
    {
      page_id: taskIdProp,
      title: string('Task title (optional, at most 100 characters)'),
      description: string('Task description (optional)'),
      assignee_uid: string('Assignee UID (optional, a UID as a string such as "123")'),
      assignee_username: string(
        'Assignee user name (optional; pass it with assignee_uid to keep them consistent)',
      ),
      due_date: string('Due date (optional, YYYY-MM-DD)'),
      tags: tagsProp,
      priority: priorityProp,
      linked_pages: linkedPagesProp,
      completed: { type: 'boolean', description: 'Completed (optional): true or false' },
    },
    ['page_id'],
    async (caller, args) => {
      const pageId = idArg(args, 'page_id');
      await taskPage(caller, pageId, 'write', false);
      const fields = taskFields(args);
      const title = optionalText(args, 'title');
      if (title !== undefined) {
        if (!title.trim())
          throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'The task title is required');
        fields.title = checkTaskTitle(title.trim());
      }
      if (has(args, 'completed'))
        fields.completed =
          args.completed === true || args.completed === 'true' || args.completed === 1;
      if (!Object.keys(fields).length)
        throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'Nothing to update');
      const card = await attempt(() =>
        kanban.updateTask(caller.actor, pageId, fields, writeOptions(caller)),
      );
      return {
        page_id: pageId,
        page_title: card.page_title,
        item_id: (await findLivePage(pageId))?.item_id ?? 0,
        message: 'Task updated',
      };
    },
  ),
  tool(
    'kanban_move_task',
    "Move a kanban task to another list (the task's list_id and the board's tasks_order are updated)",
    true,
    { page_id: taskIdProp, target_list_id: string('Target list ID') },
    ['page_id', 'target_list_id'],
    async (caller, args) => {
      const pageId = idArg(args, 'page_id');
      const target = required(args, 'target_list_id', 'The target list ID');
      const { page: found, access } = await pageFor(caller, pageId, 'write');
      if ((access.item.item_type || 1) !== KANBAN_ITEM)
        throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
      if (!parseTask(found.page_content))
        throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, NO_TASK);
      const moved = await attempt(() =>
        kanban.moveTask(caller.actor, pageId, target, undefined, writeOptions(caller)),
      );
      return {
        page_id: pageId,
        item_id: moved.item_id,
        from_list_id: moved.from_list_id,
        to_list_id: moved.to_list_id,
        message: 'Task moved',
      };
    },
  ),
  tool(
    'kanban_delete_task',
    'Delete a kanban task and remove it from the board order. For a kanban item (item_type=6) use this instead of delete_page',
    true,
    { page_id: taskIdProp },
    ['page_id'],
    async (caller, args) => {
      const pageId = idArg(args, 'page_id');
      const { access } = await pageFor(caller, pageId, 'manage');
      if ((access.item.item_type || 1) !== KANBAN_ITEM)
        throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
      await attempt(() => kanban.deleteTask(caller.actor, pageId, writeOptions(caller)));
      return { page_id: pageId, message: 'Task deleted' };
    },
  ),
  tool(
    'kanban_add_list',
    'Add a list to the kanban board',
    true,
    { item_id: itemIdProp, title: string('List title') },
    ['item_id', 'title'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const title = required(args, 'title', 'The list title');
      await boardItem(caller, itemId, 'write');
      const list = await attempt(() =>
        kanban.addList(caller.actor, itemId, title, writeOptions(caller)),
      );
      return {
        item_id: itemId,
        list_id: list.id,
        title: list.title,
        position: list.position,
        message: 'List created',
      };
    },
  ),
  tool(
    'kanban_update_list',
    'Rename a kanban list',
    true,
    { item_id: itemIdProp, list_id: listIdProp, title: string('New list title') },
    ['item_id', 'list_id', 'title'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const listId = required(args, 'list_id', 'The list ID');
      const title = required(args, 'title', 'The list title');
      await boardItem(caller, itemId, 'manage');
      const list = await attempt(() =>
        kanban.renameList(caller.actor, itemId, listId, title, writeOptions(caller)),
      );
      return { item_id: itemId, list_id: list.id, title: list.title, message: 'List updated' };
    },
  ),
  tool(
    'kanban_delete_list',
    'Delete a kanban list; its tasks are marked completed. The only list of a board cannot be deleted',
    true,
    { item_id: itemIdProp, list_id: listIdProp },
    ['item_id', 'list_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const listId = required(args, 'list_id', 'The list ID');
      await boardItem(caller, itemId, 'manage');
      const out = await attempt(() =>
        kanban.deleteList(caller.actor, itemId, listId, writeOptions(caller)),
      );
      return {
        item_id: itemId,
        list_id: listId,
        completed_tasks_count: out.completed,
        message: 'List deleted; its tasks were marked completed',
      };
    },
  ),
  tool(
    'kanban_archive_list',
    'Archive a kanban list with all its tasks. An archived list leaves the board; kanban_restore_list brings it back',
    true,
    { item_id: itemIdProp, list_id: string('ID of the list to archive') },
    ['item_id', 'list_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const listId = required(args, 'list_id', 'The list ID');
      await boardItem(caller, itemId, 'manage');
      const out = await attempt(() =>
        kanban.archiveList(caller.actor, itemId, listId, writeOptions(caller)),
      );
      return {
        item_id: itemId,
        list_id: listId,
        list_title: out.list.title,
        archived_tasks_count: out.tasks,
        message: `List "${out.list.title}" archived with ${out.tasks} tasks`,
      };
    },
  ),
  tool(
    'kanban_restore_list',
    'Restore an archived kanban list with all its tasks to the active board',
    true,
    { item_id: itemIdProp, list_id: string('ID of the archived list to restore') },
    ['item_id', 'list_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      const listId = required(args, 'list_id', 'The list ID');
      await boardItem(caller, itemId, 'manage');
      const out = await attempt(() =>
        kanban.restoreList(caller.actor, itemId, listId, writeOptions(caller)),
      );
      return {
        item_id: itemId,
        list_id: listId,
        list_title: out.list.title,
        restored_tasks_count: out.tasks,
        message: `List "${out.list.title}" restored with ${out.tasks} tasks`,
      };
    },
  ),
  tool(
    'kanban_list_archived_lists',
    "List the kanban board's archived lists (with each list's task count)",
    false,
    { item_id: itemIdProp },
    ['item_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      await boardItem(caller, itemId, 'read');
      const { board } = await attempt(() => getBoard(caller.actor, itemId));
      const lists = board.archived_lists.map((list) => ({
        id: list.id,
        title: list.title,
        position: list.position,
        tasks_count: (board.archived_tasks_order[list.id] ?? []).length,
      }));
      return { item_id: itemId, archived_lists: lists, total: lists.length };
    },
  ),
  tool(
    'kanban_get_activity',
    "Query the kanban board's activity log, filtered by event type and time range: see the tasks completed in a week, a month or any period",
    false,
    {
      item_id: itemIdProp,
      event_types: {
        type: 'array',
        items: { type: 'string' },
        description:
          'Event types (optional): task_created/task_completed/task_uncompleted/task_moved/task_deleted/task_updated/list_created/list_updated/list_deleted/list_archived/list_restored',
      },
      start_time: integer('Start time, Unix seconds (optional)'),
      end_time: integer('End time, Unix seconds (optional)'),
      page: integer('Page number (default 1)'),
      page_size: integer('Entries per page (default 50, at most 100)'),
    },
    ['item_id'],
    async (caller, args) => {
      const itemId = idArg(args, 'item_id');
      await itemFor(caller, itemId, 'read');
      const page = Math.max(1, intArg(args, 'page', 1, -Infinity));
      const pageSize = Math.min(100, Math.max(1, intArg(args, 'page_size', 50, -Infinity)));
      return attempt(() =>
        kanbanActivity(
          caller.actor,
          {
            itemId,
            eventTypes: Array.isArray(args.event_types) ? args.event_types : [],
            startTime: intArg(args, 'start_time', 0, -Infinity),
            endTime: intArg(args, 'end_time', 0, -Infinity),
            page,
            pageSize,
          },
          { checked: true },
        ),
      );
    },
  ),
);
