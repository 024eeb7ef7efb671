/**
 * Loaded by the app's entry only when this browser keeps offline items or offline edits
 * (web/main.tsx reads the one storage key): keeps the service worker registered (the browser then
 * checks it for a new build) and, whenever the connection is there — at start and on every
 * `online` event — merges and saves the pages edited offline, then shows what happened.
 */
import { readOffline } from './store';

/** The connection may come back a little after the `online` event: a few spaced tries. */
const RETRIES = 4;
const RETRY_MS = 3000;

let tries = 0;
let timer = 0;

async function syncNow(): Promise<void> {
  window.clearTimeout(timer);
  if (!navigator.onLine || !Object.keys(readOffline().pending).length) return;
  const [{ syncPending }, { showMergeReport }] = await Promise.all([
    import('./sync'),
    import('./MergeReport'),
  ]);
  const rows = await syncPending();
  if (rows.length) await showMergeReport(rows);
  const waiting = Object.values(readOffline().pending).filter(
    (entry) => !rows.some((row) => row.pageId === entry.pageId),
  );
  if (waiting.length && tries++ < RETRIES)
    timer = window.setTimeout(() => void syncNow(), RETRY_MS);
}

if ('serviceWorker' in navigator && Object.keys(readOffline().items).length)
  navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);

window.addEventListener('online', () => {
  tries = 0;
  void syncNow();
});
void syncNow();
