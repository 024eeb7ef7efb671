/**
 * Who is on a page: the sockets in `presence:<page>` (those that watch the page with a mode), each
 * user once, `editing` if any of their sockets edits. The list is read through the adapter
 * (`fetchSockets()`), so with Redis it spans every process, and pushed to `page:<page>` as a whole
 * after each change. Changes within one tick are coalesced into one push per page, and the state
 * lives in the sockets themselves: nothing to clean up when a process dies.
 */
import type { Logger } from '../models/platform';
import { rooms, type PresenceMode, type PresenceUser } from './socketEvents';
import type { QuireServer } from './types';

export interface Presence {
  /** The page's presence list changed (someone joined, left or switched mode): push it soon. */
  changed(pageId: number): void;
  /** The current list (for a new watcher's acknowledgement). */
  list(pageId: number): Promise<PresenceUser[]>;
  close(): void;
}

export function createPresence(io: QuireServer, logger: Logger): Presence {
  const pending = new Set<number>();
  let scheduled = false;
  let closed = false;

  async function list(pageId: number): Promise<PresenceUser[]> {
    const sockets = await io.in(rooms.presence(pageId)).fetchSockets();
    const byUid = new Map<number, PresenceUser>();
    for (const socket of sockets) {
      const mode: PresenceMode | undefined = socket.data.present?.[pageId];
      if (!mode) continue; // left between the room read and now
      const seen = byUid.get(socket.data.uid);
      if (!seen)
        byUid.set(socket.data.uid, { uid: socket.data.uid, username: socket.data.username, mode });
      else if (mode === 'editing') seen.mode = 'editing';
    }
    return [...byUid.values()].sort((a, b) => a.uid - b.uid);
  }

  async function push(pageId: number): Promise<void> {
    try {
      const users = await list(pageId);
      if (!closed) io.to(rooms.page(pageId)).emit('presence', { page_id: pageId, users });
    } catch (error) {
      // e.g. another process did not answer in time: the next change pushes a fresh list.
      logger.warn({ err: error, pageId }, 'presence list failed');
    }
  }

  function flush(): void {
    scheduled = false;
    const pages = [...pending];
    pending.clear();
    if (closed) return;
    for (const pageId of pages) void push(pageId);
  }

  return {
    changed(pageId) {
      if (closed) return;
      pending.add(pageId);
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    list,
    close() {
      closed = true;
      pending.clear();
    },
  };
}
