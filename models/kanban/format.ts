/**
 * ShowDoc's kanban data, exactly as its clients, exports and MCP handler read it (item type 6):
 *
 * - the board is one page titled `__kanban_board__` whose text is JSON: `lists` (id, title,
 *   position), `tasks_order` (list id → task page ids as strings, top to bottom),
 *   `archived_lists` / `archived_tasks_order` (the same for archived lists) and `meta`
 *   (`version`, `last_updated`). Quire bumps `meta.version` on every board write, which is what
 *   live clients order pushes by;
 * - each task is a page of the item: its title is the task's title and its text is JSON
 *   (list_id, description Markdown, assignee, creator, due date, tags, priority, linked pages,
 *   completed); `ext_info` repeats the fields a card shows, as ShowDoc writes it.
 *
 * ShowDoc wrote an empty PHP array as `[]`, so the order maps may arrive as arrays: read as {}.
 */
import { errors } from '../platform';

export const KANBAN_ITEM = 6;
export const BOARD_TITLE = '__kanban_board__';
export const TAG_COLORS = ['red', 'orange', 'yellow', 'green', 'blue', 'purple', 'gray'] as const;
export const PRIORITIES = ['high', 'medium', 'low'] as const;
export const MAX_TASK_TITLE = 100;
export const MAX_LIST_TITLE = 100;
export const MAX_TAGS = 3;
export const MAX_TAG_TEXT = 20;
export const MAX_DESCRIPTION = 200_000;
export const MAX_LINKED_PAGES = 50;

export interface KanbanList {
  id: string;
  title: string;
  position: number;
}

export interface KanbanTag {
  color: string;
  text: string;
}

export interface KanbanLinkedPage {
  item_id: string;
  page_id: string;
  page_title: string;
}

export interface KanbanBoardData {
  lists: KanbanList[];
  tasks_order: Record<string, string[]>;
  archived_lists: KanbanList[];
  archived_tasks_order: Record<string, string[]>;
  meta: { version: number; last_updated: number };
  /** Anything else a newer ShowDoc writes is kept as it is. */
  [key: string]: unknown;
}

export interface KanbanTaskData {
  list_id: string;
  description: string;
  assignee_uid: string;
  assignee_username: string;
  creator_uid: string | number;
  creator_username: string;
  due_date: string;
  tags: KanbanTag[];
  priority: string;
  linked_pages: KanbanLinkedPage[];
  completed: boolean;
  created_at?: number;
  updated_at?: number;
  [key: string]: unknown;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'number' ? String(value) : '';
}

function readLists(value: unknown): KanbanList[] {
  if (!Array.isArray(value)) return [];
  const seen = new Set<string>();
  const lists: KanbanList[] = [];
  for (const raw of value) {
    if (!isObject(raw)) continue;
    const id = text(raw.id);
    if (!id || seen.has(id)) continue;
    seen.add(id);
    lists.push({ id, title: text(raw.title), position: Number(raw.position) || 0 });
  }
  return lists;
}

function readOrder(value: unknown): Record<string, string[]> {
  const order: Record<string, string[]> = {};
  if (!isObject(value)) return order;
  for (const [listId, ids] of Object.entries(value)) {
    if (!Array.isArray(ids)) continue;
    order[listId] = [...new Set(ids.map(text).filter((id) => /^\d+$/.test(id)))];
  }
  return order;
}

/** The board JSON of a board page, normalised (null when the text is no board). */
export function parseBoard(content: string): KanbanBoardData | null {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return null;
  }
  if (!isObject(raw) || !Array.isArray(raw.lists)) return null;
  const meta = isObject(raw.meta) ? raw.meta : {};
  return {
    ...raw,
    lists: readLists(raw.lists),
    tasks_order: readOrder(raw.tasks_order),
    archived_lists: readLists(raw.archived_lists),
    archived_tasks_order: readOrder(raw.archived_tasks_order),
    meta: {
      ...meta,
      version: Number(meta.version) || 0,
      last_updated: Number(meta.last_updated) || 0,
    },
  };
}

/** A new board's text: lists with ShowDoc's default ids (`list_default_<n>`). */
export function defaultBoard(titles: string[]): KanbanBoardData {
  const lists = titles.map((title, i) => ({ id: `list_default_${i + 1}`, title, position: i + 1 }));
  return {
    lists,
    tasks_order: Object.fromEntries(lists.map((l) => [l.id, [] as string[]])),
    archived_lists: [],
    archived_tasks_order: {},
    meta: { version: 1, last_updated: 0 },
  };
}

/** A task page's JSON (null when the page holds no task: not JSON, or no list). */
export function parseTask(content: string): KanbanTaskData | null {
  let raw: unknown;
  try {
    raw = JSON.parse(content);
  } catch {
    return null;
  }
  if (!isObject(raw) || !('list_id' in raw)) return null;
  return {
    ...raw,
    list_id: text(raw.list_id),
    description: text(raw.description),
    assignee_uid: text(raw.assignee_uid),
    assignee_username: text(raw.assignee_username),
    creator_uid: (raw.creator_uid as string | number) ?? '',
    creator_username: text(raw.creator_username),
    due_date: text(raw.due_date),
    tags: Array.isArray(raw.tags)
      ? raw.tags.filter(isObject).map((t) => ({ color: text(t.color), text: text(t.text) }))
      : [],
    priority: text(raw.priority),
    linked_pages: Array.isArray(raw.linked_pages)
      ? raw.linked_pages.filter(isObject).map((p) => ({
          item_id: text(p.item_id),
          page_id: text(p.page_id),
          page_title: text(p.page_title),
        }))
      : [],
    completed: raw.completed === true || raw.completed === 1 || raw.completed === '1',
  };
}

/** The card fields ShowDoc repeats in a task page's `ext_info`. */
export function taskExtInfo(task: KanbanTaskData): string {
  return JSON.stringify({
    completed: task.completed,
    tags: task.tags,
    priority: task.priority,
    assignee_uid: task.assignee_uid,
    assignee_username: task.assignee_username,
    due_date: task.due_date,
  });
}

// ------------------------------------------------------------------------------------------------
// Checks shared by REST and MCP (ShowDoc's limits).

export function checkTaskTitle(raw: string): string {
  const title = raw.trim();
  if (!title) throw errors.failed('The task title is required');
  if ([...title].length > MAX_TASK_TITLE)
    throw errors.failed(`The task title must be at most ${MAX_TASK_TITLE} characters`);
  return title;
}

export function checkListTitle(raw: string): string {
  const title = raw.trim();
  if (!title) throw errors.failed('The list title is required');
  if ([...title].length > MAX_LIST_TITLE)
    throw errors.failed(`The list title must be at most ${MAX_LIST_TITLE} characters`);
  return title;
}

/** Tags as ShowDoc allows them: at most three, known colours, short texts. */
/** Form posts send lists as JSON text. */
function decoded(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  if (value.trim() === '') return [];
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

export function checkTags(raw: unknown): KanbanTag[] {
  const value = decoded(raw);
  if (!Array.isArray(value)) throw errors.failed('Tags must be a list');
  if (value.length > MAX_TAGS) throw errors.failed(`At most ${MAX_TAGS} tags`);
  return value.map((raw) => {
    if (!isObject(raw)) throw errors.failed('A tag needs a color and a text');
    const color = text(raw.color) || 'gray';
    const tagText = text(raw.text).trim();
    if (!(TAG_COLORS as readonly string[]).includes(color))
      throw errors.failed(`Invalid tag color, one of: ${TAG_COLORS.join(', ')}`);
    if ([...tagText].length > MAX_TAG_TEXT)
      throw errors.failed(`A tag text must be at most ${MAX_TAG_TEXT} characters`);
    return { color, text: tagText };
  });
}

export function checkPriority(value: string): string {
  if (value !== '' && !(PRIORITIES as readonly string[]).includes(value))
    throw errors.failed('Invalid priority, one of: high, medium, low');
  return value;
}

export function checkDueDate(value: string): string {
  if (value !== '' && !/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw errors.failed('The due date must read YYYY-MM-DD');
  return value;
}

export function checkLinkedPages(raw: unknown): KanbanLinkedPage[] {
  const value = decoded(raw);
  if (!Array.isArray(value)) throw errors.failed('Linked pages must be a list');
  if (value.length > MAX_LINKED_PAGES)
    throw errors.failed(`At most ${MAX_LINKED_PAGES} linked pages`);
  return value.filter(isObject).map((p) => ({
    item_id: text(p.item_id),
    page_id: text(p.page_id),
    page_title: text(p.page_title).slice(0, 255),
  }));
}

/** A fresh list id in ShowDoc's form. */
export function newListId(): string {
  return `list_${Date.now()}_${1000 + Math.floor(Math.random() * 9000)}`;
}

/** The list holding a task (active lists first), or null. */
export function listOfTask(
  board: KanbanBoardData,
  pageId: number,
): { listId: string; archived: boolean } | null {
  const id = String(pageId);
  for (const [listId, ids] of Object.entries(board.tasks_order))
    if (ids.includes(id)) return { listId, archived: false };
  for (const [listId, ids] of Object.entries(board.archived_tasks_order))
    if (ids.includes(id)) return { listId, archived: true };
  return null;
}

/** Every task page id the board names (active and archived lists). */
export function boardTaskIds(board: KanbanBoardData): number[] {
  const ids = new Set<number>();
  for (const order of [board.tasks_order, board.archived_tasks_order])
    for (const list of Object.values(order)) for (const id of list) ids.add(Number(id));
  return [...ids];
}
