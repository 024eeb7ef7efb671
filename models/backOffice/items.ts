/**
 * The back office's item list and the permanent delete of an item (`adminItem/getList`,
 * `adminItem/hardDeleteItem`, reference accounts §9.22): they span the domains an item's data
 * lives in, so they are composed here, above them, from each domain's face.
 */
import { requireSiteAdmin, type Actor } from '../access';
import { purgeItemCatalogs } from '../catalogs';
import { purgeItemComments } from '../comments';
import { announcePurgedFiles, purgeItemFiles, removePurgedBytes } from '../files';
import {
  adminItemMatch,
  adminItemRow,
  type AdminItemFilter,
  type AdminItemRow,
  purgeItemRecord,
  requirePurgeableItem,
} from '../items';
import { memberCountsOf, purgeItemMembers } from '../members';
import { purgeItemMocks } from '../mocks';
import { purgePageSubscriptions } from '../notices';
import { pageIdsOfItem, purgeItemPages } from '../pages';
import { connection, errors, events } from '../platform';
import { purgeItemReadMarkers } from '../readMarkers';
import { purgeItemTemplateShares } from '../templates';

/** adminItem/getList: newest first, with each item's member count. */
export async function listAllItems(
  actor: Actor,
  filter: AdminItemFilter,
  paging: { page: number; count: number },
): Promise<{ total: number; items: AdminItemRow[] }> {
  const { total, items } = await adminItemMatch(actor, filter, paging);
  const counts = await memberCountsOf(items.map((item) => item.item_id));
  return { total, items: items.map((item) => adminItemRow(item, counts.get(item.item_id) ?? 0)) };
}

/**
 * `adminItem/hardDeleteItem`: removes an item that is already in the admin recycle bin for good,
 * with everything it owns, as ShowDoc's `Item::deleteItem` did. Every row goes in one
 * transaction, so a crash never leaves pages of an item that is gone; file bytes (not
 * transactional) and the domain events follow the commit.
 */
export async function adminHardDeleteItem(actor: Actor, itemId: number): Promise<void> {
  requireSiteAdmin(actor);
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id');
  const purged = await connection().transaction(async () => {
    await requirePurgeableItem(itemId);
    const pageIds = await pageIdsOfItem(itemId);
    const memberUids = await purgeItemMembers(itemId);
    // Before the pages go: a file named in another item's page is kept (files/itemPurge.ts).
    const files = await purgeItemFiles(itemId, pageIds);
    await purgeItemPages(itemId, pageIds);
    await purgePageSubscriptions(pageIds);
    await purgeItemComments(itemId, pageIds);
    await purgeItemMocks(itemId, pageIds);
    await purgeItemCatalogs(itemId);
    await purgeItemReadMarkers(itemId);
    await purgeItemTemplateShares(itemId);
    await purgeItemRecord(itemId);
    return { pageIds, memberUids, files };
  });
  await removePurgedBytes(purged.files);
  const byUid = actor.uid;
  events.publish('item.changed', { itemId, change: 'deleted', byUid });
  if (purged.pageIds.length) events.publish('page.purged', { itemId, pageIds: purged.pageIds });
  if (purged.memberUids.length)
    events.publish('membership.changed', {
      itemId,
      uids: purged.memberUids,
      change: 'removed',
      byUid,
    });
  announcePurgedFiles(purged.files);
}
