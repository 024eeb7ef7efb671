/**
 * What the live layer (realtime/: Socket.IO lock pushes, Hocuspocus documents) reads of pages and
 * their locks, so it needs no mongoose model nor our field names. Straight from the database, not
 * through the page cache: a process that hears of another process's save must read that save.
 */
import { nowSeconds } from '../platform';
import { Page } from './schemas/page';
import { PageLock } from './schemas/pageLock';

export interface LivePageContent {
  itemId: number;
  /** The saved Markdown. */
  content: string;
}

/** A live (not deleted) page's saved text and item, or null. */
export async function livePageContent(pageId: number): Promise<LivePageContent | null> {
  const page = await Page.findOne(
    { page_id: pageId, is_del: 0 },
    { page_content: 1, item_id: 1, _id: 0 },
  ).lean();
  return page ? { itemId: page.item_id, content: page.page_content } : null;
}

export interface LiveLock {
  uid: number;
  username: string;
  /** Unix seconds. */
  lockTo: number;
}

/** The page's lock while it lasts (its `lock_to` after `now`), else null. */
export async function liveLockOf(pageId: number, now = nowSeconds()): Promise<LiveLock | null> {
  const row = await PageLock.findOne(
    { page_id: pageId },
    { lock_uid: 1, lock_username: 1, lock_to: 1, _id: 0 },
  ).lean();
  return row && row.lock_to > now
    ? { uid: row.lock_uid, username: row.lock_username, lockTo: row.lock_to }
    : null;
}
