/**
 * Board and task pages saved outside the board operations — ShowDoc's own web client saves the
 * whole board page (and each task page) with `page/save` — still reach everyone watching the
 * board live, as a board operation's change does (`kanban.changed`).
 *
 * ShowDoc's client sends the board with the version it loaded and counts on the server to move
 * it on (it takes `version + 1` as the stored one after a save), and Quire's boards keep only a
 * higher version than they show: so a board saved that way is stored once more, in the board's
 * queue, with the next version, and that board is pushed. A task page saved that way is pushed as
 * its card.
 */
import { findLiveItem, type Actor } from '../access';
import { actorRowsOf } from '../accounts';
import { findLivePages } from '../pages';
import { events, type DomainEvents } from '../platform';
import { cardOf, findBoardPage, serialised, storeNextVersion } from './boards';
import { BOARD_TITLE, KANBAN_ITEM, parseBoard } from './format';

/** Saves made by the board operations themselves (and imports, which remap a whole board). */
const OWN_ORIGINS = new Set(['kanban', 'import']);

async function isKanbanItem(itemId: number): Promise<boolean> {
  const item = await findLiveItem(itemId);
  return !!item && item.item_type === KANBAN_ITEM;
}

async function relayBoard(itemId: number, byUid: number): Promise<void> {
  const [row] = await actorRowsOf([byUid]);
  if (!row) return;
  const actor: Actor = { uid: row.uid, username: row.username, groupid: row.groupid };
  await serialised(itemId, async () => {
    const page = await findBoardPage(itemId);
    const board = page && parseBoard(page.page_content);
    if (!page || !board) return;
    await storeNextVersion(actor, page, board).saved;
    events.publish('kanban.changed', {
      itemId,
      boardPageId: page.page_id,
      byUid,
      version: board.meta.version,
      board,
      cards: [],
      removed: [],
    });
  });
}

async function relayTask(itemId: number, pageId: number, byUid: number): Promise<void> {
  const [page] = await findLivePages([pageId]);
  const card = page && page.item_id === itemId && !page.is_del ? cardOf(page) : null;
  if (!card) return;
  const boardPage = await findBoardPage(itemId);
  const board = boardPage && parseBoard(boardPage.page_content);
  if (!boardPage || !board) return;
  events.publish('kanban.changed', {
    itemId,
    boardPageId: boardPage.page_id,
    byUid,
    version: board.meta.version,
    board: null,
    cards: [card],
    removed: [],
  });
}

async function relay(saved: DomainEvents['page.saved']): Promise<void> {
  if (OWN_ORIGINS.has(saved.origin)) return;
  // Most saves are of pages in other kinds of item: the item (kept in memory) says so first.
  if (!(await isKanbanItem(saved.itemId))) return;
  const [page] = await findLivePages([saved.pageId]);
  if (!page || page.is_del || page.item_id !== saved.itemId) return;
  const isBoard = page.page_title === BOARD_TITLE;
  if (!isBoard && !cardOf(page)) return;
  if (isBoard) await relayBoard(saved.itemId, saved.byUid);
  else await relayTask(saved.itemId, saved.pageId, saved.byUid);
}

export function startKanbanRelay(options: { onError?: (error: unknown) => void } = {}): () => void {
  return events.subscribe(
    'page.saved',
    async (saved) => {
      try {
        await relay(saved);
      } catch (error) {
        options.onError?.(error);
      }
    },
    { localOnly: true },
  );
}
