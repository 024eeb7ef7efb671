/**
 * The reader's first requests start as soon as the route knows the address — before the screen
 * below it has rendered — and the page request runs beside the item request when the address
 * names the page by id, so the first paint waits for one round trip, not a chain. The hooks take
 * a started request over (once, and only while it is fresh) or start their own. The app's entry
 * starts them earlier still, from the address bar, while the reader's code downloads.
 */
import { fetchItemInfo, fetchPage } from './api';
import { readerAddress } from './paths';
import type { ItemInfo, PageInfo } from './types';

/** An early answer older than this is not used (the reader may have stayed on another page). */
const FRESH_MS = 10_000;
/** A request started this recently for the same address is the same visit's: not started again. */
const JUST_STARTED_MS = 2_000;

interface Early<T> {
  promise: Promise<T>;
  at: number;
}

const items = new Map<string, Early<ItemInfo>>();
const pages = new Map<number, Early<PageInfo>>();

function early<T>(promise: Promise<T>): Early<T> {
  promise.catch(() => {}); // handled by whoever takes it
  return { promise, at: Date.now() };
}

function take<K, T>(map: Map<K, Early<T>>, key: K): Promise<T> | null {
  const entry = map.get(key);
  map.delete(key);
  return entry && Date.now() - entry.at < FRESH_MS ? entry.promise : null;
}

const justStarted = (entry: Early<unknown> | undefined) =>
  !!entry && Date.now() - entry.at < JUST_STARTED_MS;

/** Starts the requests for an address (fresh ones: an earlier answer may be stale or refused). */
export function prefetchReader(item: string, pageId: number): void {
  const key = `${item}#${pageId}`;
  if (item && !justStarted(items.get(key))) items.set(key, early(fetchItemInfo(item, pageId)));
  if (pageId > 0 && !justStarted(pages.get(pageId))) pages.set(pageId, early(fetchPage(pageId)));
}

/** The entry's early start (main.tsx): the address bar's reader address, if it is one. */
export function prefetchFromAddress(pathname: string, search: string): void {
  const address = readerAddress(pathname, search);
  if (!address) return;
  const page = address.page && /^\d{1,15}$/.test(address.page) ? Number(address.page) : 0;
  prefetchReader(address.item, page);
}

export function takeItem(item: string, pageId: number): Promise<ItemInfo> {
  return take(items, `${item}#${pageId}`) ?? fetchItemInfo(item, pageId);
}

export function takePage(pageId: number): Promise<PageInfo> {
  return take(pages, pageId) ?? fetchPage(pageId);
}
