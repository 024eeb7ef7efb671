/**
 * The spreadsheet's edit lock (spec 002 §4, §9): on opening, an item editor takes the lock when
 * nobody else holds it (or it is already theirs) and renews it every 180 s; leaving releases it
 * with lock_to=1000, and closing the tab by a beacon carrying the token in its body. While another
 * member holds it the sheet stays read-only, and every attempt to edit names the holder.
 */
import { App } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { request } from '../../api/request';
import { isLock, releaseLock, releaseLockBeacon } from '../editor/editorApi';

export const SHEET_LOCK_RENEW_MS = 180_000;

export interface SheetLock {
  /** This view holds the lock (editing is on). */
  held: boolean;
  /**
   * Called when the user tries to edit without the lock: takes it when free (true), else names
   * the holder (false).
   */
  tryEdit(): Promise<boolean>;
}

/** Takes or renews the lock for the server's default time (as ShowDoc's spreadsheet does). */
const takeLock = (pageId: number, itemId: number) =>
  request<unknown>('page/setLock', { page_id: pageId, item_id: itemId }, { alert: false });

export function useSheetLock(
  pageId: number,
  itemId: number,
  canEdit: boolean,
  /** The holder's username as the live `lock` pushes say, and this user's. */
  live: { holder: string | null; self: string },
): SheetLock {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [held, setHeld] = useState(false);
  const heldRef = useRef(false);
  const busy = useRef(false);
  const mark = (value: boolean) => {
    heldRef.current = value;
    setHeld(value);
  };
  // Read through a ref: a new translation function must not re-run the lock effects (their
  // cleanup releases the lock).
  const say = useRef({ t, message });
  say.current = { t, message };

  /** Asks who holds the lock; takes it when nobody else does. */
  const claim = useCallback(
    async (announce: boolean): Promise<boolean> => {
      if (heldRef.current) return true;
      if (busy.current || !canEdit || !(pageId > 0)) return false;
      busy.current = true;
      try {
        const state = await isLock(pageId, itemId);
        if (state.lock > 0 && state.is_cur_user <= 0) {
          mark(false);
          const { t: tr, message: m } = say.current;
          void m.error(tr('sheet.lockedBy', { name: state.lock_username }));
          return false;
        }
        await takeLock(pageId, itemId);
        mark(true);
        if (announce) void say.current.message.success(say.current.t('sheet.editingNow'));
        return true;
      } catch {
        mark(false);
        return false;
      } finally {
        busy.current = false;
      }
    },
    [canEdit, pageId, itemId],
  );

  useEffect(() => {
    void claim(false);
  }, [claim]);

  // Someone else holds it now (ours ran out while this tab slept): editing stops here too.
  useEffect(() => {
    if (heldRef.current && live.holder && live.holder !== live.self) mark(false);
  }, [live.holder, live.self]);

  useEffect(() => {
    if (!held) return;
    const timer = window.setInterval(
      () => void takeLock(pageId, itemId).catch(() => mark(false)),
      SHEET_LOCK_RENEW_MS,
    );
    return () => window.clearInterval(timer);
  }, [held, pageId, itemId]);

  useEffect(() => {
    // beforeunload as ShowDoc does, and pagehide for the closes that skip it (a second release
    // is harmless: the server ignores a release of a lock one does not hold).
    const onLeave = () => {
      if (heldRef.current) releaseLockBeacon(pageId, itemId);
    };
    const onHide = () => {
      onLeave();
      heldRef.current = false;
    };
    const onShow = (event: PageTransitionEvent) => {
      // Back from the back/forward cache: the lock was released, take it again.
      if (event.persisted) void claim(false);
    };
    window.addEventListener('beforeunload', onLeave);
    window.addEventListener('pagehide', onHide);
    window.addEventListener('pageshow', onShow);
    return () => {
      window.removeEventListener('beforeunload', onLeave);
      window.removeEventListener('pagehide', onHide);
      window.removeEventListener('pageshow', onShow);
      if (heldRef.current) {
        heldRef.current = false;
        void releaseLock(pageId, itemId).catch(() => {});
      }
    };
  }, [pageId, itemId, claim]);

  const tryEdit = useCallback(() => claim(true), [claim]);

  return { held, tryEdit };
}
