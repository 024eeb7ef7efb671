/**
 * The reader's first requests start as soon as the route knows the address — before the screen
 * below it has rendered — and the page request runs beside the item request when the address
 * names the page by id, so the first paint waits for one round trip, not a chain. The hooks take
 * a started request over (once, and only while it is fresh) or start their own. The app's entry
 * starts them earlier still, from the address bar, while the reader's code downloads.
 */
import { fetchPage, fetchReaderItem } from './api';
import { readerAddress } from './paths';
import type { ItemInfo, PageInfo } from './types';

/** An early answer older than this is not used (the reader may have stayed on another page). */
const FRESH_MS = 10_000;

interface Early<T> {
  promise: Promise<T>;
  at: number;
  /**
   * Started by the entry (main.tsx) and not yet taken over by a reader route. The route that
   * mounts for the address takes such requests over instead of starting its own; any later visit
   * starts fresh ones. (A time window used to decide this: a visitor refused by a private item
   * who gave the password within it got the refused page request of the first visit again.)
   */
  fromEntry: boolean;
  /** The request was refused or failed: a later visit never takes it over. */
  failed: boolean;
}

const items = new Map<string, Early<ItemInfo>>();
const pages = new Map<number, Early<PageInfo>>();

function early<T>(promise: Promise<T>, fromEntry: boolean): Early<T> {
  const entry: Early<T> = { promise, at: Date.now(), fromEntry, failed: false };
  // Handled by whoever takes it; noted here for the visits after it.
  promise.catch(() => {
    entry.failed = true;
  });
  return entry;
}

const fresh = (entry: Early<unknown> | undefined): entry is Early<unknown> =>
  !!entry && Date.now() - entry.at < FRESH_MS;

function take<K, T>(map: Map<K, Early<T>>, key: K): Promise<T> | null {
  const entry = map.get(key);
  map.delete(key);
  return fresh(entry) ? entry.promise : null;
}

/** The entry's requests for this address when still unclaimed and not refused, claimed. */
function claim<K>(map: Map<K, Early<unknown>>, key: K): boolean {
  const entry = map.get(key);
  if (!fresh(entry) || !entry.fromEntry || entry.failed) return false;
  entry.fromEntry = false;
  return true;
}

function start(item: string, pageId: number, fromEntry: boolean): void {
  const key = `${item}#${pageId}`;
  const taken = <K>(map: Map<K, Early<unknown>>, k: K) => !fromEntry && claim(map, k);
  if (item && !taken(items, key)) items.set(key, early(fetchReaderItem(item, pageId), fromEntry));
  if (pageId > 0 && !taken(pages, pageId)) pages.set(pageId, early(fetchPage(pageId), fromEntry));
}

/**
 * A reader route's visit of an address: takes over the entry's requests for it (same page load,
 * not yet claimed, not refused), else starts fresh ones — an earlier visit's answer may be stale
 * or refused (a private item before its password was given).
 */
export function prefetchReader(item: string, pageId: number): void {
  start(item, pageId, false);
}

/** The entry's early start (main.tsx): the address bar's reader address, if it is one (true). */
export function prefetchFromAddress(pathname: string, search: string): boolean {
  const address = readerAddress(pathname, search);
  if (!address) return false;
  const page = address.page && /^\d{1,15}$/.test(address.page) ? Number(address.page) : 0;
  start(address.item, page, true);
  return true;
}

export function takeItem(item: string, pageId: number): Promise<ItemInfo> {
  return take(items, `${item}#${pageId}`) ?? fetchReaderItem(item, pageId);
}

export function takePage(pageId: number): Promise<PageInfo> {
  return take(pages, pageId) ?? fetchPage(pageId);
}
