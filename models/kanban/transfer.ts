/**
 * Boards through imports: a ShowDoc export names its task pages by ShowDoc's page ids, which an
 * import replaces with new ones, so the imported board's order is rewritten with the new ids.
 */
import type { Actor } from '../access';
import { savePage } from '../pages';
import { BOARD_TITLE, parseBoard } from './format';
import { findBoardPage } from './boards';

/** Rewrites the board's task ids (old id → new page id); ids not imported are dropped. */
export async function remapImportedBoard(
  actor: Actor,
  itemId: number,
  newIds: Map<string, number>,
): Promise<void> {
  const page = await findBoardPage(itemId);
  const board = page && parseBoard(page.page_content);
  if (!page || !board) return;
  const remap = (order: Record<string, string[]>) => {
    for (const listId of Object.keys(order))
      order[listId] = order[listId]
        .map((id) => newIds.get(id))
        .filter((id): id is number => id !== undefined)
        .map(String);
  };
  remap(board.tasks_order);
  remap(board.archived_tasks_order);
  await savePage(
    actor,
    { pageId: page.page_id, itemId, title: BOARD_TITLE, content: JSON.stringify(board) },
    { origin: 'import' },
  );
}
