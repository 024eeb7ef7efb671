/**
 * Drafts in the editor (spec 001 §4). The shared document is the server's live draft: when it
 * opens with text that differs from the saved page and nobody else is editing, a banner says so
 * (`liveDraftBanner`). The local draft is written every 30 s while editing (one timer for the
 * session: typing must not restart it) and offered back once, when the editor is ready, if it
 * differs from what the editor shows.
 */
import { useCallback, useEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import type { EditorHandle } from './contract';
import {
  draftKey,
  DRAFT_INTERVAL_MS,
  readDraft,
  removeDraft,
  shouldOfferDraft,
  writeDraft,
} from './localDraft';
import type { Phase as LockPhase } from './useLockGate';
import { useAppFeedback } from '../../components/AppFeedback';

export interface EditorDrafts {
  liveDraftBanner: boolean;
  hideLiveDraftBanner(): void;
  /** Keeps the editor's text as this browser's draft now (leaving a page never saved). */
  keepLocalDraft(): void;
  /** After a save: both drafts of the page (and of a new page's first id) are gone. */
  saved(pageId: number): void;
}

export function useEditorDrafts(options: {
  itemId: number;
  pageId: number;
  handle: EditorHandle | null;
  handleRef: RefObject<EditorHandle | null>;
  phase: LockPhase;
  /** A dialog that must be answered first (the page title and ID) is open. */
  waiting: boolean;
  title: string;
  savedContent: string;
  coEditorCount: number;
  /** A restored draft of a new page brings its title back. */
  onRestoreTitle(title: string): void;
}): EditorDrafts {
  const { t } = useTranslation();
  const { modal } = useAppFeedback();
  const { itemId, pageId, handle, phase, waiting, savedContent, coEditorCount } = options;
  const storageKey = draftKey(itemId, pageId);
  const [liveDraftBanner, setLiveDraftBanner] = useState(false);
  const latest = useRef(options);
  latest.current = options;

  const checked = useRef(false);
  useEffect(() => {
    if (!handle || checked.current || phase !== 'editing' || waiting) return;
    checked.current = true;
    const current = handle.getText();
    if (pageId && current !== savedContent && coEditorCount === 0) setLiveDraftBanner(true);
    const draft = readDraft(storageKey);
    if (!draft || !shouldOfferDraft(draft, current, !pageId)) {
      if (draft) removeDraft(storageKey);
      return;
    }
    modal.confirm({
      title: t('editor.draft.title'),
      content: t('editor.draft.question', { time: new Date(draft.at).toLocaleString() }),
      okText: t('editor.draft.restore'),
      cancelText: t('editor.draft.discard'),
      onOk: () => {
        removeDraft(storageKey);
        // The editor as it is now (the view may have been rebuilt while the question was open).
        (latest.current.handleRef.current ?? handle).setText(draft.content);
        if (!pageId && draft.title && !latest.current.title)
          latest.current.onRestoreTitle(draft.title);
      },
      onCancel: () => removeDraft(storageKey),
    });
  }, [handle, phase, waiting, pageId, savedContent, coEditorCount, storageKey, modal, t]);

  useEffect(() => {
    if (phase !== 'editing') return;
    const timer = window.setInterval(() => {
      const editor = latest.current.handleRef.current;
      if (!editor) return;
      const content = editor.getText();
      if (content !== latest.current.savedContent)
        writeDraft(storageKey, { content, title: latest.current.title, at: Date.now() });
    }, DRAFT_INTERVAL_MS);
    return () => window.clearInterval(timer);
  }, [phase, storageKey]);

  const keepLocalDraft = useCallback(() => {
    const editor = latest.current.handleRef.current;
    if (editor)
      writeDraft(storageKey, {
        content: editor.getText(),
        title: latest.current.title,
        at: Date.now(),
      });
  }, [storageKey]);

  const saved = useCallback(
    (id: number) => {
      removeDraft(storageKey);
      removeDraft(draftKey(itemId, id));
      setLiveDraftBanner(false);
    },
    [storageKey, itemId],
  );

  return {
    liveDraftBanner,
    hideLiveDraftBanner: useCallback(() => setLiveDraftBanner(false), []),
    keepLocalDraft,
    saved,
  };
}
