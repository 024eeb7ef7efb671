/**
 * The page editor (spec 001 §2 "Page editor", §4, §5, §8, §9): a full-screen Markdown editor with
 * live preview, bound to the page's shared Yjs document so that locks, drafts and co-editing are
 * live.
 *
 * Opening an existing page: the document connects; unless the item has simultaneous editing on,
 * the lock is asked (`isLock`). Held by someone else → an alert with their name whose default is to
 * leave; the other choice watches the page live, read-only, until the server says the lock is free
 * (then we take it and may write). Otherwise we take the lock, renew it every 20 minutes and give
 * it back on "cancel lock", on leaving and when the tab closes.
 *
 * Drafts: the shared document is the server's live draft — a crash or another device opens the
 * same unsaved text, and a banner says so. The local draft (every 30 s) is offered back when it
 * differs (useEditorDrafts). Saving (useEditorSave): one at a time (10 s guard), 'saved', drafts
 * cleared; an open page is saved as a command on its live document, a new page's first save
 * (REST) moves the address to its page ID and the session becomes shared. This screen wires those
 * hooks, the lock gate (useEditorLock, useLockGate) and the preview (usePreview) to the view.
 */
import { useCallback, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { itemAddress, readerPath, editPagePath } from '../reader/paths';
import { useDocumentTitle } from '../reader/useDocumentTitle';
import type { EditorHandle, EditorPageContext } from './contract';
import { EditorBanners, EditorRefused, EditorToolRow, UnverifiedNotice } from './EditorBars';
import { EditorDialogs, useEditorDialogs } from './EditorDialogs';
import { EditorHeader, saveStateOf } from './EditorHeader';
import { EditorPanes } from './EditorPanes';
import type { PageMeta } from './PageMetaModal';
import { useCoEditors } from './useCoEditors';
import { useSharedText } from './useCollabDoc';
import { useEditorDrafts } from './useEditorDrafts';
import { useEditorLock, useLockActions } from './useEditorLock';
import { useEditorPaste } from './useEditorPaste';
import { useEditorSave, type SaveOutcome } from './useEditorSave';
import { useKeptCollabDoc } from './useKeptCollabDoc';
import { useLeaveEditor } from './useLeaveEditor';
import { useLockGate } from './useLockGate';
import { usePageQuota } from './usePageQuota';
import { usePreview } from './usePreview';
import { useSaveShortcut } from './useSaveShortcut';
import { useAppFeedback } from '../../components/AppFeedback';
import { paramCompletionSource } from '../workbench/paramCompletion';
import { useEditorSuggest } from '../suggest/useEditorSuggest';
import type { EditorSession } from './editorSession';

export type { EditorSession } from './editorSession';

export function EditorScreen({ session }: { session: EditorSession }) {
  const { t, i18n } = useTranslation();
  const { message } = useAppFeedback();
  const navigate = useNavigate();
  const { item, itemId, pageId } = session;
  // Parameter names typed in an API table are completed from the item's parameter library.
  const completion = useMemo(() => paramCompletionSource(itemId), [itemId]);

  const { collab, pending } = useKeptCollabDoc(session);
  // Suggesting only: the text is never written, so there is no lock to take.
  const lockPageId = session.suggestOnly ? 0 : pageId;
  const lock = useEditorLock(lockPageId, itemId);
  const coEditors = useCoEditors(collab.provider, collab.me?.id ?? null);
  const { text, previewText, previewOn, togglePreview, onChange } = usePreview(
    itemId,
    pageId,
    session.startContent,
  );

  const [handle, setHandle] = useState<EditorHandle | null>(null);
  const handleRef = useRef<EditorHandle | null>(null);
  const [meta, setMeta] = useState<PageMeta>({ title: session.title, customId: session.customId });
  const [catId, setCatId] = useState(session.catId);
  pending.current = { title: meta.title, catId, customId: meta.customId };
  const dialogs = useEditorDialogs(session.metaMode, item.menu?.catalogs);
  const { metaModal, setMetaModal } = dialogs;

  const shared = useSharedText(collab);
  const lockable = !!pageId && !collab.coEdit && !session.suggestOnly;
  const address = itemAddress(item);
  useDocumentTitle(t('editor.documentTitle', { title: meta.title || t('editor.untitled') }));

  const pageContext: EditorPageContext = {
    itemId,
    pageId,
    pageTitle: meta.title,
    canManage: item.item_manage,
    locale: i18n.language,
  };

  // ---------------------------------------------------------------- leaving
  const leaveNow = useCallback(
    async (target?: string) => {
      await lock.release();
      void navigate(target ?? readerPath(address, pageId ? meta.customId || pageId : null));
    },
    [lock, navigate, address, pageId, meta.customId],
  );

  const phase = useLockGate({ pageId: lockPageId, itemId, collab, lock, leaveNow });
  usePageQuota(pageId, itemId, leaveNow);
  // Suggesting never writes the shared text (suggestExtension cancels every local change), so it
  // also works while the text is read-only to us: watching a locked page, a read-only member.
  const suggest = useEditorSuggest(pageId, session.suggestOnly);
  const suggesting = suggest.suggesting;
  const readOnly = !!pageId && !suggesting && (collab.readOnly || phase !== 'editing');

  // ---------------------------------------------------------------- saving, drafts
  // Drafts compare with what the save hook last stored, and a save clears them: the save hook
  // reaches the drafts through this ref (set on every render, below).
  const drafts = useRef<ReturnType<typeof useEditorDrafts> | null>(null);
  const onSaved = ({ pageId: id, notified }: SaveOutcome) => {
    drafts.current?.saved(id);
    if (notified) return void leaveNow(readerPath(address, meta.customId || id));
    message.success(t('editor.saved'));
    if (!pageId) void navigate(editPagePath(itemId, meta.customId || id), { replace: true });
  };
  const { save, saving, savedContent } = useEditorSave({
    pageId,
    itemId,
    meta,
    catId,
    collab,
    handleRef,
    initialSaved: session.savedContent,
    onNeedMeta: () => setMetaModal({ mode: pageId ? 'edit' : 'new' }),
    onIdTaken: (error) => {
      setMeta((m) => ({ ...m, customId: '' }));
      setMetaModal({ mode: pageId ? 'edit' : 'new', error });
    },
    onSaved,
    unverifiedNotice: (text) => <UnverifiedNotice text={text} />,
  });
  drafts.current = useEditorDrafts({
    itemId,
    pageId,
    handle,
    handleRef,
    phase,
    waiting: !!metaModal,
    title: meta.title,
    savedContent,
    coEditorCount: coEditors.filter((person) => !person.agent).length,
    onRestoreTitle: (title) => setMeta((m) => ({ ...m, title })),
  });
  const { liveDraftBanner, hideLiveDraftBanner, keepLocalDraft } = drafts.current;

  const leaveOptions = { pageId, handleRef, savedContent, phase, keepLocalDraft, leaveNow };
  const leave = useLeaveEditor(leaveOptions);
  const lockActions = useLockActions(lock);

  const onReady = useCallback((editor: EditorHandle) => {
    handleRef.current = editor;
    setHandle(editor);
  }, []);

  const onPaste = useEditorPaste(pageContext, dialogs.setPaste);
  useSaveShortcut(save);

  // ---------------------------------------------------------------- render
  if (collab.status === 'refused')
    return <EditorRefused reason={collab.reason} onBack={() => void leaveNow()} />;

  const loadingDoc = !!pageId && !shared;
  const watching = phase === 'watching';
  const dirty = text !== savedContent;
  const state = saveStateOf({ saving, online: collab.online, watching, dirty });

  return (
    <div
      data-testid="editor-screen"
      data-ready={handle && !loadingDoc && phase !== 'opening' ? 'true' : 'false'}
      data-phase={phase}
      style={{
        position: 'fixed',
        inset: 0,
        display: 'flex',
        flexDirection: 'column',
        background: '#f5f6f8',
        zIndex: 10,
      }}
    >
      <EditorHeader
        title={meta.title}
        catalogs={dialogs.catalogs}
        catId={catId}
        coEditors={coEditors}
        state={state}
        writable={!readOnly && !session.suggestOnly}
        lockable={lockable}
        lockHeld={lock.held}
        onBack={leave}
        onTitle={() => setMetaModal({ mode: pageId ? 'edit' : (session.metaMode ?? 'new') })}
        onCatalog={setCatId}
        onManageCatalogs={() => dialogs.setManagingCatalogs(true)}
        onSave={() => void save()}
        onSaveNotify={() => dialogs.setNotifyOpen(true)}
        onSaveTemplate={() => dialogs.setTemplateOpen(true)}
        onLock={lockActions.onLock}
        onUnlock={lockActions.onUnlock}
      />
      <EditorToolRow
        handle={handle}
        page={pageContext}
        catId={catId}
        previewOn={previewOn}
        togglePreview={togglePreview}
        extra={suggest.toolbarSwitch}
      />
      <EditorBanners
        watching={watching ? (collab.lock?.username ?? '') : null}
        liveDraft={!!liveDraftBanner}
        hideLiveDraft={hideLiveDraftBanner}
        discardLiveDraft={() => {
          handleRef.current?.setText(savedContent);
          hideLiveDraftBanner();
        }}
      />
      <EditorPanes
        loading={loadingDoc}
        showPreview={previewOn && !!handle}
        previewText={previewText}
        shared={shared}
        initial={session.startContent}
        readOnly={readOnly}
        placeholder={t('editor.placeholder')}
        onReady={onReady}
        onChange={onChange}
        onPaste={onPaste}
        completion={completion}
        extensions={suggest.extension}
        side={suggest.sidePanel}
      />
      <EditorDialogs
        itemId={itemId}
        pageId={pageId}
        handleRef={handleRef}
        meta={meta}
        setMeta={setMeta}
        dialogs={dialogs}
        save={save}
        leaveNow={leaveNow}
      />
    </div>
  );
}
