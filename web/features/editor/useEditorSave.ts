/**
 * Saving in the editor (spec 001 §8, §9): one save at a time, the button freed after SAVE_GUARD_MS
 * if no answer comes, 'saved' once the server stored it, alerts for failures. An open page is
 * saved as a command on its live document (liveSave.ts: the server stores the shared text); a new
 * page, which has no document yet, is created over REST page/save with the text on screen.
 * Editing an offline copy, saving is queued: the reconnect sync (web/features/offline/sync.ts)
 * saves the merged text, with a "save and notify" text given offline.
 */
import { useCallback, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import type { EditorHandle } from './contract';
import { savePage } from './editorApi';
import { saveLive } from './liveSave';
import type { PageMeta } from './PageMetaModal';
import type { CollabState } from './useCollabDoc';
import { useAppFeedback } from '../../components/AppFeedback';
import { queueNotice } from '../offline/store';

/** One save at a time; a save that never answers frees the button after this (spec §9). */
export const SAVE_GUARD_MS = 10_000;
/** Saved, but the account has no verified e-mail (spec §8). */
export const UNVERIFIED_EMAIL = 10250;
const ID_TAKEN = /already exists|已存在/i;

export interface SaveOutcome {
  /** The page's id (a new page's first save makes it). */
  pageId: number;
  /** The text the server stored. */
  content: string;
  /** "Save and notify" was used. */
  notified: boolean;
}

export interface EditorSave {
  save(notify?: string): Promise<void>;
  saving: boolean;
  /** The text last stored (what 'dirty' compares with). */
  savedContent: string;
}

export function useEditorSave(options: {
  pageId: number;
  itemId: number;
  meta: PageMeta;
  catId: number;
  collab: CollabState;
  handleRef: RefObject<EditorHandle | null>;
  initialSaved: string;
  /** Title or page ID missing: ask for them (nothing is sent). */
  onNeedMeta(): void;
  /** The page ID is taken: ask for another one (`message` says so). */
  onIdTaken(message: string): void;
  onSaved(outcome: SaveOutcome): void;
  /** Shown as a notice that stays (the unverified e-mail warning). */
  unverifiedNotice(message: string): ReactNode;
}): EditorSave {
  const { t } = useTranslation();
  const { modal, notification, message } = useAppFeedback();
  const [saving, setSaving] = useState(false);
  const savingRef = useRef(false);
  const [savedContent, setSavedContent] = useState(options.initialSaved);
  const latest = useRef(options);
  latest.current = options;

  const save = useCallback(
    async (notify?: string) => {
      const { pageId, itemId, meta, catId, collab, handleRef } = latest.current;
      const editor = handleRef.current;
      if (!editor || savingRef.current || !editor.isWritable()) return;
      if (!meta.title || !meta.customId) return latest.current.onNeedMeta();
      // The offline copy: the text is kept here and saved (with its notice) on reconnect.
      if (collab.offline) {
        if (notify !== undefined) queueNotice(pageId, notify);
        void message.info(t('offline.savedLater'));
        return;
      }
      savingRef.current = true;
      setSaving(true);
      const guard = window.setTimeout(() => {
        savingRef.current = false;
        setSaving(false);
      }, SAVE_GUARD_MS);
      let content = editor.getText();
      const done = (id: number) => {
        setSavedContent(content);
        latest.current.onSaved({ pageId: id, content, notified: notify !== undefined });
      };
      try {
        if (pageId && collab.provider) {
          if (!collab.online) throw new ApiRequestError(0, t('editor.saveOffline'), 'collab/save');
          const stored = await saveLive(
            collab.provider,
            { title: meta.title, catId, customId: meta.customId, notify },
            t('editor.saveOffline'),
          );
          content = stored.content;
          done(stored.pageId);
        } else {
          const id = await savePage({
            pageId,
            itemId,
            title: meta.title,
            content,
            catId,
            customId: meta.customId,
            notify,
          });
          done(id);
        }
      } catch (error) {
        const failure = error instanceof ApiRequestError ? error : null;
        if (failure?.code === UNVERIFIED_EMAIL) {
          done(pageId);
          notification.warning({
            key: 'unverified',
            duration: 0,
            message: t('editor.unverified.title'),
            description: latest.current.unverifiedNotice(failure.message),
          });
        } else if (failure && ID_TAKEN.test(failure.message)) {
          latest.current.onIdTaken(failure.message);
        } else {
          modal.error({ title: t('editor.saveFailed'), content: (error as Error).message });
        }
      } finally {
        window.clearTimeout(guard);
        savingRef.current = false;
        setSaving(false);
      }
    },
    [modal, notification, message, t],
  );

  return { save, saving, savedContent };
}
