/**
 * The item list's "N pages changed": for every item the user has read markers in, how many of
 * the pages they may see changed since they read them. Asked by the item list after it has shown
 * (read/itemCounts), so `item/myList` itself costs no more than it did.
 */
import { itemAccess, permits, type Actor } from '../access';
import { errors } from '../platform';
import { changedPageCount } from './markers';
import { PageRead, type PageReadDoc } from './schemas';

export async function changedCountsByItem(
  actor: Actor,
): Promise<Array<{ item_id: number; changed_pages: number }>> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const docs = await PageRead.find({ uid: actor.uid }, { _id: 0 }).lean<PageReadDoc[]>();
  const counts = await Promise.all(
    docs.map(async (doc) => {
      const access = await itemAccess(actor, doc.item_id);
      // Items left or deleted since: nothing to count.
      if (!access || !permits(access, 'item.read')) return null;
      return { item_id: doc.item_id, changed_pages: await changedPageCount(actor, access, doc) };
    }),
  );
  return counts
    .filter((c): c is { item_id: number; changed_pages: number } => !!c && c.changed_pages > 0)
    .sort((a, b) => a.item_id - b.item_id);
}
