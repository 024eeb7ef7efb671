/** `page/sort`: the order of an item's pages in its menu. */
import { pageVisible, requireAction, type Actor } from '../access';
import { errors, events } from '../platform';
import { Page } from './schemas/page';

/** Entries accepted by one `page/sort` call. */
export const MAX_SORT_ENTRIES = 5000;

/**
 * page/sort: sets `s_number` of pages of the item (edit access). Ids of other items, deleted pages
 * and pages the actor may not see are skipped, exactly like ids that do not exist.
 */
export async function sortPages(
  actor: Actor,
  itemId: number,
  orders: Map<number, number>,
): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const access = await requireAction(actor, 'page.update', itemId);
  if (orders.size > MAX_SORT_ENTRIES)
    throw errors.failed(`At most ${MAX_SORT_ENTRIES} pages per call`);
  if (!orders.size) return;
  const pages = await Page.find(
    { page_id: { $in: [...orders.keys()] }, item_id: itemId, is_del: 0 },
    { page_id: 1, cat_id: 1, is_draft: 1, author_uid: 1, s_number: 1, _id: 0 },
  ).lean();
  let changed = false;
  for (const page of pages) {
    const order = orders.get(page.page_id) as number;
    if (order === page.s_number || !(await pageVisible(actor, access, page))) continue;
    await Page.updateOne({ page_id: page.page_id, item_id: itemId }, { $set: { s_number: order } });
    changed = true;
  }
  if (changed) events.publish('menu.changed', { itemId, byUid: actor.uid });
}
