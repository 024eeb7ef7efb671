/**
 * Board operations on tasks: read the board with its cards, create, edit, move and delete
 * tasks. Every change goes through `changeBoard` (boards.ts): serialised per board, logged in
 * the activity log, pushed live.
 */
import { type Actor, permits } from '../access';
import { deletePage, findLivePage, type PageDoc, pageVisible, savePageStaged } from '../pages';
import { errors, type KanbanBoardShape, type KanbanCardShape, nowSeconds } from '../platform';
import { logActivity } from './activity';
import {
  boardCards,
  type BoardOptions,
  cardOf,
  changeBoard,
  openBoard,
  requireKanbanItem,
  settleAll,
} from './boards';
import {
  checkDueDate,
  checkLinkedPages,
  checkPriority,
  checkTags,
  checkTaskTitle,
  type KanbanBoardData,
  type KanbanTaskData,
  listOfTask,
  MAX_DESCRIPTION,
  parseTask,
  taskExtInfo,
} from './format';

export interface BoardView {
  item_id: number;
  page_id: number;
  board: KanbanBoardShape;
  cards: KanbanCardShape[];
  can_edit: boolean;
  can_manage: boolean;
}

/** The board and the cards the actor may see. */
export async function getBoard(
  actor: Actor,
  itemId: number,
  options: BoardOptions = {},
): Promise<BoardView> {
  const open = await openBoard(actor, itemId, 'read', options);
  return {
    item_id: itemId,
    page_id: open.page.page_id,
    board: open.board,
    cards: await boardCards(actor, open),
    can_edit: permits(open.access, 'page.update'),
    can_manage: permits(open.access, 'item.manage'),
  };
}

export interface TaskFields {
  title?: string;
  description?: string;
  assignee_uid?: string;
  assignee_username?: string;
  due_date?: string;
  tags?: unknown;
  priority?: string;
  linked_pages?: unknown;
  completed?: boolean;
}

/** Applies checked fields to a task; whether anything but the title changed. */
function applyFields(task: KanbanTaskData, fields: TaskFields): boolean {
  let changed = false;
  const set = <K extends keyof KanbanTaskData>(key: K, value: KanbanTaskData[K]) => {
    task[key] = value;
    changed = true;
  };
  if (fields.description !== undefined) {
    if (fields.description.length > MAX_DESCRIPTION)
      throw errors.failed('The description is too long');
    set('description', fields.description);
  }
  if (fields.assignee_uid !== undefined) {
    const uid = fields.assignee_uid.trim();
    if (uid !== '' && !/^\d+$/.test(uid)) throw errors.failed('Invalid assignee');
    set('assignee_uid', uid === '0' ? '' : uid);
    if (fields.assignee_username === undefined && !task.assignee_uid) set('assignee_username', '');
  }
  if (fields.assignee_username !== undefined)
    set('assignee_username', fields.assignee_username.slice(0, 100));
  if (fields.due_date !== undefined) set('due_date', checkDueDate(fields.due_date.trim()));
  if (fields.tags !== undefined) set('tags', checkTags(fields.tags));
  if (fields.priority !== undefined) set('priority', checkPriority(fields.priority.trim()));
  if (fields.linked_pages !== undefined) set('linked_pages', checkLinkedPages(fields.linked_pages));
  if (fields.completed !== undefined) set('completed', fields.completed);
  return changed;
}

function insertAt(list: string[], id: string, index: number | undefined): number {
  const at = index === undefined || index < 0 || index > list.length ? list.length : index;
  list.splice(at, 0, id);
  return at;
}

function activeList(board: KanbanBoardData, listId: string) {
  const list = board.lists.find((l) => l.id === listId);
  if (!list) throw errors.failed('The target list does not exist');
  return list;
}

function saveTaskStaged(
  actor: Actor,
  page: Pick<PageDoc, 'page_id' | 'item_id' | 'cat_id'>,
  title: string,
  task: KanbanTaskData,
  options: BoardOptions,
  versioned = true,
): { stored: Promise<KanbanCardShape>; saved: Promise<KanbanCardShape> } {
  const save = savePageStaged(
    actor,
    {
      pageId: page.page_id,
      itemId: page.item_id,
      title,
      content: JSON.stringify(task),
      catId: page.cat_id,
      extInfo: taskExtInfo(task),
    },
    { origin: 'kanban', versioned, ...(options.agent ? { agent: options.agent } : {}) },
  );
  return {
    stored: save.stored.then((row) => cardOf(row)!),
    saved: save.saved.then(({ page: row }) => cardOf(row)!),
  };
}

function saveTask(
  actor: Actor,
  page: Pick<PageDoc, 'page_id' | 'item_id' | 'cat_id'>,
  title: string,
  task: KanbanTaskData,
  options: BoardOptions,
): Promise<KanbanCardShape> {
  return saveTaskStaged(actor, page, title, task, options).saved;
}

export interface NewTask extends TaskFields {
  listId: string;
  title: string;
  /** Position in the list (undefined or out of range = the end). */
  index?: number;
}

/** Creates a task page in the board's catalog and puts its card in the list. */
export async function createTask(
  actor: Actor,
  itemId: number,
  input: NewTask,
  options: BoardOptions = {},
): Promise<KanbanCardShape> {
  const title = checkTaskTitle(input.title);
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board, page: boardPage }) => {
      activeList(board, input.listId);
      const now = nowSeconds();
      const task: KanbanTaskData = {
        list_id: input.listId,
        description: '',
        assignee_uid: '',
        assignee_username: '',
        creator_uid: String(actor.uid),
        creator_username: actor.username,
        due_date: '',
        tags: [],
        priority: 'medium',
        linked_pages: [],
        completed: false,
        created_at: now,
        updated_at: now,
      };
      applyFields(task, { ...input, completed: undefined });
      const card = await saveTask(
        actor,
        { page_id: 0, item_id: itemId, cat_id: boardPage.cat_id },
        title,
        task,
        options,
      );
      board.tasks_order[input.listId] ??= [];
      insertAt(board.tasks_order[input.listId], String(card.page_id), input.index);
      await logActivity(
        itemId,
        card.page_id,
        'task_created',
        { title, list_id: input.listId },
        actor.uid,
      );
      return { result: card, boardChanged: true, cards: [card] };
    },
    options,
  );
}

/** A live task page the actor may see, with its task data. */
async function findTask(
  actor: Actor,
  pageId: number,
): Promise<{ page: PageDoc; task: KanbanTaskData }> {
  if (!(pageId > 0)) throw errors.failed('Task ID is required');
  const page = await findLivePage(pageId);
  if (!page) throw errors.failed('Task not found');
  await requireKanbanItem(page.item_id);
  const task = parseTask(page.page_content);
  if (!task) throw errors.failed('Task data could not be parsed: this page is not a kanban task');
  return { page, task };
}

/** Reads a task the actor may see (visibility as for its page). */
export async function getTask(
  actor: Actor,
  pageId: number,
  options: BoardOptions = {},
): Promise<KanbanCardShape & { item_id: number; list_name: string }> {
  const { page } = await findTask(actor, pageId);
  const open = await openBoard(actor, page.item_id, 'read', options);
  if (!(await pageVisible(actor, open.access, page))) throw errors.failed('Task not found');
  const card = cardOf(page)!;
  const list =
    open.board.lists.find((l) => l.id === card.list_id) ??
    open.board.archived_lists.find((l) => l.id === card.list_id);
  return { ...card, item_id: page.item_id, list_name: list?.title ?? '' };
}

/** Changes the fields given; `completed` logs task_completed / task_uncompleted. */
export async function updateTask(
  actor: Actor,
  pageId: number,
  fields: TaskFields,
  options: BoardOptions = {},
): Promise<KanbanCardShape> {
  const { page: found } = await findTask(actor, pageId);
  return changeBoard(
    actor,
    found.item_id,
    'edit',
    async ({ access }) => {
      // Read again while holding the board: a move may have changed its list meanwhile.
      const { page, task } = await findTask(actor, pageId);
      if (!(await pageVisible(actor, access, page))) throw errors.failed('Task not found');
      const title = fields.title !== undefined ? checkTaskTitle(fields.title) : page.page_title;
      const changed = applyFields(task, fields);
      if (!changed && title === page.page_title) throw errors.failed('Nothing to update');
      task.updated_at = nowSeconds();
      const card = await saveTask(actor, page, title, task, options);
      const type =
        fields.completed === undefined
          ? 'task_updated'
          : fields.completed
            ? 'task_completed'
            : 'task_uncompleted';
      await logActivity(page.item_id, pageId, type, { title }, actor.uid);
      return { result: card, boardChanged: false, cards: [card] };
    },
    options,
  );
}

export interface MoveResult {
  page_id: number;
  item_id: number;
  from_list_id: string;
  to_list_id: string;
  index: number;
  version: number;
}

/**
 * Moves a card to a list at a position (undefined = the end), as one step on the stored board:
 * two people moving at once both land, one after the other.
 */
export async function moveTask(
  actor: Actor,
  pageId: number,
  toListId: string,
  index?: number,
  options: BoardOptions = {},
): Promise<MoveResult> {
  if (!toListId) throw errors.failed('The target list ID is required');
  const { page: found } = await findTask(actor, pageId);
  return changeBoard(
    actor,
    found.item_id,
    'edit',
    async ({ access, board }) => {
      const { page, task } = await findTask(actor, pageId);
      if (!(await pageVisible(actor, access, page))) throw errors.failed('Task not found');
      const target = activeList(board, toListId);
      const at = listOfTask(board, pageId);
      const from = at?.listId ?? task.list_id;
      const id = String(pageId);
      if (at) {
        const order = at.archived ? board.archived_tasks_order : board.tasks_order;
        order[at.listId] = order[at.listId].filter((x) => x !== id);
      }
      board.tasks_order[target.id] ??= [];
      const placed = insertAt(board.tasks_order[target.id], id, index);
      const cards: KanbanCardShape[] = [];
      // The task's page and the log are written while changeBoard stores the board page; the
      // push waits only for the task's row (`stored`). A move keeps no version of the task: the
      // board's version and the activity log record it, and the task's kept versions stay its
      // own edits (a version per drag would push them out).
      const writes: Array<Promise<unknown>> = [];
      let stored: Promise<unknown> | undefined;
      if (task.list_id !== target.id) {
        task.list_id = target.id;
        task.updated_at = nowSeconds();
        const save = saveTaskStaged(actor, page, page.page_title, task, options, false);
        stored = save.stored.then((card) => cards.push(card));
        writes.push(save.saved);
      }
      if (from !== target.id) {
        const titleOf = (listId: string) =>
          [...board.lists, ...board.archived_lists].find((l) => l.id === listId)?.title ?? '';
        writes.push(
          logActivity(
            page.item_id,
            pageId,
            'task_moved',
            {
              title: page.page_title,
              from_list_id: from,
              to_list_id: target.id,
              from_list_title: titleOf(from),
              to_list_title: target.title,
            },
            actor.uid,
          ),
        );
      }
      return {
        result: {
          page_id: pageId,
          item_id: page.item_id,
          from_list_id: from,
          to_list_id: target.id,
          index: placed,
          version: board.meta.version + 1,
        },
        boardChanged: true,
        cards,
        alongside: settleAll(writes),
        ...(stored ? { stored } : {}),
      };
    },
    options,
  );
}

/** Deletes a task (its page goes to the recycle bin, as a page delete) and its card. */
export async function deleteTask(
  actor: Actor,
  pageId: number,
  options: BoardOptions = {},
): Promise<void> {
  const { page } = await findTask(actor, pageId);
  await changeBoard(
    actor,
    page.item_id,
    'edit',
    async ({ board }) => {
      await deletePage(actor, pageId);
      const id = String(pageId);
      for (const order of [board.tasks_order, board.archived_tasks_order])
        for (const listId of Object.keys(order))
          order[listId] = order[listId].filter((x) => x !== id);
      await logActivity(
        page.item_id,
        pageId,
        'task_deleted',
        { title: page.page_title },
        actor.uid,
      );
      return { result: undefined, boardChanged: true, removed: [pageId] };
    },
    options,
  );
}
