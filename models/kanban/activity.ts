/**
 * The board's activity log (ShowDoc's `kanban_activity_log` and `kanban/logEvent|getActivity|
 * exportActivity`). Quire's own board writes log their events themselves; `kanban/logEvent`
 * stays for ShowDoc's web client, which logs what it did after saving the board.
 */
import { type Actor, requireAction } from '../access';
import { User } from '../accounts';
import { errors, nextId, nowSeconds } from '../platform';
import { requireKanbanItem } from './boards';
import { type KanbanActivityDoc, KanbanActivity } from './schemas';

export const EVENT_TYPES = [
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
] as const;
export type KanbanEventType = (typeof EVENT_TYPES)[number];

/** ShowDoc's labels in its CSV export (kept as ShowDoc writes them). */
const EVENT_LABELS: Record<string, string> = {
  task_created: '创建任务',
  task_completed: '完成任务',
  task_uncompleted: '取消完成',
  task_moved: '移动任务',
  task_deleted: '删除任务',
  task_updated: '更新任务',
  list_created: '创建列表',
  list_updated: '更新列表',
  list_deleted: '删除列表',
  list_archived: '归档列表',
  list_restored: '恢复列表',
};

const MAX_EVENT_DATA = 10_000;
/** Rows one export writes at most. */
const MAX_EXPORT_ROWS = 50_000;

export async function logActivity(
  itemId: number,
  pageId: number,
  eventType: KanbanEventType,
  data: Record<string, unknown>,
  operatorUid: number,
): Promise<void> {
  await KanbanActivity.create({
    // The row's own journaled insert carries the counter's step to disk (platform/writeConcerns.ts).
    id: await nextId('kanban_activity_id', { journal: false }),
    item_id: itemId,
    page_id: pageId,
    event_type: eventType,
    event_data: JSON.stringify(data),
    operator_uid: operatorUid,
    addtime: nowSeconds(),
  });
}

function readEventData(raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      return {};
    }
  }
  return value && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** kanban/logEvent: a logged-in visitor of the kanban item records an event. */
export async function logKanbanEvent(
  actor: Actor,
  input: { itemId: number; pageId: number; eventType: string; eventData: unknown },
  options: { itemPassword?: string } = {},
): Promise<void> {
  if (!(input.itemId > 0)) throw errors.failed('Item ID is required');
  if (!(EVENT_TYPES as readonly string[]).includes(input.eventType))
    throw errors.failed('Invalid event type');
  await requireKanbanItem(input.itemId);
  await requireAction(actor, 'item.read', input.itemId, options).catch(() => {
    throw errors.noEditPermission('No permission to visit this item');
  });
  const data = readEventData(input.eventData);
  if (JSON.stringify(data).length > MAX_EVENT_DATA) throw errors.failed('event_data is too large');
  await logActivity(
    input.itemId,
    Math.max(0, input.pageId),
    input.eventType as KanbanEventType,
    data,
    actor.uid,
  );
}

export interface ActivityQuery {
  itemId: number;
  /** A JSON array, a list, or one type ('' = all). */
  eventTypes?: unknown;
  startTime?: number;
  endTime?: number;
  page?: number;
  pageSize?: number;
}

export interface ActivityRow {
  id: number;
  item_id: number;
  page_id: number;
  event_type: string;
  event_data: Record<string, unknown>;
  operator_uid: number;
  operator_username: string;
  addtime: number;
}

function readTypes(raw: unknown): string[] {
  let value = raw;
  if (typeof raw === 'string') {
    if (raw === '') return [];
    try {
      value = JSON.parse(raw);
    } catch {
      return [raw];
    }
  }
  if (Array.isArray(value)) return value.filter((t): t is string => typeof t === 'string');
  return typeof value === 'string' && value ? [value] : [];
}

function filterOf(query: ActivityQuery): Record<string, unknown> {
  const filter: Record<string, unknown> = { item_id: query.itemId };
  const types = readTypes(query.eventTypes);
  if (types.length) filter.event_type = { $in: types };
  const time: Record<string, number> = {};
  if ((query.startTime ?? 0) > 0) time.$gte = query.startTime!;
  if ((query.endTime ?? 0) > 0) time.$lte = query.endTime!;
  if (Object.keys(time).length) filter.addtime = time;
  return filter;
}

async function rowsOf(logs: KanbanActivityDoc[]): Promise<ActivityRow[]> {
  const uids = [...new Set(logs.map((l) => l.operator_uid).filter((uid) => uid > 0))];
  const users = await User.find({ uid: { $in: uids } }, { uid: 1, username: 1, _id: 0 }).lean();
  const names = new Map(users.map((u) => [u.uid, u.username]));
  return logs.map((log) => ({
    id: log.id,
    item_id: log.item_id,
    page_id: log.page_id,
    event_type: log.event_type,
    event_data: readEventData(log.event_data),
    operator_uid: log.operator_uid,
    operator_username: names.get(log.operator_uid) ?? '',
    addtime: log.addtime,
  }));
}

async function requireReader(actor: Actor, itemId: number, itemPassword?: string): Promise<void> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  await requireKanbanItem(itemId);
  await requireAction(actor, 'item.read', itemId, { itemPassword }).catch(() => {
    throw errors.noEditPermission('No permission to visit this item');
  });
}

/** kanban/getActivity (and the MCP tool): newest first, a page at a time. */
export async function kanbanActivity(
  actor: Actor,
  query: ActivityQuery,
  options: { itemPassword?: string; checked?: boolean } = {},
): Promise<{
  item_id: number;
  activities: ActivityRow[];
  total: number;
  page: number;
  page_size: number;
}> {
  if (!options.checked) await requireReader(actor, query.itemId, options.itemPassword);
  const page = Math.max(1, Math.trunc(query.page ?? 1) || 1);
  const pageSize = Math.min(100, Math.max(1, Math.trunc(query.pageSize ?? 50) || 50));
  const filter = filterOf(query);
  const [total, logs] = await Promise.all([
    KanbanActivity.countDocuments(filter),
    KanbanActivity.find(filter, { _id: 0 })
      .sort({ addtime: -1, id: -1 })
      .skip((page - 1) * pageSize)
      .limit(pageSize)
      .lean<KanbanActivityDoc[]>(),
  ]);
  return {
    item_id: query.itemId,
    activities: await rowsOf(logs),
    total,
    page,
    page_size: pageSize,
  };
}

function csvCell(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

function localTime(seconds: number): string {
  const d = new Date(seconds * 1000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

/** kanban/exportActivity: the filtered log as ShowDoc's CSV (BOM, its columns and labels). */
export async function exportKanbanActivity(
  actor: Actor,
  query: ActivityQuery,
  options: { itemPassword?: string } = {},
): Promise<{ fileName: string; csv: string }> {
  await requireReader(actor, query.itemId, options.itemPassword);
  const logs = await KanbanActivity.find(filterOf(query), { _id: 0 })
    .sort({ addtime: -1, id: -1 })
    .limit(MAX_EXPORT_ROWS)
    .lean<KanbanActivityDoc[]>();
  const rows = await rowsOf(logs);
  const lines = [['操作者', '操作', '对象', '详情', '时间']];
  for (const row of rows) {
    const data = row.event_data;
    const title = typeof data.title === 'string' ? data.title : '';
    const from = typeof data.from_list_title === 'string' ? data.from_list_title : '';
    const to = typeof data.to_list_title === 'string' ? data.to_list_title : '';
    lines.push([
      row.operator_username,
      EVENT_LABELS[row.event_type] ?? row.event_type,
      title,
      from && to ? `${from} → ${to}` : '',
      localTime(row.addtime),
    ]);
  }
  const csv = '\uFEFF' + lines.map((cells) => cells.map(csvCell).join(',')).join('\n') + '\n';
  return { fileName: `kanban_activity_${query.itemId}.csv`, csv };
}
