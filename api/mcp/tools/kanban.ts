/**
 * The 16 kanban tools (ShowDoc's KanbanHandler). Quire has no kanban items (type 6) yet (README,
 * "Left out"; models/compat/kanban.ts answers `kanban/*` the same way), so every item is one that
 * is not a board, and each tool answers as ShowDoc's handler does for such an item — after the
 * same argument and permission checks, in the same order:
 * - tools that need the board (`requireBoard`) answer -32006 "kanban board not found";
 * - tools that read a task page's JSON (get/update task) find no task in an ordinary page:
 *   -32010 "task data could not be parsed";
 * - the search finds no task and the activity log is empty.
 * Names, argument schemas and answer shapes are ShowDoc's, so an agent's set-up moves over
 * unchanged and starts working the day kanban items land.
 */
import { itemFor, pageFor, type Need } from '../access';
import { idArg, intArg } from '../args';
import { integer, objectSchema, string } from '../schema';
import { defineTools, MCP_ERRORS, type McpCaller, type McpTool, McpToolError } from '../toolkit';

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

/** The checks of a tool that works on an item's board, then the answer for a non-board. */
async function boardOf(caller: McpCaller, itemId: number, need: Need): Promise<never> {
  await itemFor(caller, itemId, need);
  throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
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

function boardTool(
  name: string,
  description: string,
  need: Need,
  properties: Record<string, Record<string, unknown>>,
  requiredArgs: string[],
  check: (args: Args) => void = () => {},
): McpTool {
  return {
    name,
    description,
    inputSchema: objectSchema(properties, requiredArgs),
    write: need !== 'read',
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      check(args);
      return boardOf(caller, itemId, need);
    },
  };
}

export const kanbanTools = defineTools(
  boardTool(
    'kanban_get_board',
    'Get the whole kanban board (every list with the full details of all its tasks). For an overview of the lists prefer kanban_get_lists, which is lighter. For a kanban item (item_type=6) use this instead of list_pages. Returns the list definitions, the tasks of each list and the archived lists',
    'read',
    { item_id: itemIdProp },
    ['item_id'],
  ),
  boardTool(
    'kanban_get_lists',
    "Get the kanban board's lists: only the list definitions and their task counts, no task details. Lighter than kanban_get_board",
    'read',
    { item_id: itemIdProp },
    ['item_id'],
  ),
  {
    name: 'kanban_get_task',
    description:
      'Get the details of a kanban task. For a kanban item (item_type=6) use this instead of get_page',
    inputSchema: objectSchema(
      {
        page_id: integer(
          'Task ID (the page_id of the task, from kanban_get_board or kanban_list_tasks)',
        ),
      },
      ['page_id'],
    ),
    write: false,
    async handler(caller, args) {
      await pageFor(caller, idArg(args, 'page_id'), 'read');
      throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, NO_TASK);
    },
  },
  boardTool(
    'kanban_list_tasks',
    'List kanban tasks, filtered by list, assignee, creator, tag, priority or due date. Completed tasks are left out unless show_completed=true. For a kanban item (item_type=6) use this to filter tasks',
    'read',
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
  ),
  {
    name: 'kanban_search_tasks',
    description:
      'Search kanban tasks by keyword. For a kanban item (item_type=6) use this to search tasks',
    inputSchema: objectSchema({ item_id: itemIdProp, query: string('Search keyword') }, [
      'item_id',
      'query',
    ]),
    write: false,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      const query = required(args, 'query', 'The search keyword');
      await itemFor(caller, itemId, 'read');
      // ShowDoc matches page titles and keeps the pages that hold task data: none outside a board.
      return { item_id: itemId, query, tasks: [], total: 0 };
    },
  },
  boardTool(
    'kanban_create_task',
    'Create a task in a list of the kanban board (the board order is updated). For a kanban item (item_type=6) use this instead of create_page',
    'write',
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
    (args) => {
      required(args, 'list_id', 'The list ID');
      checkTaskTitle(required(args, 'title', 'The task title'));
    },
  ),
  {
    name: 'kanban_update_task',
    description:
      'Update a kanban task: pass only the fields to change. Set completed to mark it done or not. For a kanban item (item_type=6) use this instead of update_page',
    inputSchema: objectSchema(
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
    ),
    write: true,
    async handler(caller, args) {
      await pageFor(caller, idArg(args, 'page_id'), 'write');
      throw new McpToolError(MCP_ERRORS.OPERATION_FAILED, NO_TASK);
    },
  },
  {
    name: 'kanban_move_task',
    description:
      "Move a kanban task to another list (the task's list_id and the board's tasks_order are updated)",
    inputSchema: objectSchema({ page_id: taskIdProp, target_list_id: string('Target list ID') }, [
      'page_id',
      'target_list_id',
    ]),
    write: true,
    async handler(caller, args) {
      const pageId = idArg(args, 'page_id');
      required(args, 'target_list_id', 'The target list ID');
      await pageFor(caller, pageId, 'write');
      throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
    },
  },
  {
    name: 'kanban_delete_task',
    description:
      'Delete a kanban task and remove it from the board order. For a kanban item (item_type=6) use this instead of delete_page',
    inputSchema: objectSchema({ page_id: taskIdProp }, ['page_id']),
    write: true,
    async handler(caller, args) {
      await pageFor(caller, idArg(args, 'page_id'), 'manage');
      throw new McpToolError(MCP_ERRORS.RESOURCE_NOT_FOUND, NO_BOARD);
    },
  },
  boardTool(
    'kanban_add_list',
    'Add a list to the kanban board',
    'write',
    { item_id: itemIdProp, title: string('List title') },
    ['item_id', 'title'],
    (args) => void required(args, 'title', 'The list title'),
  ),
  boardTool(
    'kanban_update_list',
    'Rename a kanban list',
    'manage',
    { item_id: itemIdProp, list_id: listIdProp, title: string('New list title') },
    ['item_id', 'list_id', 'title'],
    (args) => {
      required(args, 'list_id', 'The list ID');
      required(args, 'title', 'The list title');
    },
  ),
  boardTool(
    'kanban_delete_list',
    'Delete a kanban list; its tasks are marked completed. The only list of a board cannot be deleted',
    'manage',
    { item_id: itemIdProp, list_id: listIdProp },
    ['item_id', 'list_id'],
    (args) => void required(args, 'list_id', 'The list ID'),
  ),
  boardTool(
    'kanban_archive_list',
    'Archive a kanban list with all its tasks. An archived list leaves the board; kanban_restore_list brings it back',
    'manage',
    { item_id: itemIdProp, list_id: string('ID of the list to archive') },
    ['item_id', 'list_id'],
    (args) => void required(args, 'list_id', 'The list ID'),
  ),
  boardTool(
    'kanban_restore_list',
    'Restore an archived kanban list with all its tasks to the active board',
    'manage',
    { item_id: itemIdProp, list_id: string('ID of the archived list to restore') },
    ['item_id', 'list_id'],
    (args) => void required(args, 'list_id', 'The list ID'),
  ),
  boardTool(
    'kanban_list_archived_lists',
    "List the kanban board's archived lists (with each list's task count)",
    'read',
    { item_id: itemIdProp },
    ['item_id'],
  ),
  {
    name: 'kanban_get_activity',
    description:
      "Query the kanban board's activity log, filtered by event type and time range: see the tasks completed in a week, a month or any period",
    inputSchema: objectSchema(
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
    ),
    write: false,
    async handler(caller, args) {
      const itemId = idArg(args, 'item_id');
      await itemFor(caller, itemId, 'read');
      const page = Math.max(1, intArg(args, 'page', 1, -Infinity));
      const pageSize = Math.min(100, Math.max(1, intArg(args, 'page_size', 50, -Infinity)));
      // No board, no board events: ShowDoc's log holds nothing for such an item.
      return { item_id: itemId, activities: [], total: 0, page, page_size: pageSize };
    },
  },
);
