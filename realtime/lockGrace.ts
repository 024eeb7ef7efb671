/**
 * Releases a lock whose holder's sockets have all gone, after a grace period (LOCK_GRACE_SECONDS)
 * instead of letting it linger for its full 30 minutes: a closed tab or a crashed browser frees
 * the page soon, while a reload or a short network drop (the client reconnects within the grace)
 * keeps it.
 *
 * One timer per user who just lost their last socket on this process — never one per socket — and
 * only the pages that user's departed sockets were watching are considered (a lock taken by a script over
 * REST, without any socket, is left to expire as in ShowDoc). When the timer fires, the user's
 * sockets are counted through the adapter, so with Redis a connection on another process keeps
 * the lock. The release itself is models/pages/locks.ts `releaseLocksOf`, which publishes
 * `lock.changed` so every watcher is told.
 *
 * Pending releases live in this process's memory: if the process stops first, the lock simply
 * expires at its `lock_to`.
 */
import { releaseLocksOf } from '../models/pages';
import type { Logger } from '../models/platform';
import { rooms } from './socketEvents';
import type { QuireServer } from './types';

export interface LockGrace {
  /**
   * One of the user's sockets went away; it was watching these pages. `lastLocal`: the user has
   * no other socket on this process (only then does the grace start).
   */
  disconnected(uid: number, pageIds: number[], lastLocal: boolean): void;
  /** Stops every pending timer (process shutdown: locks then expire on their own). */
  close(): void;
}

interface Pending {
  timer?: NodeJS.Timeout;
  pageIds: Set<number>;
}

export function createLockGrace(io: QuireServer, graceMs: number, logger: Logger): LockGrace {
  const pending = new Map<number, Pending>();
  let closed = false;

  async function settle(uid: number, pageIds: number[]): Promise<void> {
    // Anywhere (any process) the user still has a socket, their editor may still be open.
    const sockets = await io.in(rooms.user(uid)).fetchSockets();
    if (sockets.length || closed) return;
    const released = await releaseLocksOf(uid, pageIds);
    if (released.length)
      logger.info({ uid, pages: released }, 'locks released after disconnect grace');
  }

  function fire(uid: number): void {
    const entry = pending.get(uid);
    pending.delete(uid);
    if (!entry || closed) return;
    settle(uid, [...entry.pageIds]).catch((error) =>
      logger.warn({ err: error, uid }, 'lock grace release failed'),
    );
  }

  return {
    disconnected(uid, pageIds, lastLocal) {
      if (closed) return;
      let entry = pending.get(uid);
      if (!entry && !pageIds.length) return;
      if (!entry) pending.set(uid, (entry = { pageIds: new Set() }));
      for (const id of pageIds) entry.pageIds.add(id);
      // Pages of a tab closed while another tab stays open wait for the user's last socket.
      if (!lastLocal) return;
      // The grace runs from the latest disconnect: a reconnect-then-drop starts it again.
      clearTimeout(entry.timer);
      entry.timer = setTimeout(() => fire(uid), graceMs);
      entry.timer.unref();
    },
    close() {
      closed = true;
      for (const entry of pending.values()) clearTimeout(entry.timer);
      pending.clear();
    },
  };
}
