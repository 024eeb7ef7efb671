/**
 * The item list with each item's "N pages changed" (`changed_pages`, only when some did): counted
 * on the menu the user is given, for the items they have read markers in (one query finds them;
 * items never read cost nothing more).
 */
import { itemAccess, type Actor } from '../access';
import { myItemList, type MyListEntry } from '../items';
import { changedPageCount } from './markers';
import { PageRead, type PageReadDoc } from './schemas';

export async function myItemListWithChanges(
  actor: Actor,
  options: { itemGroupId: number; original: boolean },
): Promise<Array<MyListEntry & { changed_pages?: number }>> {
  const list: Array<MyListEntry & { changed_pages?: number }> = await myItemList(actor, options);
  if (!list.length) return list;
  const tracked = await PageRead.find(
    { uid: actor.uid, item_id: { $in: list.map((e) => Number(e.item_id)) } },
    { _id: 0 },
  ).lean<PageReadDoc[]>();
  if (!tracked.length) return list;
  const counts = new Map<number, number>();
  await Promise.all(
    tracked.map(async (doc) => {
      const access = await itemAccess(actor, doc.item_id);
      if (access?.visit) counts.set(doc.item_id, await changedPageCount(actor, access, doc));
    }),
  );
  for (const entry of list) {
    const count = counts.get(Number(entry.item_id)) ?? 0;
    if (count > 0) entry.changed_pages = count;
  }
  return list;
}
