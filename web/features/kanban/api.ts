/** `kanban/*` as the board screen calls it (models/kanban answers; types from the contract). */
import type { Output } from '../../../api/contracts';
import type { KanbanCardPayload } from '../../../realtime/socketEvents';
import { getToken } from '../../auth/storage';
import { ApiRequestError, request } from '../../api/request';

export type BoardAnswer = Output<'kanban', 'board'>;
export type KanbanBoard = BoardAnswer['board'];
export type KanbanCard = KanbanCardPayload;
export type KanbanListShape = KanbanBoard['lists'][number];
export type ActivityPage = Output<'kanban', 'getActivity'>;
export type ActivityEntry = ActivityPage['activities'][number];

const QUIET = { alert: false, redirect: false, manager: false } as const;

export const loadBoard = (itemId: number) =>
  request<BoardAnswer>('kanban/board', { item_id: itemId }, { manager: false });

export interface TaskInput {
  title?: string;
  description?: string;
  assignee_uid?: string;
  assignee_username?: string;
  due_date?: string;
  tags?: { color: string; text: string }[];
  priority?: string;
  completed?: boolean;
}

function taskParams(input: TaskInput) {
  const params: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(input)) {
    if (value === undefined) continue;
    if (key === 'tags') params.tags = JSON.stringify(value);
    else if (typeof value === 'boolean') params[key] = value ? 1 : 0;
    else params[key] = value as string;
  }
  return params;
}

export const addTask = (itemId: number, listId: string, title: string) =>
  request<KanbanCard>('kanban/addTask', { item_id: itemId, list_id: listId, title }, QUIET);

export const updateTask = (pageId: number, input: TaskInput) =>
  request<KanbanCard>('kanban/updateTask', { page_id: pageId, ...taskParams(input) }, QUIET);

export const moveTask = (pageId: number, listId: string, index: number) =>
  request<Output<'kanban', 'moveTask'>>(
    'kanban/moveTask',
    { page_id: pageId, list_id: listId, index },
    QUIET,
  );

export const deleteTask = (pageId: number) =>
  request<unknown>('kanban/deleteTask', { page_id: pageId }, QUIET);

export const addList = (itemId: number, title: string) =>
  request<unknown>('kanban/addList', { item_id: itemId, title }, QUIET);

export const renameList = (itemId: number, listId: string, title: string) =>
  request<unknown>('kanban/renameList', { item_id: itemId, list_id: listId, title }, QUIET);

export const archiveList = (itemId: number, listId: string) =>
  request<unknown>('kanban/archiveList', { item_id: itemId, list_id: listId }, QUIET);

export const restoreList = (itemId: number, listId: string) =>
  request<unknown>('kanban/restoreList', { item_id: itemId, list_id: listId }, QUIET);

export const deleteList = (itemId: number, listId: string) =>
  request<unknown>('kanban/deleteList', { item_id: itemId, list_id: listId }, QUIET);

export const loadActivity = (itemId: number, page: number) =>
  request<ActivityPage>('kanban/getActivity', { item_id: itemId, page, page_size: 50 }, QUIET);

export type ItemPerson = Output<'member', 'getAllList'>[number];

/** People a task may be assigned to: the item's owner and members (editors may list them). */
export const loadPeople = (itemId: number) =>
  request<Output<'member', 'getAllList'>>('member/getAllList', { item_id: itemId }, QUIET);

/** Downloads the activity log as ShowDoc's CSV (the token in a header, never in an address). */
export async function downloadActivity(itemId: number): Promise<void> {
  const route = 'kanban/exportActivity';
  const response = await fetch(`/api/${route}?item_id=${itemId}`, {
    headers: { 'X-API-Token': getToken() },
    credentials: 'same-origin',
  });
  if (!(response.headers.get('content-disposition') ?? '').includes('attachment')) {
    const body = (await response.json()) as { error_code: number; error_message?: string };
    throw new ApiRequestError(body.error_code, body.error_message ?? '', route, response.status);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = `kanban_activity_${itemId}.csv`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
