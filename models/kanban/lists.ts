/** Board operations on lists: add, rename, reorder, archive, restore, delete (boards.ts writes). */
import type { Actor } from '../access';
import { findLivePages, savePage } from '../pages';
import { errors, type KanbanCardShape, nowSeconds } from '../platform';
import { logActivity } from './activity';
import { type BoardOptions, cardOf, changeBoard } from './boards';
import {
  checkListTitle,
  type KanbanBoardData,
  type KanbanList,
  newListId,
  parseTask,
  taskExtInfo,
} from './format';

/** Positions follow the lists' order (1, 2, …), as ShowDoc numbers them. */
function renumber(lists: KanbanList[]): void {
  lists.forEach((list, i) => (list.position = i + 1));
}

function findList(board: KanbanBoardData, listId: string): KanbanList {
  if (!listId) throw errors.failed('The list ID is required');
  const list = board.lists.find((l) => l.id === listId);
  if (!list) throw errors.failed('The list does not exist');
  return list;
}

export async function addList(
  actor: Actor,
  itemId: number,
  rawTitle: string,
  options: BoardOptions = {},
): Promise<KanbanList> {
  const title = checkListTitle(rawTitle);
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      const position = Math.max(0, ...board.lists.map((l) => l.position)) + 1;
      const list = { id: newListId(), title, position };
      board.lists.push(list);
      board.tasks_order[list.id] = [];
      await logActivity(itemId, 0, 'list_created', { list_id: list.id, title }, actor.uid);
      return { result: list, boardChanged: true };
    },
    options,
  );
}

export async function renameList(
  actor: Actor,
  itemId: number,
  listId: string,
  rawTitle: string,
  options: BoardOptions = {},
): Promise<KanbanList> {
  const title = checkListTitle(rawTitle);
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      const list = findList(board, listId);
      list.title = title;
      await logActivity(itemId, 0, 'list_updated', { list_id: listId, title }, actor.uid);
      return { result: { ...list }, boardChanged: true };
    },
    options,
  );
}

/** Moves a list to another place among the active lists. */
export async function moveList(
  actor: Actor,
  itemId: number,
  listId: string,
  index: number,
  options: BoardOptions = {},
): Promise<void> {
  await changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      const list = findList(board, listId);
      board.lists = board.lists.filter((l) => l !== list);
      const at = index < 0 || index > board.lists.length ? board.lists.length : index;
      board.lists.splice(at, 0, list);
      renumber(board.lists);
      return { result: undefined, boardChanged: true };
    },
    options,
  );
}

export async function archiveList(
  actor: Actor,
  itemId: number,
  listId: string,
  options: BoardOptions = {},
): Promise<{ list: KanbanList; tasks: number }> {
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      const list = findList(board, listId);
      const tasks = board.tasks_order[listId] ?? [];
      board.archived_lists.push({ ...list });
      board.archived_tasks_order[listId] = tasks;
      board.lists = board.lists.filter((l) => l.id !== listId);
      delete board.tasks_order[listId];
      await logActivity(
        itemId,
        0,
        'list_archived',
        { list_id: listId, title: list.title, tasks_count: tasks.length },
        actor.uid,
      );
      return { result: { list, tasks: tasks.length }, boardChanged: true };
    },
    options,
  );
}

export async function restoreList(
  actor: Actor,
  itemId: number,
  listId: string,
  options: BoardOptions = {},
): Promise<{ list: KanbanList; tasks: number }> {
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      if (!listId) throw errors.failed('The list ID is required');
      const list = board.archived_lists.find((l) => l.id === listId);
      if (!list) throw errors.failed('No archived list has this ID');
      const tasks = board.archived_tasks_order[listId] ?? [];
      list.position = Math.max(0, ...board.lists.map((l) => l.position)) + 1;
      board.lists.push(list);
      board.tasks_order[listId] = tasks;
      board.archived_lists = board.archived_lists.filter((l) => l.id !== listId);
      delete board.archived_tasks_order[listId];
      await logActivity(
        itemId,
        0,
        'list_restored',
        { list_id: listId, title: list.title, tasks_count: tasks.length },
        actor.uid,
      );
      return { result: { list, tasks: tasks.length }, boardChanged: true };
    },
    options,
  );
}

/** Deletes a list; its tasks are marked completed (ShowDoc's rule). The only list stays. */
export async function deleteList(
  actor: Actor,
  itemId: number,
  listId: string,
  options: BoardOptions = {},
): Promise<{ completed: number }> {
  return changeBoard(
    actor,
    itemId,
    'edit',
    async ({ board }) => {
      findList(board, listId);
      if (board.lists.length <= 1)
        throw errors.failed('The only list of a board cannot be deleted');
      const ids = (board.tasks_order[listId] ?? []).map(Number);
      const cards: KanbanCardShape[] = [];
      for (const page of await findLivePages(ids)) {
        const task = parseTask(page.page_content);
        if (!task || page.item_id !== itemId || task.completed) continue;
        task.completed = true;
        task.updated_at = nowSeconds();
        const saved = await savePage(
          actor,
          {
            pageId: page.page_id,
            itemId,
            title: page.page_title,
            content: JSON.stringify(task),
            extInfo: taskExtInfo(task),
          },
          { origin: 'kanban', ...(options.agent ? { agent: options.agent } : {}) },
        );
        const card = cardOf(saved.page);
        if (card) cards.push(card);
      }
      board.lists = board.lists.filter((l) => l.id !== listId);
      delete board.tasks_order[listId];
      renumber(board.lists);
      await logActivity(
        itemId,
        0,
        'list_deleted',
        { list_id: listId, completed_tasks: ids.length },
        actor.uid,
      );
      return { result: { completed: ids.length }, boardChanged: true, cards };
    },
    options,
  );
}
