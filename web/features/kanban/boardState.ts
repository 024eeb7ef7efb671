/**
 * The board a screen shows: the stored board (lists and order, with its version) and the cards.
 * Pushes (`kanban:changed`) carry the board after each stored change: a board replaces the shown
 * one when its version is higher, so late or repeated pushes never roll a board back and every
 * screen ends on the stored board. A local drag is shown at once (`moveLocally`) and replaced by
 * the push of the stored move.
 */
import type { KanbanChangedPayload } from '../../../realtime/socketEvents';
import type { KanbanBoard, KanbanCard } from './api';

export interface BoardState {
  board: KanbanBoard;
  cards: Record<number, KanbanCard>;
}

export function initialState(board: KanbanBoard, cards: KanbanCard[]): BoardState {
  return { board, cards: Object.fromEntries(cards.map((c) => [c.page_id, c])) };
}

export function applyChange(state: BoardState, change: KanbanChangedPayload): BoardState {
  let { board, cards } = state;
  if (change.board && change.version > board.meta.version) board = change.board;
  if (change.cards.length || change.removed.length) {
    cards = { ...cards };
    for (const card of change.cards) {
      const known = cards[card.page_id];
      if (!known || card.updated_at >= known.updated_at) cards[card.page_id] = card;
    }
    for (const id of change.removed) delete cards[id];
  }
  return board === state.board && cards === state.cards ? state : { board, cards };
}

/** Where a card is: its list and position (null when the board does not show it). */
export function placeOf(
  board: KanbanBoard,
  pageId: number,
): { listId: string; index: number } | null {
  const id = String(pageId);
  for (const list of board.lists) {
    const index = (board.tasks_order[list.id] ?? []).indexOf(id);
    if (index >= 0) return { listId: list.id, index };
  }
  return null;
}

/** The move shown before the server answers (same version: the stored move's push replaces it). */
export function moveLocally(
  state: BoardState,
  pageId: number,
  listId: string,
  index: number,
): BoardState {
  const id = String(pageId);
  const order: Record<string, string[]> = {};
  for (const [key, ids] of Object.entries(state.board.tasks_order))
    order[key] = ids.filter((x) => x !== id);
  const target = [...(order[listId] ?? [])];
  target.splice(Math.max(0, Math.min(index, target.length)), 0, id);
  order[listId] = target;
  const card = state.cards[pageId];
  return {
    board: { ...state.board, tasks_order: order },
    cards: card ? { ...state.cards, [pageId]: { ...card, list_id: listId } } : state.cards,
  };
}

export interface CardFilter {
  assignee: string;
  tag: string;
  text: string;
}

export function cardMatches(card: KanbanCard, filter: CardFilter): boolean {
  if (
    filter.assignee === 'none'
      ? !!card.assignee_uid
      : filter.assignee && card.assignee_uid !== filter.assignee
  )
    return false;
  if (filter.tag && !card.tags.some((t) => t.text === filter.tag)) return false;
  const text = filter.text.trim().toLowerCase();
  if (
    text &&
    !card.page_title.toLowerCase().includes(text) &&
    !card.description.toLowerCase().includes(text)
  )
    return false;
  return true;
}
