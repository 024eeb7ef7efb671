/**
 * The item change log (`item_change_log`, reference accounts §7 / pages §1.7): who created,
 * changed, removed, bound or exported what in an item. Writers call `logChange` after their own
 * write succeeded; the newest MAX_ROWS rows per item are kept. Anonymous writes (uid ≤ 0, e.g. the
 * open API) are not logged, as in ShowDoc.
 *
 * The trim runs with one row in LOG_TRIM_EVERY (those whose id is a multiple of it), not with
 * every row: a page save then skips the trim's query and delete (two of its ~11 engine commands)
 * fifteen times in sixteen. Between trims an item holds a few rows more than MAX_ROWS; readers
 * see only the newest MAX_ROWS, as before.
 */
import { nextId, formatNow } from '../platform';
import { User } from '../accounts';
import {
  ItemChangeLog,
  type ChangeAction,
  type ChangeObject,
  type ItemChangeLogDoc,
} from './schemas/itemChangeLog';

export const MAX_ROWS = 300;
/** One row id in this many trims its item's log (see the file comment). */
export const LOG_TRIM_EVERY = 16;
export const MAX_PAGE_SIZE = 100;

export interface ChangeEntry {
  uid: number;
  itemId: number;
  action: ChangeAction;
  object: ChangeObject;
  objectId?: number;
  objectName?: string;
  remark?: string;
}

/** A log row's id and, when it is a trimming row, the newest id its trim drops. */
export interface PlannedLogRow {
  id: number;
  dropUpTo: number | null;
}

/**
 * Allocates the next row's id and, for a trimming row (LOG_TRIM_EVERY), finds its trim's bound:
 * what a writer runs while its own write is under way (the page save).
 */
export async function planLogRow(itemId: number): Promise<PlannedLogRow> {
  // The id's step need not be on disk first: the row's own (journaled) insert carries it there.
  const id = await nextId('item_change_log_id', { journal: false });
  return { id, dropUpTo: trims(id) ? await logRowsToDrop(itemId) : null };
}

function trims(id: number): boolean {
  return id % LOG_TRIM_EVERY === 0;
}

/**
 * Appends one row and, for a trimming row, trims the item's log to the newest MAX_ROWS. The
 * insert and the trim's delete run side by side, so they share one journal flush. A caller may
 * come with the row planned already (`planLogRow`, done while its own write ran).
 */
export async function logChange(entry: ChangeEntry, planned?: PlannedLogRow): Promise<void> {
  if (!(entry.uid > 0) || !(entry.itemId > 0)) return;
  const id = planned?.id ?? (await nextId('item_change_log_id'));
  await Promise.all([
    // Lean: the row is complete as built here (no document, no validation round).
    ItemChangeLog.insertMany(
      [
        {
          id,
          uid: entry.uid,
          item_id: entry.itemId,
          op_action_type: entry.action,
          op_object_type: entry.object,
          op_object_id: entry.objectId ?? 0,
          op_object_name: (entry.objectName ?? '').slice(0, 500),
          remark: (entry.remark ?? '').slice(0, 1000),
          optime: formatNow(),
        },
      ],
      { lean: true },
    ),
    (planned
      ? Promise.resolve(planned.dropUpTo)
      : trims(id)
        ? logRowsToDrop(entry.itemId, id)
        : Promise.resolve(null)
    ).then((upTo) =>
      upTo === null
        ? undefined
        : ItemChangeLog.deleteMany({ item_id: entry.itemId, id: { $lte: upTo } }),
    ),
  ]);
}

/**
 * The newest log row id to drop when the item gets one more row (null: none), counting the rows
 * older than `below` (the new row's id, when it may already be in) or all of them. Concurrent
 * writers may each miss the other's row; the next insert's trim catches up.
 */
async function logRowsToDrop(itemId: number, below?: number): Promise<number | null> {
  const cutoff = await ItemChangeLog.findOne(
    below === undefined ? { item_id: itemId } : { item_id: itemId, id: { $lt: below } },
    { id: 1, _id: 0 },
  )
    .sort({ id: -1 })
    .skip(MAX_ROWS - 1)
    .lean();
  return cutoff?.id ?? null;
}

/** ShowDoc's Chinese labels (its client shows them for zh-cn, the raw codes otherwise). */
const ACTION_LABELS: Record<string, string> = {
  create: '创建',
  update: '修改',
  delete: '删除',
  export: '导出',
  binding: '绑定',
  unbound: '解绑',
  drag: '拖曳修改',
};
const OBJECT_LABELS: Record<string, string> = {
  page: '页面(或接口)',
  catalog: '目录',
  item: '项目',
  team: '团队',
  member: '成员',
  tree: '目录树',
};

export interface ChangeLogRow {
  id: string;
  uid: string;
  item_id: string;
  op_action_type: string;
  op_object_type: string;
  op_object_id: number;
  op_object_name: string;
  remark: string;
  optime: string;
  username: string;
  name: string;
  oper: string;
  op_action_type_desc: string;
  op_object_type_desc: string;
}

/**
 * One page of an item's log, newest first, with the actor's names and the labels. `visible`
 * filters rows before paging (the log is capped at MAX_ROWS per item, so it is read whole): the
 * caller decides which pages and catalogs the reader may know about (models/itemView/visibleChangeLog.ts).
 */
export async function listChangeLog(
  itemId: number,
  page: number,
  count: number,
  visible: (rows: ItemChangeLogDoc[]) => Promise<ItemChangeLogDoc[]> = async (rows) => rows,
): Promise<{ total: number; list: ChangeLogRow[] }> {
  const size = Math.min(Math.max(count, 1), MAX_PAGE_SIZE);
  const skip = (Math.max(page, 1) - 1) * size;
  const all = await visible(
    await ItemChangeLog.find({ item_id: itemId }, { _id: 0 })
      .sort({ id: -1 })
      .limit(MAX_ROWS) // rows past it wait for the next trim
      .lean<ItemChangeLogDoc[]>(),
  );
  const total = all.length;
  const rows = all.slice(skip, skip + size);
  const uids = [...new Set(rows.map((r) => r.uid))];
  const users = await User.find(
    { uid: { $in: uids } },
    { uid: 1, username: 1, name: 1, _id: 0 },
  ).lean();
  const byUid = new Map(users.map((u) => [u.uid, u]));
  const list = rows.map((row) => {
    const user = byUid.get(row.uid);
    const username = user?.username ?? '';
    const name = user?.name ?? '';
    return {
      id: String(row.id),
      uid: String(row.uid),
      item_id: String(row.item_id),
      op_action_type: row.op_action_type,
      op_object_type: row.op_object_type,
      op_object_id: row.op_object_id,
      op_object_name: row.op_object_name,
      remark: row.remark,
      optime: row.optime,
      username,
      name,
      oper: name ? `${username}(${name})` : username,
      op_action_type_desc: ACTION_LABELS[row.op_action_type] ?? '未定义',
      op_object_type_desc: OBJECT_LABELS[row.op_object_type] ?? '未定义',
    };
  });
  return { total, list };
}
