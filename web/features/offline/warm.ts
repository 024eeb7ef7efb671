/**
 * "Make available offline" (issue #41): registers the service worker (web/sw/sw.js, which caches
 * the app shell at install), then reads the item's tree, every page, the page IDs the editor
 * resolves and the pages' images through it — each answer is kept as it passes — and downloads
 * every page's shared document into IndexedDB, so the editor opens and edits it with no network.
 */
import { request } from '../../api/request';
import { unescapeHtml } from '../../markdown/unescape';
import {
  fetchItemInfo,
  fetchPage,
  fetchReaderItem,
  pageAttachments,
  resolvePage,
} from '../reader/api';
import { itemAddress } from '../reader/paths';
import type { ItemInfo, Menu, MenuCatalog } from '../reader/types';
import { keepOnServer, openSyncedPage } from './pageDoc';
import { pageDatabase, readOffline, updateOffline, type OfflineItem } from './store';

/** Items whose pages open in the Markdown editor (not RunApi, spreadsheet or whiteboard). */
const NOT_MARKDOWN = new Set(['3', '4', '5']);
const CONTROL_TIMEOUT_MS = 30_000;
const PARALLEL = 3;

export function offlineSupported(): boolean {
  return 'serviceWorker' in navigator && 'indexedDB' in window && window.isSecureContext;
}

/** Registers /sw.js and waits until it controls this page (its install cached the shell). */
export async function ensureServiceWorker(): Promise<void> {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  if (navigator.serviceWorker.controller && registration.active) return;
  await new Promise<void>((resolve, reject) => {
    const timer = window.setTimeout(
      () => reject(new Error('the service worker did not start')),
      CONTROL_TIMEOUT_MS,
    );
    const worker = registration.installing ?? registration.waiting;
    // An install that fails (the shell could not be fetched) ends as "redundant".
    worker?.addEventListener('statechange', () => {
      if (worker.state !== 'redundant') return;
      window.clearTimeout(timer);
      reject(new Error('the service worker could not be installed'));
    });
    const controlled = () => {
      window.clearTimeout(timer);
      resolve();
    };
    if (navigator.serviceWorker.controller) controlled();
    else navigator.serviceWorker.addEventListener('controllerchange', controlled, { once: true });
  });
}

export function menuPageIds(menu: Menu | undefined): number[] {
  if (!menu) return [];
  const ids: number[] = menu.pages.map((p) => Number(p.page_id));
  const visit = (cats: MenuCatalog[]) => {
    for (const cat of cats) {
      ids.push(...cat.pages.map((p) => Number(p.page_id)));
      visit(cat.catalogs ?? []);
    }
  };
  visit(menu.catalogs);
  return [...new Set(ids)].filter((id) => id > 0);
}

/** Same-origin image addresses of a page's Markdown (others are fetched by the browser as met). */
export function imageAddresses(markdown: string, origin: string): string[] {
  const found = new Set<string>();
  for (const [, src] of markdown.matchAll(/!\[[^\]]*\]\(\s*<?([^)\s>]+)/g)) found.add(src);
  for (const [, src] of markdown.matchAll(/<img[^>]+src=["']([^"']+)["']/gi)) found.add(src);
  const out: string[] = [];
  for (const src of found) {
    try {
      const url = new URL(src, origin);
      if (url.origin === origin) out.push(url.href);
    } catch {
      // not an address
    }
  }
  return out;
}

async function inParallel<T>(list: T[], work: (entry: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < list.length) await work(list[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(PARALLEL, list.length) }, worker));
}

export interface WarmProgress {
  done: number;
  total: number;
}

export async function makeAvailableOffline(
  item: ItemInfo,
  onProgress: (progress: WarmProgress) => void,
): Promise<OfflineItem> {
  await ensureServiceWorker();
  const address = itemAddress(item);
  const itemId = Number(item.item_id);
  // The editor's form of item/info (whole menu), then the reader's (lazy menu): the worker keeps
  // one answer per item, and the reader's is what a visit shows.
  const full = await fetchItemInfo(item.item_id);
  await request('item/detail', { item_id: itemId }, { alert: false }).catch(() => null);
  const pageIds = menuPageIds(full.menu);
  const markdown = !NOT_MARKDOWN.has(full.item_type);
  const total = pageIds.length;
  let done = 0;
  onProgress({ done, total });
  await inParallel(pageIds, async (pageId) => {
    const page = await fetchPage(pageId);
    await resolvePage(item.item_id, String(pageId)).catch(() => null);
    await pageAttachments(pageId).catch(() => null);
    const origin = window.location.origin;
    await Promise.all(
      imageAddresses(unescapeHtml(page.page_content), origin).map((src) =>
        fetch(src, { credentials: 'same-origin' }).catch(() => null),
      ),
    );
    if (markdown) {
      const synced = await openSyncedPage(pageId);
      await keepOnServer(synced).finally(() => synced.close());
    }
    onProgress({ done: ++done, total });
  });
  await fetchReaderItem(address).catch(() => null);
  const entry: OfflineItem = { itemId, name: full.item_name, address, pageIds, at: Date.now() };
  updateOffline((state) => {
    state.items[String(itemId)] = entry;
  });
  return entry;
}

/** Forgets the item's offline copy (kept page documents with no pending edits are deleted). */
export async function removeOffline(itemId: number): Promise<void> {
  const state = readOffline();
  const entry = state.items[String(itemId)];
  if (!entry) return;
  updateOffline((s) => {
    delete s.items[String(itemId)];
  });
  for (const pageId of entry.pageIds)
    if (!state.pending[String(pageId)]) indexedDB.deleteDatabase(pageDatabase(pageId));
  if (!Object.keys(readOffline().items).length) {
    const registration = await navigator.serviceWorker?.getRegistration('/');
    await registration?.unregister();
    for (const name of await caches.keys())
      if (name.startsWith('quire-')) await caches.delete(name);
  }
}
