/**
 * A kanban item's board: finding it with the actor's rights, reading its cards, and THE write
 * path every board change takes (REST, MCP, the web's drags).
 *
 * Rights are the page rights of the board's item: readers see the board, editors change it
 * (moves, tasks, lists); the board page's catalog applies to restricted members, and tasks are
 * created in the board's catalog, so they follow it.
 *
 * Concurrency: a board write reads the board page, changes it and stores it while it holds the
 * board — a queue per board in this process and a short lease row in the database across
 * processes — so two moves at once apply one after the other, each on the other's result, and
 * never overwrite each other. Each write bumps `meta.version` and publishes `kanban.changed` with
 * the board after it; open boards (realtime fans it out to the board page's room) keep the highest
 * version they have seen, so every screen converges on the stored board.
 */
import { randomUUID } from 'node:crypto';
import {
  type AccessOptions,
  type Actor,
  findLiveItem,
  type ItemAccess,
  requireAction,
} from '../access';
import {
  findLivePages,
  Page,
  type PageDoc,
  pageVisible,
  type SaveAgent,
  savePageStaged,
  type StagedSave,
} from '../pages';
import {
  errors,
  events,
  type KanbanCardShape,
  nextId,
  nowSeconds,
  perContext,
  UNJOURNALED,
} from '../platform';
import {
  BOARD_TITLE,
  boardTaskIds,
  defaultBoard,
  KANBAN_ITEM,
  type KanbanBoardData,
  parseBoard,
  parseTask,
} from './format';
import { KanbanBoardLock } from './schemas';

export type BoardLevel = 'read' | 'edit' | 'manage';
const ACTIONS = { read: 'item.read', edit: 'page.update', manage: 'item.manage' } as const;

export const NOT_KANBAN = 'Item not found or not a kanban item';
export const NO_BOARD = 'Kanban board not found';

export interface OpenBoard {
  access: ItemAccess;
  page: PageDoc;
  board: KanbanBoardData;
}

export interface BoardOptions extends AccessOptions {
  /** An AI agent writing through an MCP token (named in the history and presence). */
  agent?: SaveAgent;
}

/** The board page of a kanban item (the oldest, should a copy have made two). */
export function findBoardPage(itemId: number): Promise<PageDoc | null> {
  return Page.findOne({ item_id: itemId, page_title: BOARD_TITLE, is_del: 0 }, { _id: 0 })
    .sort({ page_id: 1 })
    .lean<PageDoc>()
    .exec();
}

/** Whether the item is a kanban item (no rights checked: the ShowDoc order of answers). */
export async function requireKanbanItem(itemId: number): Promise<void> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  const item = await findLiveItem(itemId);
  if (!item || item.item_type !== KANBAN_ITEM) throw errors.noEditPermission(NOT_KANBAN);
}

/**
 * A kanban item's board page, made on first use with three empty lists (an item created by
 * item/add, or a ShowDoc item whose board page was lost). The caller holds the board.
 */
async function createBoardPage(itemId: number): Promise<PageDoc | null> {
  const item = await findLiveItem(itemId);
  if (!item) return null;
  const now = nowSeconds();
  await Page.create({
    page_id: await nextId('page_id'),
    item_id: itemId,
    cat_id: 0,
    page_title: BOARD_TITLE,
    page_content: JSON.stringify(defaultBoard(['To do', 'In progress', 'Done'])),
    addtime: now,
    page_addtime: now,
    author_uid: item.uid,
    author_username: item.username,
  });
  return findBoardPage(itemId);
}

/** The board page, read fresh, made if missing. The caller holds the board. */
async function heldBoardPage(itemId: number): Promise<PageDoc | null> {
  return (await findBoardPage(itemId)) ?? createBoardPage(itemId);
}

/** The board page, made first if the item has none (taking the board to make it). */
async function ensureBoardPage(itemId: number): Promise<PageDoc | null> {
  return (await findBoardPage(itemId)) ?? serialised(itemId, () => heldBoardPage(itemId));
}

/** The item's board for an actor with `level` rights (read straight from the database). */
export async function openBoard(
  actor: Actor,
  itemId: number,
  level: BoardLevel,
  options: AccessOptions & { holding?: boolean } = {},
): Promise<OpenBoard> {
  await requireKanbanItem(itemId);
  const access = await requireAction(actor, ACTIONS[level], itemId, options);
  const page = await (options.holding ? heldBoardPage(itemId) : ensureBoardPage(itemId));
  if (!page || !(await pageVisible(actor, access, page))) throw errors.failed(NO_BOARD);
  const board = parseBoard(page.page_content);
  if (!board) throw errors.failed('The board data could not be read');
  return { access, page, board };
}

/** A task page as the card a board shows (null when the page holds no task). */
export function cardOf(page: PageDoc): KanbanCardShape | null {
  const task = parseTask(page.page_content);
  if (!task) return null;
  return {
    page_id: page.page_id,
    page_title: page.page_title,
    list_id: task.list_id,
    description: task.description,
    assignee_uid: task.assignee_uid,
    assignee_username: task.assignee_username,
    creator_uid: String(task.creator_uid ?? ''),
    creator_username: task.creator_username,
    due_date: task.due_date,
    tags: task.tags,
    priority: task.priority,
    linked_pages: task.linked_pages,
    completed: task.completed,
    updated_at: Number(task.updated_at) || page.addtime || 0,
  };
}

/** The cards of every task the board names that the actor may see. */
export async function boardCards(
  actor: Actor,
  open: Pick<OpenBoard, 'access' | 'board'>,
): Promise<KanbanCardShape[]> {
  const pages = await findLivePages(boardTaskIds(open.board));
  const cards: KanbanCardShape[] = [];
  for (const page of pages) {
    if (page.item_id !== open.access.item.item_id) continue;
    if (!(await pageVisible(actor, open.access, page))) continue;
    const card = cardOf(page);
    if (card) cards.push(card);
  }
  return cards.sort((a, b) => a.page_id - b.page_id);
}

// ------------------------------------------------------------------------------------------------
// Serialising writes to one board

/** How long a lease holds when its holder does not release it (a crashed process). */
const LEASE_MS = 10_000;
/** Waiting for another process's lease gives up after about this long. */
const LEASE_WAIT_MS = 15_000;

/** Board writes waiting in this process, per board (in the process's context, as all state). */
const queuesOf = perContext(() => new Map<number, Promise<void>>());

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

/**
 * The lease's writes (taking it here, releasing it in `serialised`) do not wait for the journal
 * (platform/writeConcerns.ts): a lease only has to hold while its holder lives, and a crash ends
 * both (the board write it guarded is journaled after it, so a stored write implies a stored lease).
 */
async function acquireLease(itemId: number): Promise<string> {
  const holder = randomUUID();
  const started = Date.now();
  for (;;) {
    const now = Date.now();
    try {
      // Matches a free or expired lease; a held one makes the upsert collide with its row.
      await KanbanBoardLock.updateOne(
        { item_id: itemId, until: { $lt: now } },
        { $set: { holder, until: now + LEASE_MS } },
        { upsert: true, ...UNJOURNALED },
      );
      return holder;
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
    }
    if (Date.now() - started > LEASE_WAIT_MS)
      throw errors.failed('The board is busy, please try again');
    await new Promise((resolve) => setTimeout(resolve, 5 + Math.random() * 20));
  }
}

/**
 * Runs `work` while holding the board: one write per board at a time, across processes. The
 * answer does not wait for the lease to be let go: the next write here waits for it in this
 * process's queue, and one in another process finds it gone or retries.
 */
export async function serialised<T>(itemId: number, work: () => Promise<T>): Promise<T> {
  const queues = queuesOf();
  const before = queues.get(itemId) ?? Promise.resolve();
  let done!: () => void;
  const mine = new Promise<void>((resolve) => (done = resolve));
  const tail = before.then(() => mine);
  queues.set(itemId, tail);
  const letGo = () => {
    done();
    if (queues.get(itemId) === tail) queues.delete(itemId);
  };
  let holder: string;
  try {
    await before;
    holder = await acquireLease(itemId);
  } catch (error) {
    letGo();
    throw error;
  }
  try {
    return await work();
  } finally {
    KanbanBoardLock.deleteOne({ item_id: itemId, holder }, UNJOURNALED).then(letGo, letGo);
  }
}

/** Waits for every write to settle, then throws the first failure: none is left running unwatched. */
export async function settleAll(writes: Array<Promise<unknown> | null>): Promise<void> {
  for (const outcome of await Promise.allSettled(writes))
    if (outcome.status === 'rejected') throw outcome.reason;
}

export interface BoardChange<T> {
  result: T;
  /** false: only tasks changed, the board page is not written. */
  boardChanged: boolean;
  /** Filled by the time `stored` (or, without it, `alongside`) settles. */
  cards?: KanbanCardShape[];
  removed?: number[];
  /** Writes of the change that may run while the board page is stored (they touch other rows). */
  alongside?: Promise<unknown>;
  /**
   * Settles once the rows the push shows (the task pages in `cards`) are on disk, before the rest
   * of `alongside` (their versions, the log). Without it the push waits for `alongside`.
   */
  stored?: Promise<unknown>;
}

/**
 * Stores `board` (edited in place) as the board page's next version — the board's version moves
 * on by one — through the page save, so history, search and the change log see it. The caller
 * holds the board (`serialised`). `stored` resolves once the board row is on disk.
 */
export function storeNextVersion(
  actor: Actor,
  page: PageDoc,
  board: KanbanBoardData,
  agent?: SaveAgent,
): StagedSave {
  board.meta = { ...board.meta, version: board.meta.version + 1, last_updated: nowSeconds() };
  return savePageStaged(
    actor,
    {
      pageId: page.page_id,
      itemId: page.item_id,
      title: BOARD_TITLE,
      content: JSON.stringify(board),
      catId: page.cat_id,
    },
    { origin: 'kanban', ...(agent ? { agent } : {}) },
  );
}

/**
 * THE board write: holds the board, reads it fresh, lets `change` edit `open.board` in place (and
 * write task pages), stores the board with the next version and publishes `kanban.changed`.
 *
 * The push goes out as soon as the board row and the change's task rows are on disk — what every
 * watcher then shows is stored — while their versions and the log are still being written; the
 * answer waits for all of it.
 */
export async function changeBoard<T>(
  actor: Actor,
  itemId: number,
  level: BoardLevel,
  change: (open: OpenBoard) => Promise<BoardChange<T>>,
  options: BoardOptions = {},
): Promise<T> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  await requireKanbanItem(itemId);
  return serialised(itemId, async () => {
    const open = await openBoard(actor, itemId, level, { ...options, holding: true });
    const out = await change(open);
    const { board, page } = open;
    const save = out.boardChanged ? storeNextVersion(actor, page, board, options.agent) : null;
    // The board page and the change's other writes (a moved task's page, the log) go together;
    // both finish, whatever happens to one, before the board is let go.
    const written = settleAll([save?.saved ?? null, out.alongside ?? null]);
    written.catch(() => undefined); // awaited below, after the push
    const rows = await Promise.allSettled([save?.stored, out.stored ?? out.alongside]);
    if (rows.every((row) => row.status === 'fulfilled'))
      events.publish('kanban.changed', {
        itemId,
        boardPageId: page.page_id,
        byUid: actor.uid,
        version: board.meta.version,
        board: out.boardChanged ? board : null,
        cards: out.cards ?? [],
        removed: out.removed ?? [],
      });
    await written;
    return out.result;
  });
}
