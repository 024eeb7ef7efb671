/**
 * An item's recycle bin (reference pages §8): deleted pages wait here, visible to the item's
 * managers, and can be recovered — back into their catalog when it still exists, else the root
 * (ShowDoc always moved them to the root). Thirty days after the *deletion* a page is purged for
 * good with its versions, lock and share link (ShowDoc counted from the page's last edit, so a
 * long-untouched page could vanish the day after it was deleted).
 *
 * `deletePage` moves a page in (page/delete).
 *
 * Purging runs lazily whenever an item's bin is listed, and for the whole site from
 * `startRecyclePurge` (the process entry starts it).
 */
import { catalogParents, pageMissing, permits, requireAction, type Actor } from '../access';
import { Item, logChange } from '../items';
import { errors, events, nextId, nowSeconds } from '../platform';
import { requirePage } from './pageAccess';
import { Page, type PageDoc } from './schemas/page';
import { PageHistory } from './schemas/pageHistory';
import { PageLock } from './schemas/pageLock';
import { Recycle, type RecycleDoc } from './schemas/recycle';
import { SinglePage } from './schemas/singlePage';

export const PURGE_AFTER_DAYS = 30;
const DAY = 86_400;
/** Rows handled per purge round (a backlog is worked off over several rounds). */
const PURGE_BATCH = 500;

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

/**
 * Moves a page to its item's recycle bin. Allowed to the item's managers, and to editors for the
 * pages they last saved. ShowDoc also let a page's last editor delete it after losing every right.
 */
export async function deletePage(
  actor: Actor,
  pageId: number,
  options: { now?: number } = {},
): Promise<void> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(pageId > 0)) throw pageMissing();
  const { page, access } = await requirePage(actor, pageId, {
    action: 'page.delete',
  });
  if (!permits(access, 'page.deleteAnyones') && page.author_uid !== actor.uid)
    throw errors.noEditPermission('Only the item managers or the page author may delete this page');
  const now = options.now ?? nowSeconds();
  if (!(await moveToRecycleBin(actor, page, now))) throw pageMissing();
  await Item.updateOne({ item_id: page.item_id }, { $set: { last_update_time: now } });
  await logChange({
    uid: actor.uid,
    itemId: page.item_id,
    action: 'delete',
    object: 'page',
    objectId: page.page_id,
    objectName: page.page_title,
  });
  events.publish('page.deleted', { itemId: page.item_id, pageId: page.page_id, byUid: actor.uid });
  events.publish('menu.changed', { itemId: page.item_id, byUid: actor.uid });
}

/**
 * Soft-deletes a page into its item's bin (one row per page; deleting again refreshes it). The
 * caller has checked permissions; returns false when the page was already gone.
 */
export async function moveToRecycleBin(
  actor: Actor,
  page: Pick<PageDoc, 'page_id' | 'item_id' | 'page_title'>,
  now: number,
): Promise<boolean> {
  const deleted = await Page.updateOne(
    { page_id: page.page_id, item_id: page.item_id, is_del: 0 },
    { $set: { is_del: 1 } },
  );
  if (!deleted.modifiedCount) return false;
  const set = {
    page_title: page.page_title,
    del_by_uid: actor.uid,
    del_by_username: actor.username,
    del_time: now,
  };
  const filter = { item_id: page.item_id, page_id: page.page_id };
  const updated = await Recycle.updateOne(filter, { $set: set });
  if (!updated.matchedCount) {
    try {
      await Recycle.create({ id: await nextId('recycle_id'), ...filter, ...set });
    } catch (error) {
      // A concurrent delete of the same page inserted the row first: refresh it instead.
      if (!isDuplicateKey(error)) throw error;
      await Recycle.updateOne(filter, { $set: set });
    }
  }
  return true;
}

/** The bin of one item, newest deletion first (item manage). Purges what is due first. */
export async function listRecycleBin(
  actor: Actor,
  itemId: number,
  now = nowSeconds(),
): Promise<RecycleDoc[]> {
  await requireAction(actor, 'recycle.manage', itemId);
  await purgeRecycleBin(now, { itemId });
  return Recycle.find({ item_id: itemId }, { _id: 0 }).sort({ del_time: -1 }).lean<RecycleDoc[]>();
}

/** Puts a page from the bin back into its catalog (or the root when that catalog is gone). */
export async function recoverPage(actor: Actor, itemId: number, pageId: number): Promise<void> {
  if (!(itemId > 0) || !(pageId > 0)) throw errors.failed('Parameter error');
  await requireAction(actor, 'recycle.manage', itemId);
  const row = await Recycle.findOne({ item_id: itemId, page_id: pageId }).lean();
  if (!row) throw errors.failed('The page is not in the recycle bin');
  const page = await Page.findOne(
    { page_id: pageId, item_id: itemId, is_del: 1 },
    { cat_id: 1, _id: 0 },
  ).lean();
  if (!page) {
    await Recycle.deleteOne({ item_id: itemId, page_id: pageId });
    throw errors.failed('The page is not in the recycle bin');
  }
  // The item's catalog tree from access's read model (every catalog write publishes
  // `menu.changed`, which renews it).
  const catalogAlive = page.cat_id > 0 && (await catalogParents(itemId)).has(page.cat_id);
  await Page.updateOne(
    { page_id: pageId, item_id: itemId, is_del: 1 },
    { $set: { is_del: 0, cat_id: catalogAlive ? page.cat_id : 0 } },
  );
  await Recycle.deleteOne({ item_id: itemId, page_id: pageId });
  events.publish('page.restored', { itemId, pageId, byUid: actor.uid });
  events.publish('menu.changed', { itemId, byUid: actor.uid });
}

/**
 * Hard-deletes the pages whose deletion is older than PURGE_AFTER_DAYS at `now` (all items, or one),
 * with their versions, locks and share links. Returns the number of pages purged.
 */
export async function purgeRecycleBin(
  now: number,
  options: { itemId?: number } = {},
): Promise<number> {
  const cutoff = now - PURGE_AFTER_DAYS * DAY;
  let purged = 0;
  for (;;) {
    const filter = options.itemId
      ? { item_id: options.itemId, del_time: { $lt: cutoff } }
      : { del_time: { $lt: cutoff } };
    const rows = await Recycle.find(filter, { item_id: 1, page_id: 1, _id: 0 })
      .limit(PURGE_BATCH)
      .lean();
    if (!rows.length) return purged;
    const pageIds = rows.map((r) => r.page_id);
    // A recovered page has lost its row already; `is_del: 1` guards against a race with recover.
    const gone = await Page.find(
      { page_id: { $in: pageIds }, is_del: 1 },
      { page_id: 1, item_id: 1, _id: 0 },
    ).lean();
    const goneIds = gone.map((p) => p.page_id);
    await Page.deleteMany({ page_id: { $in: goneIds }, is_del: 1 });
    await Promise.all([
      PageHistory.deleteMany({ page_id: { $in: goneIds } }),
      PageLock.deleteMany({ page_id: { $in: goneIds } }),
      SinglePage.deleteMany({ page_id: { $in: goneIds } }),
    ]);
    await Recycle.deleteMany({ page_id: { $in: pageIds }, del_time: { $lt: cutoff } });
    const byItem = new Map<number, number[]>();
    for (const p of gone) byItem.set(p.item_id, [...(byItem.get(p.item_id) ?? []), p.page_id]);
    for (const [itemId, ids] of byItem) events.publish('page.purged', { itemId, pageIds: ids });
    purged += goneIds.length;
    if (rows.length < PURGE_BATCH) return purged;
  }
}

/**
 * Runs the site-wide purge now and then every `intervalMs` (default hourly). The timer does not
 * keep the process alive; call the returned function to stop it.
 */
export function startRecyclePurge(
  options: { intervalMs?: number; onError?: (error: unknown) => void } = {},
): () => void {
  const run = () => {
    purgeRecycleBin(nowSeconds()).catch((error) => options.onError?.(error));
  };
  const timer = setInterval(run, options.intervalMs ?? 3_600_000);
  timer.unref();
  run();
  return () => clearInterval(timer);
}
