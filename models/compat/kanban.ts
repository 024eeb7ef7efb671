/**
 * ShowDoc's kanban items (type 6) are left out of Quire (README, "Left out"): no item is a kanban,
 * so `kanban/*` answers as ShowDoc does for an item that is not one — after its own parameter
 * checks, "item not found or not a kanban item" (10303).
 */
import { ApiError } from '../platform';

const EVENT_TYPES = new Set([
  'task_created',
  'task_completed',
  'task_uncompleted',
  'task_moved',
  'task_deleted',
  'task_updated',
  'list_created',
  'list_updated',
  'list_deleted',
  'list_archived',
  'list_restored',
]);

const NOT_KANBAN = 'Item not found or not a kanban item';

/** kanban/logEvent (the caller is logged in). */
export function logKanbanEvent(input: { itemId: number; eventType: string }): never {
  if (!(input.itemId > 0)) throw new ApiError(10101, 'Item ID is required');
  if (!EVENT_TYPES.has(input.eventType)) throw new ApiError(10101, 'Invalid event type');
  throw new ApiError(10303, NOT_KANBAN);
}

/** kanban/getActivity and kanban/exportActivity. */
export function kanbanActivity(itemId: number): never {
  if (!(itemId > 0)) throw new ApiError(10101, 'Item ID is required');
  throw new ApiError(10303, NOT_KANBAN);
}
