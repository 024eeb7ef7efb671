/**
 * The editor's calls (spec 001 §7; reference pages §3.4, §3.9, §3.10). Errors the editor turns
 * into screens or dialogs of its own (a foreign lock, a taken page ID, 10250) are not alerted here.
 */
import type { Output } from '../../../api/contracts';
import { getToken } from '../../auth/storage';
import { request } from '../../api/request';

export type LockState = Output<'page', 'isLock'>;

/** The lock release value of ShowDoc's clients (a time long past). */
export const LOCK_RELEASE = 1000;
/** How long one lock lasts (the server's default), and how often the editor renews it (spec §9). */
export const LOCK_SECONDS = 30 * 60;
export const LOCK_RENEW_MS = 20 * 60 * 1000;

export const isLock = (pageId: number, itemId: number) =>
  request<LockState>('page/isLock', { page_id: pageId, item_id: itemId }, { alert: false });

export const setLock = (pageId: number, itemId: number) =>
  request<unknown>(
    'page/setLock',
    { page_id: pageId, item_id: itemId, lock_to: Math.floor(Date.now() / 1000) + LOCK_SECONDS },
    { alert: false },
  );

export const releaseLock = (pageId: number, itemId: number) =>
  request<unknown>(
    'page/setLock',
    { page_id: pageId, item_id: itemId, lock_to: LOCK_RELEASE },
    { alert: false },
  );

/**
 * Releases the lock while the tab closes: a beacon outlives the page. The token travels in the
 * form body (never in a URL).
 */
export function releaseLockBeacon(pageId: number, itemId: number): boolean {
  const token = getToken();
  if (!token || typeof navigator.sendBeacon !== 'function') return false;
  const body = new URLSearchParams({
    page_id: String(pageId),
    item_id: String(itemId),
    lock_to: String(LOCK_RELEASE),
    user_token: token,
  });
  return navigator.sendBeacon('/api/page/setLock', body);
}

export interface SaveInput {
  pageId: number;
  itemId: number;
  title: string;
  content: string;
  catId: number;
  customId: string;
  notify?: string;
}

/**
 * page/save as ShowDoc's editor sends it: content URL-encoded with is_urlencode=1 (keeps `+`,
 * `&` and friends intact through any form parser). Answers the page id.
 */
export async function savePage(input: SaveInput): Promise<number> {
  const data = await request<Output<'page', 'save'>>(
    'page/save',
    {
      page_id: input.pageId,
      item_id: input.itemId,
      page_title: input.title,
      page_content: encodeURIComponent(input.content),
      is_urlencode: 1,
      cat_id: input.catId,
      page_custom_id: input.customId,
      is_notify: input.notify !== undefined ? 1 : 0,
      notify_content: input.notify,
    },
    { alert: false },
  );
  return Number(data?.page_id ?? input.pageId);
}
