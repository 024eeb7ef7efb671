/**
 * Tells a page's watchers when its lock runs out by itself (the holder neither renewed nor
 * released it): nothing in the database changes at that moment, so no domain event announces it.
 *
 * One timer per locked page that this process's sockets watch — never per socket — set from
 * `lock.changed` and from the lock state a new watcher is sent. When it fires, the lock row is read
 * again: if no live lock remains, the process's watchers get `lock` with `locked: false`.
 */
import { liveLockOf } from '../models/pages';
import type { Logger } from '../models/platform';
import { rooms } from './socketEvents';
import { hasLocalSockets, type QuireServer } from './types';

const MAX_TRACKED_MS = 24 * 60 * 60 * 1000;

export interface LockExpiry {
  /** The page is locked until `lockTo` (Unix seconds): push the release if it runs out. */
  track(itemId: number, pageId: number, lockTo: number): void;
  /** The lock was released or replaced: forget the page's timer. */
  clear(pageId: number): void;
  close(): void;
}

export function createLockExpiry(io: QuireServer, logger: Logger): LockExpiry {
  const timers = new Map<number, { timer: NodeJS.Timeout; lockTo: number }>();
  let closed = false;

  async function expire(itemId: number, pageId: number): Promise<void> {
    timers.delete(pageId);
    const room = rooms.page(pageId);
    if (closed || !hasLocalSockets(io, room)) return;
    const live = await liveLockOf(pageId);
    if (live || closed) return; // renewed meanwhile: its own lock.changed set a new timer
    io.local.to(room).emit('lock', { item_id: itemId, page_id: pageId, locked: false });
  }

  function clear(pageId: number): void {
    const entry = timers.get(pageId);
    if (entry) clearTimeout(entry.timer);
    timers.delete(pageId);
  }

  return {
    track(itemId, pageId, lockTo) {
      if (closed || timers.get(pageId)?.lockTo === lockTo) return;
      clear(pageId);
      // One second past lock_to: the lock is live while lock_to > now (whole seconds).
      const delay = Math.max(0, (lockTo + 1) * 1000 - Date.now());
      // Locks reach at most 30 minutes ahead; a longer one (migrated ShowDoc data) is not watched.
      if (delay > MAX_TRACKED_MS) return;
      const timer = setTimeout(() => {
        expire(itemId, pageId).catch((error) =>
          logger.warn({ err: error, pageId }, 'lock expiry check failed'),
        );
      }, delay);
      timer.unref();
      timers.set(pageId, { timer, lockTo });
    },
    clear,
    close() {
      closed = true;
      for (const entry of timers.values()) clearTimeout(entry.timer);
      timers.clear();
    },
  };
}
