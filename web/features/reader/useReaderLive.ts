/**
 * The reader's live subscriptions over the app's one socket (web/live): it watches the item (menu
 * and item changes) and the open page as a viewer (saves, deletion, lock, presence), again after
 * every reconnect, and stops watching on leaving. Anonymous visitors have no socket: they read
 * without live updates.
 *
 * What arrives is handed to the screen as state: who holds the page's lock, who else is here, and
 * the last save or deletion of the open page; the menu and item pushes call back to refresh.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type {
  LockPayload,
  PageSavedPayload,
  PresenceUser,
  WatchAck,
} from '../../../realtime/socketEvents';
import { getItemPassword } from '../../auth/storage';
import { useLive } from '../../live/context';
import { useLiveEvent } from '../../live/useLiveEvent';

export interface LiveCallbacks {
  /** The item's menu changed (catalogs, titles, order). */
  onMenuChanged(): void;
  /** The item itself changed, or this viewer's access to it may have. */
  onItemChanged(): void;
}

export interface ReaderLiveState {
  /** The page's lock holder (someone is editing), or null. */
  lockHolder: string | null;
  /** Other users on the page now. */
  others: PresenceUser[];
  /** The newest save of the open page by someone, or null. */
  saved: PageSavedPayload | null;
  /** The open page went to the recycle bin. */
  deleted: boolean;
}

const EMPTY: ReaderLiveState = { lockHolder: null, others: [], saved: null, deleted: false };

function holderOf(lock: LockPayload | undefined): string | null {
  return lock && lock.locked && lock.lock_to * 1000 > Date.now() ? lock.lock_username : null;
}

export function useReaderLive(
  itemId: number,
  pageId: number,
  selfUid: number,
  callbacks: LiveCallbacks,
): ReaderLiveState & { clearSaved(): void } {
  const { socket } = useLive();
  const [state, setState] = useState<ReaderLiveState>(EMPTY);
  const cb = useRef(callbacks);
  cb.current = callbacks;

  useEffect(() => setState(EMPTY), [pageId]);

  // Item room: joined on every (re)connection.
  useEffect(() => {
    if (!socket || !(itemId > 0)) return;
    const watch = () =>
      socket.emit(
        'watch',
        { item_id: itemId, item_password: getItemPassword() || undefined },
        () => {},
      );
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      if (socket.connected) socket.emit('unwatch', { item_id: itemId }, () => {});
    };
  }, [socket, itemId]);

  // Page room, as a visible viewer; the ack brings the current lock and presence.
  useEffect(() => {
    if (!socket || !(pageId > 0)) return;
    const watch = () =>
      socket.emit(
        'watch',
        { page_id: pageId, mode: 'viewing', item_password: getItemPassword() || undefined },
        (reply: WatchAck) => {
          if (!('ok' in reply)) return;
          setState((s) => ({
            ...s,
            lockHolder: holderOf(reply.lock),
            others: (reply.presence ?? []).filter((u) => u.uid !== selfUid),
          }));
        },
      );
    if (socket.connected) watch();
    socket.on('connect', watch);
    return () => {
      socket.off('connect', watch);
      if (socket.connected) socket.emit('unwatch', { page_id: pageId }, () => {});
    };
  }, [socket, pageId, selfUid]);

  useLiveEvent('menu:changed', (payload) => {
    if (payload.item_id === itemId) cb.current.onMenuChanged();
  });
  useLiveEvent('item:changed', (payload) => {
    if (payload.item_id === itemId) cb.current.onItemChanged();
  });
  useLiveEvent('unwatched', (payload) => {
    if (payload.item_id === itemId || payload.page_id === pageId) cb.current.onItemChanged();
  });
  useLiveEvent('page:saved', (payload) => {
    if (payload.page_id !== pageId) return;
    setState((s) => ({ ...s, saved: payload }));
  });
  useLiveEvent('page:deleted', (payload) => {
    if (payload.page_id === pageId) setState((s) => ({ ...s, deleted: true }));
  });
  useLiveEvent('lock', (payload) => {
    if (payload.page_id === pageId) setState((s) => ({ ...s, lockHolder: holderOf(payload) }));
  });
  useLiveEvent('presence', (payload) => {
    if (payload.page_id !== pageId) return;
    // An agent writing with the reader's own token is still someone else at work on the page.
    setState((s) => ({
      ...s,
      others: payload.users.filter((u) => u.uid !== selfUid || u.agent),
    }));
  });

  // Stable, so that an effect depending on it runs when a save arrives, not on every render.
  const clearSaved = useCallback(() => setState((s) => ({ ...s, saved: null })), []);
  return { ...state, clearSaved };
}
