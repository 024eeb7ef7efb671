/**
 * The page lock while the editor is open (spec 001 §4): taken on open, renewed every 20 minutes,
 * released by "cancel lock", on leaving the editor, and by a beacon when the tab closes (the
 * server also releases a holder's lock a minute after their last socket went away).
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import { useAppFeedback } from '../../components/AppFeedback';
import { LOCK_RENEW_MS, releaseLock, releaseLockBeacon, setLock } from './editorApi';

export interface EditorLock {
  /** Whether we hold the page's lock. */
  held: boolean;
  /** Takes (or renews) the lock; resolves with the server's refusal message, or '' on success. */
  acquire(): Promise<string>;
  release(): Promise<void>;
}

export function useEditorLock(pageId: number, itemId: number): EditorLock {
  const [held, setHeld] = useState(false);
  const heldRef = useRef(false);
  const ids = useRef({ pageId, itemId });
  ids.current = { pageId, itemId };

  const mark = (value: boolean) => {
    heldRef.current = value;
    setHeld(value);
  };

  const acquire = useCallback(async () => {
    const { pageId: page, itemId: item } = ids.current;
    if (!page) return '';
    try {
      await setLock(page, item);
      mark(true);
      return '';
    } catch (error) {
      mark(false);
      return error instanceof ApiRequestError ? error.message : String(error);
    }
  }, []);

  const release = useCallback(async () => {
    const { pageId: page, itemId: item } = ids.current;
    if (!page || !heldRef.current) return;
    mark(false);
    try {
      await releaseLock(page, item);
    } catch {
      // the lock runs out by itself
    }
  }, []);

  // Renewal while held.
  useEffect(() => {
    if (!held) return;
    const timer = window.setInterval(() => void acquire(), LOCK_RENEW_MS);
    return () => window.clearInterval(timer);
  }, [held, acquire]);

  // Tab closed or reloaded: a beacon outlives the page. Leaving the editor inside the app: release.
  useEffect(() => {
    const onHide = () => {
      const { pageId: page, itemId: item } = ids.current;
      if (heldRef.current && page) releaseLockBeacon(page, item);
    };
    window.addEventListener('pagehide', onHide);
    return () => {
      window.removeEventListener('pagehide', onHide);
      void release();
    };
  }, [pageId, release]);

  return { held, acquire, release };
}

/** The header's "lock" and "cancel lock" buttons: take or give back the lock, and say how it went. */
export function useLockActions(lock: EditorLock): { onLock(): void; onUnlock(): void } {
  const { t } = useTranslation();
  const { modal, message } = useAppFeedback();
  return {
    onLock: () =>
      void lock.acquire().then((refusal) => {
        if (refusal) modal.error({ title: refusal });
        else void message.success(t('editor.lock.locked'));
      }),
    onUnlock: () => void lock.release().then(() => message.success(t('editor.lock.released'))),
  };
}
