/**
 * What this browser keeps about offline items (issue #41), in localStorage under one key so the
 * app's entry can tell with one read whether to load the offline code at all (web/main.tsx):
 * which items are available offline, and the pages edited while offline that still wait to be
 * merged and saved. The pages' text itself is in IndexedDB (y-indexeddb, one database a page).
 * No imports: the editor reads it without pulling the offline chunk in.
 */
export const OFFLINE_KEY = 'quire.offline';

export interface OfflineItem {
  itemId: number;
  name: string;
  /** The reader address (domain or id). */
  address: string;
  pageIds: number[];
  /** When the copy was made (ms). */
  at: number;
}

/** A page edited while offline, waiting for the connection to merge and save it. */
export interface PendingPage {
  pageId: number;
  itemId: number;
  title: string;
  catId: number;
  customId: string;
  /** The version the offline edits started from: its page/info `addtime`. */
  baseAddtime: string;
  /** That version's text (un-escaped), to find it in the page history afterwards. */
  baseContent: string;
  /** When the first offline edit was made (ms). */
  since: number;
  /** "Save and notify" was used offline: the notice text sent with the save on reconnect. */
  notify?: string;
}

export interface OfflineState {
  items: Record<string, OfflineItem>;
  pending: Record<string, PendingPage>;
}

const EMPTY: OfflineState = { items: {}, pending: {} };

export function readOffline(): OfflineState {
  try {
    const raw = localStorage.getItem(OFFLINE_KEY);
    if (!raw) return { items: {}, pending: {} };
    const parsed = JSON.parse(raw) as Partial<OfflineState>;
    return { items: parsed.items ?? {}, pending: parsed.pending ?? {} };
  } catch {
    return { ...EMPTY };
  }
}

function write(state: OfflineState): void {
  try {
    if (!Object.keys(state.items).length && !Object.keys(state.pending).length)
      localStorage.removeItem(OFFLINE_KEY);
    else localStorage.setItem(OFFLINE_KEY, JSON.stringify(state));
  } catch {
    // storage full or denied: the offline copy simply is not remembered
  }
}

export function updateOffline(change: (state: OfflineState) => void): OfflineState {
  const state = readOffline();
  change(state);
  write(state);
  return state;
}

export function offlineItem(itemId: number): OfflineItem | null {
  return readOffline().items[String(itemId)] ?? null;
}

/** Records the first offline edit of a page (later edits keep the first one's base). */
export function markPending(page: PendingPage): void {
  updateOffline((state) => {
    state.pending[String(page.pageId)] ??= page;
  });
}

/** Queues a "save and notify" text for the page's save on reconnect. */
export function queueNotice(pageId: number, notify: string): void {
  updateOffline((state) => {
    const entry = state.pending[String(pageId)];
    if (entry) entry.notify = notify;
  });
}

export function clearPending(pageId: number): void {
  updateOffline((state) => {
    delete state.pending[String(pageId)];
  });
}

/** The IndexedDB database that keeps a page's shared document. */
export const pageDatabase = (pageId: number) => `quire-page-${pageId}`;
