/**
 * The one processor that turns domain events (models/platform/events.ts) into socket pushes
 * (realtime/socketEvents.ts) and keeps room membership true to access after changes.
 *
 * Every process sees every domain event exactly once — its own, and with REDIS_URL the others'
 * through models/platform/eventBusRedis.ts — so each process pushes only to its own sockets (`io.local`)
 * and re-checks only its own sockets: every client gets each push once, however many processes
 * run. Work that needs the database (loading a title, counting unread notices, access re-checks)
 * is skipped when no local socket would receive the result.
 */
import {
  type DomainEvents,
  type EventBus,
  type EventName,
  type Logger,
  formatNow,
} from '../models/platform';
import { unreadCountsOf } from '../models/notices';
import { MessageContent } from '../models/notices/schemas';
import { Page } from '../models/pages/schemas';
import { actorOf } from './auth';
import type { LockExpiry } from './lockExpiry';
import type { Presence } from './presence';
import { rooms, type LockPayload } from './socketEvents';
import { hasLocalSockets, localSocketsIn, type QuireServer, type QuireSocket } from './types';
import { dropPage, recheckSocket } from './watching';

/** Announcement kinds meant for the RunApi client only: the web never shows them. */
const NOT_FOR_WEB = new Set(['announce_runapi']);

export interface FanoutDeps {
  io: QuireServer;
  events: EventBus;
  presence: Presence;
  lockExpiry: LockExpiry;
  logger: Logger;
}

/** Subscribes to the bus; returns the function that unsubscribes. */
export function startFanout(deps: FanoutDeps): () => void {
  const { io, events, presence, lockExpiry, logger } = deps;
  const local = () => io.local;

  /** Re-checks these sockets' rooms of the item; failures are logged, the socket stays. */
  async function recheck(sockets: QuireSocket[], itemId: number): Promise<void> {
    for (const socket of sockets) {
      if (!socket.connected) continue;
      try {
        const revoked = await recheckSocket(socket, actorOf(socket), itemId);
        for (const pageId of revoked.presencePages) presence.changed(pageId);
      } catch (error) {
        logger.warn({ err: error, uid: socket.data.uid, itemId }, 'access re-check failed');
      }
    }
  }

  const handlers: { [N in EventName]?: (payload: DomainEvents[N]) => Promise<void> | void } = {
    'lock.changed'({ itemId, pageId, lock }) {
      const payload: LockPayload = lock
        ? {
            item_id: itemId,
            page_id: pageId,
            locked: true,
            lock_uid: lock.uid,
            lock_username: lock.username,
            lock_to: lock.lockTo,
          }
        : { item_id: itemId, page_id: pageId, locked: false };
      const room = rooms.page(pageId);
      if (lock && hasLocalSockets(io, room)) lockExpiry.track(itemId, pageId, lock.lockTo);
      else lockExpiry.clear(pageId);
      local().to(room).emit('lock', payload);
    },

    async 'page.saved'({ itemId, pageId, catId, byUid, origin, created }) {
      const room = rooms.page(pageId);
      if (!hasLocalSockets(io, room)) return;
      const page = await Page.findOne(
        { page_id: pageId },
        { page_title: 1, author_uid: 1, author_username: 1, addtime: 1, is_draft: 1, _id: 0 },
      ).lean();
      if (!page) return;
      // Who may no longer see the page (moved out of their catalogs, or now someone's draft)
      // leaves before the push, so it does not reach them.
      const watchers = localSocketsIn(io, room);
      await recheck(
        watchers.filter(
          (s) =>
            s.rooms.has(rooms.restricted(itemId)) ||
            (page.is_draft === 1 && s.data.uid !== page.author_uid),
        ),
        itemId,
      );
      local()
        .to(room)
        .emit('page:saved', {
          item_id: itemId,
          page_id: pageId,
          cat_id: catId,
          page_title: page.page_title,
          author: { uid: page.author_uid || byUid, username: page.author_username },
          addtime: page.addtime,
          origin,
          created,
        });
    },

    'sheet.changed'({ itemId, pageId, byUid, cells }) {
      local()
        .to(rooms.page(pageId))
        .emit('sheet:changed', { item_id: itemId, page_id: pageId, by_uid: byUid, cells });
    },

    'page.deleted'({ itemId, pageId }) {
      const room = rooms.page(pageId);
      const watchers = localSocketsIn(io, room);
      if (!watchers.length) return;
      local().to(room).emit('page:deleted', { item_id: itemId, page_id: pageId });
      for (const socket of watchers) if (dropPage(socket, pageId)) presence.changed(pageId);
    },

    'comment.changed'({ itemId, pageId, commentId, change }) {
      // Only ids travel: each reader reloads the list through page_comment/getList, which applies
      // their own access (and the item's allow_comment) again.
      local()
        .to(rooms.page(pageId))
        .emit('page:comments', { item_id: itemId, page_id: pageId, comment_id: commentId, change });
    },

    async 'menu.changed'({ itemId }) {
      local().to(rooms.item(itemId)).emit('menu:changed', { item_id: itemId });
      // Catalog moves can take pages out of a restricted member's catalogs.
      await recheck(localSocketsIn(io, rooms.restricted(itemId)), itemId);
    },

    async 'item.changed'({ itemId, change }) {
      local().to(rooms.item(itemId)).emit('item:changed', { item_id: itemId, change });
      // Deleted: nobody may stay. Updated: it may have become private (visitors lose it).
      // Transferred: the old owner's access arrives as membership.changed.
      if (change === 'deleted') await recheck(localSocketsIn(io, rooms.watchers(itemId)), itemId);
      else if (change === 'updated')
        await recheck(localSocketsIn(io, rooms.visitors(itemId)), itemId);
    },

    async 'membership.changed'({ itemId, uids, change }) {
      for (const uid of uids) {
        const room = rooms.user(uid);
        if (!hasLocalSockets(io, room)) continue;
        local().to(room).emit('access:changed', { item_id: itemId, change });
        if (change !== 'added')
          await recheck(
            localSocketsIn(io, room).filter((s) => s.rooms.has(rooms.watchers(itemId))),
            itemId,
          );
      }
    },

    async 'notice.created'({ kind, uids, messageContentId }) {
      const targets = uids.map(rooms.user).filter((room) => hasLocalSockets(io, room));
      if (uids.length ? !targets.length : io.sockets.sockets.size === 0) return;
      const content = await MessageContent.findOne({ id: messageContentId }, { _id: 0 }).lean();
      if (!content || NOT_FOR_WEB.has(content.message_type)) return;
      // A scheduled announcement is not news yet; clients see it in their lists when its time comes.
      if (content.addtime > formatNow()) return;
      const payload = {
        kind,
        message_content_id: content.id,
        from_name: content.from_name,
        message_content: content.message_content,
        object_type: content.object_type,
        object_id: content.object_id,
        addtime: content.addtime,
      };
      if (uids.length) local().to(targets).emit('notice', payload);
      else local().emit('notice', payload);
    },

    'import.progress'({ uid, importId, done, total }) {
      const room = rooms.user(uid);
      if (!hasLocalSockets(io, room)) return;
      local().to(room).emit('import:progress', { import_id: importId, done, total });
    },

    /** Logged out or password changed: the user's sockets end now, not at their next request. */
    'session.revoked'({ uid }) {
      const room = rooms.user(uid);
      if (!hasLocalSockets(io, room)) return;
      for (const socket of localSocketsIn(io, room)) socket.disconnect(true);
    },

    async 'unread.changed'({ uids }) {
      // One batch of counts for the recipients with a socket here, then one push per user room
      // (each user's counts are their own).
      const here = uids.filter((uid) => hasLocalSockets(io, rooms.user(uid)));
      if (!here.length) return;
      const counts = await unreadCountsOf(here);
      for (const uid of here) {
        const mine = counts.get(uid);
        if (mine) local().to(rooms.user(uid)).emit('unread', mine);
      }
    },
  };

  const unsubscribers = Object.entries(handlers).map(([name, handler]) =>
    events.subscribe(name as EventName, handler as (payload: unknown) => Promise<void>),
  );
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
