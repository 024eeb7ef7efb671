/**
 * Who may write, decided when the editor opens and kept up to date (spec 001 §4 "Page lock"):
 * with simultaneous editing on everyone edits; otherwise the lock is asked (`isLock`) and taken,
 * and a lock held by someone else gets an alert naming them whose default is to leave — or the
 * user watches live, read-only, and takes the lock the moment the server reports it free. An
 * editor whose lock someone else now holds becomes a watcher. Offline (an item's offline copy)
 * the user edits at once and the lock is asked when the connection is back.
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isLock } from './editorApi';
import type { CollabState } from './useCollabDoc';
import type { EditorLock } from './useEditorLock';
import { useAppFeedback } from '../../components/AppFeedback';

export type Phase =
  /** Waiting for the document and the lock answer. */
  | 'opening'
  | 'editing'
  /** Someone else holds the lock: read-only, live. */
  | 'watching';

export function useLockGate({
  pageId,
  itemId,
  collab,
  lock,
  leaveNow,
}: {
  /** 0: a new page (nothing to lock: editing at once). */
  pageId: number;
  itemId: number;
  collab: CollabState;
  lock: EditorLock;
  leaveNow(): void;
}): Phase {
  const { t } = useTranslation();
  const { modal, notification } = useAppFeedback();
  const [phase, setPhase] = useState<Phase>(pageId ? 'opening' : 'editing');

  const decided = useRef(false);
  useEffect(() => {
    if (!pageId || collab.status !== 'ready' || decided.current) return;
    // Editing the offline copy: the lock is a queued intent, asked once the connection is back
    // (this effect runs again then; the reconnect sync asks it for pages no longer open).
    if (collab.offline) return setPhase('editing');
    decided.current = true;
    void (async () => {
      if (collab.coEdit) return setPhase('editing');
      const state = await isLock(pageId, itemId).catch(() => null);
      const holder =
        state && Number(state.lock) === 1 && Number(state.is_cur_user) !== 1
          ? state.lock_username
          : '';
      const refusal = holder ? holder : await lock.acquire();
      if (!refusal) return setPhase('editing');
      modal.confirm({
        title: t('editor.lock.lockedTitle'),
        content: t('editor.lock.lockedBy', { name: holder || collab.lock?.username || '' }),
        okText: t('editor.lock.leave'),
        cancelText: t('editor.lock.watch'),
        autoFocusButton: 'ok',
        onOk: () => leaveNow(),
        onCancel: () => setPhase('watching'),
      });
    })();
  }, [
    pageId,
    itemId,
    collab.status,
    collab.offline,
    collab.coEdit,
    collab.lock,
    lock,
    modal,
    t,
    leaveNow,
  ]);

  // The server's word on write access moved: a watcher learns at once that the lock is free (and
  // takes it); an editor whose lock someone else now holds becomes a watcher.
  const wasReadOnly = useRef(collab.readOnly);
  useEffect(() => {
    const before = wasReadOnly.current;
    wasReadOnly.current = collab.readOnly;
    if (collab.status !== 'ready' || collab.coEdit) return;
    if (phase === 'watching' && before && !collab.readOnly) {
      void lock.acquire().then((refusal) => {
        if (refusal) return;
        setPhase('editing');
        notification.success({
          key: 'lock-free',
          message: t('editor.lock.freeTitle'),
          description: t('editor.lock.freeText'),
        });
      });
    } else if (phase === 'editing' && !before && collab.readOnly && collab.lock) {
      setPhase('watching');
      notification.warning({
        key: 'lock-taken',
        message: t('editor.lock.takenTitle'),
        description: t('editor.lock.lockedBy', { name: collab.lock.username }),
      });
    }
  }, [collab.readOnly, collab.status, collab.coEdit, collab.lock, phase, lock, notification, t]);

  return phase;
}
