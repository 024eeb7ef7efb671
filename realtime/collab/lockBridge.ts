/**
 * Page locks and write access in the shared document (spec "Page lock"; issue "Locks, live").
 *
 * With the item's "simultaneous editing" (`item.co_edit`) off — the default — the editor takes the
 * page lock when it opens (REST page/setLock, models/pages/locks.ts) and only the lock holder writes:
 * every other editor who opens the page watches the holder's edits live, read-only, and gets write
 * access the moment the lock is released or runs out. With it on, all editors write.
 *
 * Lock changes arrive as `lock.changed` events (relayed between processes with REDIS_URL); an
 * expiry has no event, so a timer per document fires at `lock_to`. Each connection is told its
 * access with a `hello` when it opens and an `access` message whenever it changes.
 */
import type { connectedPayload, Extension } from '@hocuspocus/server';
import { liveLockOf } from '../../models/pages';
import { nowSeconds } from '../../models/platform';
import { pageDocumentName, type CollabLock } from '../collabProtocol';
import { applyAccess, contextOf, sendMessage } from './access';
import { loadedPage, type CollabRuntime } from './runtime';

/** The page's lock if it is live, else null. */
export async function readLiveLock(pageId: number): Promise<CollabLock | null> {
  return liveLockOf(pageId);
}

function liveOnly(lock: CollabLock | null): CollabLock | null {
  return lock && lock.lockTo > nowSeconds() ? lock : null;
}

function sameLock(a: CollabLock | null, b: CollabLock | null): boolean {
  return a?.uid === b?.uid && a?.lockTo === b?.lockTo;
}

/**
 * Records the page's lock and re-applies every connection's access (all are told when the lock
 * changed). Arms the expiry timer.
 */
function setLock(runtime: CollabRuntime, documentName: string, lock: CollabLock | null): void {
  const loaded = loadedPage(runtime, documentName);
  if (!loaded) return;
  const { live, document } = loaded;
  const next = liveOnly(lock);
  const changed = !sameLock(live.lock, next);
  live.lock = next;
  if (live.lockTimer) clearTimeout(live.lockTimer);
  live.lockTimer = undefined;
  if (next) {
    // One second late, so nowSeconds() agrees the lock is over when the timer checks.
    const delay = Math.max(0, next.lockTo * 1000 - Date.now() + 1000);
    live.lockTimer = setTimeout(() => setLock(runtime, documentName, live.lock), delay);
    live.lockTimer.unref();
  }
  for (const connection of document.getConnections()) applyAccess(connection, live, changed);
}

export function lockBridge(runtime: CollabRuntime): { extension: Extension; stop(): void } {
  const extension: Extension = {
    extensionName: 'quire-lock-bridge',
    /**
     * Refreshes the lock from the database as each connection opens (a change between its
     * authentication and now would otherwise be missed), then greets the client.
     */
    async connected({ documentName, connection }: connectedPayload) {
      const loaded = loadedPage(runtime, documentName);
      const context = contextOf(connection);
      if (!loaded || !context) return;
      // A whiteboard takes no lock: its editors all draw at once.
      if (loaded.live.kind === 'page')
        setLock(runtime, documentName, await readLiveLock(loaded.live.pageId));
      applyAccess(connection, loaded.live);
      sendMessage(connection, {
        type: 'hello',
        user: { id: context.user.uid, name: context.user.name },
        readOnly: connection.readOnly,
        coEdit: loaded.live.coEdit,
        lock: loaded.live.lock,
      });
    },
  };
  const stop = runtime.events.subscribe('lock.changed', (event) => {
    const lock = event.lock
      ? { uid: event.lock.uid, username: event.lock.username, lockTo: event.lock.lockTo }
      : null;
    setLock(runtime, pageDocumentName(event.pageId), lock);
  });
  return { extension, stop };
}
