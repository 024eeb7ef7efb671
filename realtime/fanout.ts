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
import { unreadCountsOf, type UnreadCounts } from '../models/notices';
import { draftHiddenFrom, findLivePage } from '../models/pages';
import { actorOf } from './auth';
import type { LockExpiry } from './lockExpiry';
import type { Presence } from './presence';
import { rooms, type LockPayload, type NoticePayload } from './socketEvents';
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

  /**
   * One batch of counts for these users (each with a socket here), then one push per distinct
   * pair of counts over the rooms of the users who have it: each user gets their own counts, and
   * a reminder batch, after which most recipients' counts agree, is encoded a few times rather
   * than once per user.
   */
  async function pushUnread(uids: number[]): Promise<void> {
    if (!uids.length) return;
    const counts = await unreadCountsOf(uids);
    const roomsByCounts = new Map<string, { counts: UnreadCounts; rooms: string[] }>();
    for (const uid of uids) {
      const mine = counts.get(uid);
      if (!mine) continue;
      const key = `${mine.remind}:${mine.announce}`;
      const group = roomsByCounts.get(key) ?? { counts: mine, rooms: [] };
      group.rooms.push(rooms.user(uid));
      roomsByCounts.set(key, group);
    }
    for (const group of roomsByCounts.values())
      local().to(group.rooms).emit('unread', group.counts);
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
      // A board operation's saves (the board page, a task's page) reach the board's watchers as
      // the `kanban:changed` that follows each one, with the board and the cards: a `page:saved`
      // too would be a second push to every watcher, in the middle of the move, that no board
      // screen reads.
      if (origin === 'kanban') return;
      const room = rooms.page(pageId);
      if (!hasLocalSockets(io, room)) return;
      // Through the read model: the save has just dropped the page, and this one load serves
      // the reminders of a "save and notify" and the readers who reload the page too.
      const page = await findLivePage(pageId);
      if (!page) return;
      // Who may no longer see the page (moved out of their catalogs, or now someone's draft)
      // leaves before the push, so it does not reach them.
      const watchers = localSocketsIn(io, room);
      await recheck(
        watchers.filter(
          (s) => s.rooms.has(rooms.restricted(itemId)) || draftHiddenFrom(page, s.data.uid),
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

    'kanban.changed'({ itemId, boardPageId, byUid, version, board, cards, removed }) {
      // The board page's room: its watchers were checked against the board's catalog on joining,
      // and tasks live in the board's catalog.
      local().to(rooms.page(boardPageId)).emit('kanban:changed', {
        item_id: itemId,
        page_id: boardPageId,
        by_uid: byUid,
        version,
        board,
        cards,
        removed,
      });
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

    'suggestion.changed'({ itemId, pageId, change }) {
      // Only ids travel: each viewer reloads the list through suggestion/list, with its own access.
      local()
        .to(rooms.page(pageId))
        .emit('page:suggestions', { item_id: itemId, page_id: pageId, change });
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

    async 'notice.created'({ kind, uids, messageContentId, content }) {
      const everyone = !uids.length;
      const here = uids.filter((uid) => hasLocalSockets(io, rooms.user(uid)));
      if (everyone ? io.sockets.sockets.size === 0 : !here.length) return;
      // A scheduled announcement is not news yet; clients see it in their lists when its time
      // comes. Announcements for the RunApi client only are never shown by the web.
      if (!NOT_FOR_WEB.has(content.message_type) && content.addtime <= formatNow()) {
        const payload: NoticePayload = {
          kind,
          message_content_id: messageContentId,
          from_name: content.from_name,
          message_content: content.message_content,
          object_type: content.object_type,
          object_id: content.object_id,
          addtime: content.addtime,
        };
        // One broadcast over every recipient's room here: encoded once, each socket once.
        if (everyone) local().emit('notice', payload);
        else local().to(here.map(rooms.user)).emit('notice', payload);
      }
      // The batch's recipients have new unread counts (announcements are counted by the client).
      await pushUnread(here);
    },

    'import.progress'({ uid, importId, done, total }) {
      const room = rooms.user(uid);
      if (!hasLocalSockets(io, room)) return;
      local().to(room).emit('import:progress', { import_id: importId, done, total });
    },

    'flow.progress'({ itemId, flowId, runId, byUid, done, total, finished, step }) {
      const progress = {
        item_id: itemId,
        flow_id: flowId,
        run_id: runId,
        by_uid: byUid,
        done,
        total,
        finished,
        step,
      };
      const restricted = rooms.restricted(itemId);
      local().to(rooms.item(itemId)).except(restricted).emit('flow:progress', progress);
      // A member limited to some catalogs may not learn the titles of pages outside them: the
      // step comes without its title (their own flow list names the pages they can read).
      if (hasLocalSockets(io, restricted))
        local()
          .to(restricted)
          .emit('flow:progress', { ...progress, step: step && { ...step, page_title: '' } });
    },

    /** Logged out or password changed: the user's sockets end now, not at their next request. */
    'session.revoked'({ uid }) {
      const room = rooms.user(uid);
      if (!hasLocalSockets(io, room)) return;
      for (const socket of localSocketsIn(io, room)) socket.disconnect(true);
    },

    'unread.changed'({ uids }) {
      return pushUnread(uids.filter((uid) => hasLocalSockets(io, rooms.user(uid))));
    },
  };

  const unsubscribers = Object.entries(handlers).map(([name, handler]) =>
    events.subscribe(name as EventName, handler as (payload: unknown) => Promise<void>),
  );
  return () => {
    for (const unsubscribe of unsubscribers) unsubscribe();
  };
}
