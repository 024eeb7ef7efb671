/**
 * Advisory page edit locks (reference pages §1.5, §3.9–3.10; spec "Page lock"). The editor asks
 * `isLock` when it opens, takes the lock with `setLock`, renews it every 20 minutes and releases
 * it with `lock_to=1000`. Saves never check locks.
 *
 * Safer than ShowDoc: taking or releasing a lock needs edit access to the page's own item (ShowDoc
 * checked the item named in the request), within the catalog restriction; a lock reaches at most
 * MAX_LOCK_SECONDS ahead (ShowDoc accepted any `lock_to`, so a lock could last forever); asking
 * who holds a lock needs a login and visit access (ShowDoc answered anyone).
 */
import { pageMissing, requireAction, type Actor } from '../access';
import { type ApiError, errors, events, nextId, nowSeconds } from '../platform';
import { requirePage } from './pageAccess';
import { pageQuotaReached } from './pageQuota';
import { Page } from './schemas/page';
import { PageLock, type PageLockDoc } from './schemas/pageLock';

/** A lock taken without `lock_to` lasts this long (ShowDoc's current default). */
export const DEFAULT_LOCK_SECONDS = 30 * 60;
/** The furthest ahead a lock may reach; the editor renews every 20 minutes. */
export const MAX_LOCK_SECONDS = 30 * 60;

export interface LockState {
  lock: 0 | 1;
  /** 1: the item holds as many pages as the site's page quota allows (pageQuota.ts). */
  exceed: 0 | 1;
  lock_uid: string;
  lock_username: string;
  is_cur_user: 0 | 1;
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

function lockedBy(username?: string): ApiError {
  return errors.failed(
    username
      ? `This page is locked by another user (${username})`
      : 'This page is locked by another user',
  );
}

/**
 * page/isLock: who holds the page's lock (login and visit access to the page), and whether its
 * item's page quota is used up. Page 0 (a new page, ShowDoc's editor asks too) needs `itemId`
 * and edit access to it: no lock, only the quota.
 */
export async function pageLockState(
  actor: Actor,
  pageId: number,
  options: { itemId?: number; itemPassword?: string; now?: number } = {},
): Promise<LockState> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(pageId > 0)) {
    if (!(options.itemId && options.itemId > 0)) throw pageMissing();
    await requireAction(actor, 'page.update', options.itemId);
    const exceed = (await pageQuotaReached(options.itemId)) ? 1 : 0;
    return { lock: 0, exceed, lock_uid: '', lock_username: '', is_cur_user: 0 };
  }
  const { page } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: options.itemPassword,
  });
  const now = options.now ?? nowSeconds();
  const [row, full] = await Promise.all([
    PageLock.findOne({ page_id: pageId }, { _id: 0 }).lean<PageLockDoc>(),
    pageQuotaReached(page.item_id),
  ]);
  const exceed = full ? 1 : 0;
  if (!row || row.lock_to <= now)
    return { lock: 0, exceed, lock_uid: '', lock_username: '', is_cur_user: 0 };
  return {
    lock: 1,
    exceed,
    lock_uid: String(row.lock_uid),
    lock_username: row.lock_username,
    is_cur_user: row.lock_uid === actor.uid ? 1 : 0,
  };
}

/**
 * page/setLock: takes, renews (`lockTo` in the future, capped) or releases (`lockTo` ≤ now, e.g.
 * 1000) the page's lock. Refused while another user's lock is live.
 */
export async function setPageLock(
  actor: Actor,
  input: { pageId: number; itemId: number; lockTo?: number },
  options: { now?: number } = {},
): Promise<{ id: number }> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(input.pageId > 0) || !(input.itemId > 0)) throw errors.failed('Parameter error');
  const { page } = await requirePage(actor, input.pageId, {
    action: 'page.update',
  });
  if (page.item_id !== input.itemId) throw pageMissing();
  const now = options.now ?? nowSeconds();
  const requested = input.lockTo ?? now + DEFAULT_LOCK_SECONDS;
  const release = requested <= now;
  const lockTo = release ? Math.max(requested, 0) : Math.min(requested, now + MAX_LOCK_SECONDS);

  const current = await PageLock.findOne({ page_id: page.page_id }, { _id: 0 }).lean<PageLockDoc>();
  if (current && current.lock_uid !== actor.uid && current.lock_to > now)
    throw lockedBy(current.lock_username);
  const wasLive = !!current && current.lock_to > now;
  const fields = {
    lock_uid: actor.uid,
    lock_username: actor.username,
    lock_to: lockTo,
    addtime: now,
  };
  // Expired rows of other pages go (ShowDoc's sweep) alongside this page's write, sharing its
  // disk flush; this page's row, live or expired, is taken over in place — a take after a
  // release is one write, not a delete, a counter step and an insert one after the other.
  const sweep = PageLock.deleteMany({
    lock_to: { $lt: now },
    page_id: { $ne: page.page_id },
  }).catch(
    () => undefined, // housekeeping: a failed sweep leaves expired rows, which block no one
  );
  let id: number;
  try {
    if (current) {
      // Compare-and-set on the row as read: a concurrent taker that got in between wins.
      const updated = await PageLock.updateOne(
        { page_id: page.page_id, lock_uid: current.lock_uid, lock_to: current.lock_to },
        { $set: fields },
      );
      if (!updated.matchedCount) throw lockedBy();
      id = current.id;
    } else {
      id = await nextId('page_lock_id');
      try {
        await PageLock.create({ id, page_id: page.page_id, ...fields });
      } catch (error) {
        if (!isDuplicateKey(error)) throw error;
        const winner = await PageLock.findOne(
          { page_id: page.page_id },
          { lock_username: 1, _id: 0 },
        ).lean();
        throw lockedBy(winner?.lock_username);
      }
    }
  } finally {
    await sweep;
  }
  if (!release || wasLive)
    events.publish('lock.changed', {
      itemId: page.item_id,
      pageId: page.page_id,
      lock: release ? null : { uid: actor.uid, username: actor.username, lockTo },
    });
  return { id };
}

/**
 * Releases the live locks `uid` holds on these pages, e.g. when the realtime service sees that
 * the holder's editor connections have all been gone for a grace period (a lock no longer lingers
 * for its full time after a closed tab). Each lock is removed with a compare-and-delete on the row
 * as read, so a lock renewed meanwhile survives, and when several processes release the same lock
 * only one of them publishes its `lock.changed`. Returns the pages released.
 */
export async function releaseLocksOf(
  uid: number,
  pageIds: number[],
  options: { now?: number } = {},
): Promise<number[]> {
  if (!(uid > 0) || !pageIds.length) return [];
  const now = options.now ?? nowSeconds();
  const held = await PageLock.find(
    { page_id: { $in: pageIds }, lock_uid: uid, lock_to: { $gt: now } },
    { page_id: 1, lock_to: 1, _id: 0 },
  ).lean();
  const released: number[] = [];
  for (const row of held) {
    const removed = await PageLock.findOneAndDelete(
      { page_id: row.page_id, lock_uid: uid, lock_to: row.lock_to },
      { projection: { page_id: 1, _id: 0 } },
    ).lean();
    if (!removed) continue;
    const page = await Page.findOne({ page_id: row.page_id }, { item_id: 1, _id: 0 }).lean();
    events.publish('lock.changed', { itemId: page?.item_id ?? 0, pageId: row.page_id, lock: null });
    released.push(row.page_id);
  }
  return released;
}
