/**
 * Back online (issue #41): every page edited offline is merged and saved with the rules it would
 * have had online. Per page, in order:
 *
 * 1. the lock is asked first (page/isLock — also the probe that the network is really back: the
 *    service worker answers reads from its cache, never lock calls). Held by someone else, with
 *    simultaneous editing off: the page is reported and its edits stay kept here — never
 *    overriding their lock; otherwise the lock is taken, as opening the editor would;
 * 2. the kept document joins the server's and Yjs merges both sides' edits;
 * 3. the merged text is saved the usual way (the save command on the document, with a queued
 *    "save and notify" text), then the lock is given back;
 * 4. page/info before and page/history after tell whether others changed the page meanwhile and
 *    which versions to diff (mergeReport.ts).
 */
import { ApiRequestError, request, TRANSPORT_FAILURE } from '../../api/request';
import { fetchPage } from '../reader/api';
import type { PageInfo } from '../reader/types';
import { isLock, releaseLock, setLock } from '../editor/editorApi';
import { saveLive } from '../editor/liveSave';
import { orderRows, savedRow, type HistoryRow, type ReportRow } from './mergeReport';
import { openSyncedPage } from './pageDoc';
import { clearPending, readOffline, type PendingPage } from './store';

/** Retries of the save until the stored text is the merged one (see savePending). */
const SAVE_ATTEMPTS = 3;
const SAVE_RETRY_MS = 400;

class StillOffline extends Error {}

const offlineError = (error: unknown) =>
  error instanceof ApiRequestError && error.code === TRANSPORT_FAILURE;

let running: Promise<ReportRow[]> | null = null;

/** Syncs every pending page once (a second call while one runs joins it). */
export function syncPending(): Promise<ReportRow[]> {
  running ??= run().finally(() => {
    running = null;
  });
  return running;
}

async function run(): Promise<ReportRow[]> {
  const rows: ReportRow[] = [];
  for (const entry of Object.values(readOffline().pending)) {
    try {
      rows.push(await syncPage(entry));
    } catch (error) {
      if (error instanceof StillOffline) break;
      rows.push({ ...identity(entry), kind: 'failed', message: (error as Error).message });
    }
  }
  return orderRows(rows);
}

const identity = (entry: PendingPage) => ({
  pageId: entry.pageId,
  itemId: entry.itemId,
  title: entry.title,
});

async function syncPage(entry: PendingPage): Promise<ReportRow> {
  const { pageId, itemId } = entry;
  const lockState = await isLock(pageId, itemId).catch((error: unknown) => {
    if (offlineError(error)) throw new StillOffline();
    throw error;
  });
  const atReconnect: PageInfo = await fetchPage(pageId);
  const detail = await request<{ co_edit?: string | number }>(
    'item/detail',
    { item_id: itemId },
    { alert: false },
  ).catch(() => null);
  const coEdit = String(detail?.co_edit ?? '0') === '1';

  const foreignHolder =
    Number(lockState.lock) === 1 && Number(lockState.is_cur_user) !== 1
      ? lockState.lock_username
      : '';
  if (!coEdit && foreignHolder)
    return { ...identity(entry), kind: 'locked', holder: foreignHolder };
  // A lock we hold already (an editor open on the page) stays the editor's: not taken, not given back.
  const tookLock = !coEdit && Number(lockState.lock) !== 1;
  if (tookLock) await setLock(pageId, itemId);

  try {
    const synced = await openSyncedPage(pageId);
    try {
      if (synced.readOnly)
        return { ...identity(entry), kind: 'locked', holder: synced.lock?.username ?? '' };
      await savePending(entry, atReconnect, synced);
    } finally {
      synced.close();
    }
  } finally {
    if (tookLock) await releaseLock(pageId, itemId).catch(() => undefined);
  }

  const history = await request<HistoryRow[] | Record<string, never>>(
    'page/history',
    { page_id: pageId },
    { alert: false },
  ).catch(() => []);
  clearPending(pageId);
  return savedRow(entry, atReconnect, Array.isArray(history) ? history : []);
}

/**
 * Saves the merged document. The server stores the text its copy holds when the save arrives;
 * our side of the merge travels in the sync just before it, so the save is repeated (briefly)
 * until the stored text is the merged text both sides now have.
 */
async function savePending(
  entry: PendingPage,
  atReconnect: PageInfo,
  synced: Awaited<ReturnType<typeof openSyncedPage>>,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const stored = await saveLive(
      synced.provider,
      {
        title: atReconnect.page_title,
        catId: Number(atReconnect.cat_id) || 0,
        customId: entry.customId || String(entry.pageId),
        notify: entry.notify,
      },
      'offline',
    );
    if (stored.content === synced.text.toString() || attempt >= SAVE_ATTEMPTS) return;
    // A notice goes out once, with the first save.
    entry = { ...entry, notify: undefined };
    await new Promise((resolve) => window.setTimeout(resolve, SAVE_RETRY_MS));
  }
}
