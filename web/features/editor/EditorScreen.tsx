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
import { Alert, Button, Empty, Spin, Tooltip } from 'antd';
import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fetchItemInfo } from '../reader/api';
import { itemAddress, readerPath, editPagePath } from '../reader/paths';
import { useDocumentTitle } from '../reader/useDocumentTitle';
import type { ItemInfo } from '../reader/types';
import { CodeEditor } from './CodeEditor';
import type { EditorHandle, EditorPageContext } from './contract';
import { EditorHeader, type SaveState } from './EditorHeader';
import { EditorToolbar } from './EditorToolbar';
import type { PageMeta, PageMetaMode } from './PageMetaModal';
import { classifyPaste, htmlToMarkdown } from './paste';
import { useCoEditors } from './useCoEditors';
import { useCollabDoc } from './useCollabDoc';
import { useEditorDrafts } from './useEditorDrafts';
import { useEditorLock } from './useEditorLock';
import { useEditorSave, type SaveOutcome } from './useEditorSave';
import { useLockGate } from './useLockGate';
import { usePageQuota } from './usePageQuota';
import { usePreview } from './usePreview';
import { uploadPastedImage } from './assets/imageUpload';
import { OnDemand } from '../../components/OnDemand';
import { useAppFeedback } from '../../components/AppFeedback';
import { paramCompletionSource } from '../workbench/paramCompletion';

// The preview (the Markdown renderer) loads when shown: a page past the preview limit opens
// without it. The dialogs load when first opened (issue #22).
const PreviewPane = lazy(() => import('./PreviewPane').then((m) => ({ default: m.PreviewPane })));
const PageMetaModal = lazy(() =>
  import('./PageMetaModal').then((m) => ({ default: m.PageMetaModal })),
);
const NotifySaveModal = lazy(() =>
  import('./NotifySaveModal').then((m) => ({ default: m.NotifySaveModal })),
);
const PasteChoiceModal = lazy(() =>
  import('./PasteChoiceModal').then((m) => ({ default: m.PasteChoiceModal })),
);
const SaveTemplateModal = lazy(() =>
  import('./assets/SaveTemplateModal').then((m) => ({ default: m.SaveTemplateModal })),
);
const CatalogManagerModal = lazy(() =>
  import('../catalog/CatalogManagerModal').then((m) => ({ default: m.CatalogManagerModal })),
);

export interface EditorSession {
  item: ItemInfo;
  itemId: number;
  /** 0: a new page. */
  pageId: number;
  title: string;
  customId: string;
  catId: number;
  /** The saved content ('' for a new page). */
  savedContent: string;
  /** What a new page starts with (a copied page's content). */
  startContent: string;
  /** The popup to show first (new and copied pages). */
  metaMode: PageMetaMode | null;
}

export function EditorScreen({ session }: { session: EditorSession }) {
  const { t, i18n } = useTranslation();
  const { modal, message } = useAppFeedback();
  const navigate = useNavigate();
  const { item, itemId, pageId } = session;
  // Parameter names typed in an API table are completed from the item's parameter library.
  const completion = useMemo(() => paramCompletionSource(itemId), [itemId]);

  const collab = useCollabDoc(pageId);
  const lock = useEditorLock(pageId, itemId);
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
  const [metaModal, setMetaModal] = useState<{ mode: PageMetaMode; error?: string } | null>(
    session.metaMode ? { mode: session.metaMode } : null,
  );
  const [notifyOpen, setNotifyOpen] = useState(false);
  const [templateOpen, setTemplateOpen] = useState(false);
  const [paste, setPaste] = useState<{ html: string; text: string } | null>(null);
  const [managingCatalogs, setManagingCatalogs] = useState(false);
  const [catalogs, setCatalogs] = useState(item.menu?.catalogs);

  const shared = useMemo(
    () =>
      collab.status === 'ready' && collab.text && collab.provider?.awareness
        ? { text: collab.text, awareness: collab.provider.awareness }
        : null,
    [collab.status, collab.text, collab.provider],
  );
  const lockable = !!pageId && !collab.coEdit;
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

  const phase = useLockGate({ pageId, itemId, collab, lock, leaveNow });
  usePageQuota(pageId, itemId, leaveNow);
  const readOnly = !!pageId && (collab.readOnly || phase !== 'editing');

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
    unverifiedNotice: (text) => (
      <span>
        {text || t('editor.unverified.text')}{' '}
        <Link to="/user/setting">{t('editor.unverified.link')}</Link>
      </span>
    ),
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

  function leave() {
    const dirty = handleRef.current && handleRef.current.getText() !== savedContent;
    if (!dirty || phase !== 'editing') return void leaveNow();
    modal.confirm({
      title: t('editor.leave.title'),
      content: t(pageId ? 'editor.leave.sharedDraft' : 'editor.leave.localDraft'),
      okText: t('editor.leave.ok'),
      cancelText: t('editor.leave.stay'),
      onOk: () => {
        if (!pageId) keepLocalDraft();
        return leaveNow();
      },
    });
  }

  const onReady = useCallback((editor: EditorHandle) => {
    handleRef.current = editor;
    setHandle(editor);
  }, []);

  // ---------------------------------------------------------------- paste
  const onPaste = useCallback(
    (event: ClipboardEvent, editor: EditorHandle) => {
      if (!editor.isWritable()) return false;
      const kind = classifyPaste(event.clipboardData);
      if (kind.kind === 'default') return false;
      event.preventDefault();
      if (kind.kind === 'html') {
        setPaste({ html: kind.html, text: kind.text });
        return true;
      }
      const hide = message.loading(t('editor.paste.uploading'), 0);
      uploadPastedImage(kind.file, pageContext).then(
        (url) => {
          hide();
          editor.insert(`![${kind.file.name || 'image'}](${url})`);
        },
        (error: unknown) => {
          hide();
          const text = error instanceof Error && error.message ? error.message : '';
          modal.error({ title: text || t('editor.paste.uploadFailed') });
        },
      );
      return true;
    },
    // pageContext is rebuilt every render; the ids in it are what matter.
    [itemId, pageId, message, modal, t],
  );

  // Ctrl/Cmd+S anywhere on the screen (the browser's own "save page" is kept away).
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 's') {
        event.preventDefault();
        void save();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [save]);

  // ---------------------------------------------------------------- render
  if (collab.status === 'refused')
    return (
      <Empty
        style={{ marginTop: 120 }}
        description={t('editor.refused', { reason: collab.reason })}
        data-testid="editor-refused"
      >
        <Button onClick={() => void leaveNow()}>{t('editor.denied.back')}</Button>
      </Empty>
    );

  const loadingDoc = !!pageId && !shared;
  const dirty = text !== savedContent;
  const state: SaveState = saving
    ? 'saving'
    : !collab.online
      ? 'offline'
      : phase === 'watching'
        ? 'watching'
        : dirty
          ? 'dirty'
          : 'saved';

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
        catalogs={catalogs}
        catId={catId}
        coEditors={coEditors}
        state={state}
        writable={!readOnly}
        lockable={lockable}
        lockHeld={lock.held}
        onBack={leave}
        onTitle={() => setMetaModal({ mode: pageId ? 'edit' : (session.metaMode ?? 'new') })}
        onCatalog={setCatId}
        onManageCatalogs={() => setManagingCatalogs(true)}
        onSave={() => void save()}
        onSaveNotify={() => setNotifyOpen(true)}
        onSaveTemplate={() => setTemplateOpen(true)}
        onLock={() =>
          void lock.acquire().then((refusal) => {
            if (refusal) modal.error({ title: refusal });
            else void message.success(t('editor.lock.locked'));
          })
        }
        onUnlock={() => void lock.release().then(() => message.success(t('editor.lock.released')))}
      />
      <div
        data-testid="editor-toolbar"
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 2,
          padding: '2px 12px',
          background: '#fff',
          borderBottom: '1px solid #eceef2',
          flexWrap: 'wrap',
        }}
      >
        {handle && <EditorToolbar editor={handle} page={pageContext} catId={catId} />}
        <div style={{ flex: 1 }} />
        <Tooltip title={t(previewOn ? 'editor.hidePreview' : 'editor.showPreview')}>
          <Button
            type="text"
            icon={previewOn ? <EyeInvisibleOutlined /> : <EyeOutlined />}
            onClick={togglePreview}
            aria-label={t(previewOn ? 'editor.hidePreview' : 'editor.showPreview')}
            data-testid="editor-preview-toggle"
          />
        </Tooltip>
      </div>
      {phase === 'watching' && (
        <Alert
          type="info"
          showIcon
          banner
          data-testid="editor-watching"
          message={t('editor.lock.watching', { name: collab.lock?.username ?? '' })}
        />
      )}
      {liveDraftBanner && (
        <Alert
          type="warning"
          showIcon
          banner
          closable
          onClose={hideLiveDraftBanner}
          data-testid="editor-live-draft"
          message={t('editor.liveDraft.text')}
          action={
            <Button
              size="small"
              onClick={() => {
                handleRef.current?.setText(savedContent);
                hideLiveDraftBanner();
              }}
              data-testid="editor-live-draft-discard"
            >
              {t('editor.liveDraft.discard')}
            </Button>
          }
        />
      )}
      <div style={{ flex: 1, display: 'flex', minHeight: 0 }}>
        <div style={{ flex: 1, minWidth: 0, background: '#fff' }}>
          {loadingDoc ? (
            <Spin style={{ display: 'block', marginTop: 80 }} />
          ) : (
            <CodeEditor
              shared={shared}
              initial={session.startContent}
              readOnly={readOnly}
              placeholder={t('editor.placeholder')}
              onReady={onReady}
              onChange={onChange}
              onPaste={onPaste}
              completion={completion}
            />
          )}
        </div>
        {/* Shown once the editor holds the text: a page past the preview limit has turned the
            preview off by then, and its renderer is never downloaded. */}
        {previewOn && handle && (
          <div style={{ flex: 1, minWidth: 0, background: '#fff' }}>
            <Suspense fallback={null}>
              <PreviewPane source={previewText} />
            </Suspense>
          </div>
        )}
      </div>
      <OnDemand open={!!metaModal}>
        <PageMetaModal
          open={!!metaModal}
          mode={metaModal?.mode ?? 'new'}
          value={meta}
          error={metaModal?.error}
          onSubmit={(value) => {
            setMeta(value);
            setMetaModal(null);
          }}
          onCancel={() => {
            setMetaModal(null);
            // A new page without a title and page ID has nowhere to go.
            if (!pageId && (!meta.title || !meta.customId)) void leaveNow();
          }}
        />
      </OnDemand>
      <OnDemand open={notifyOpen}>
        <NotifySaveModal
          open={notifyOpen}
          onCancel={() => setNotifyOpen(false)}
          onSubmit={(remark) => {
            setNotifyOpen(false);
            void save(remark);
          }}
        />
      </OnDemand>
      <OnDemand open={templateOpen}>
        <SaveTemplateModal
          open={templateOpen}
          content={templateOpen ? (handleRef.current?.getText() ?? '') : ''}
          onClose={() => setTemplateOpen(false)}
        />
      </OnDemand>
      {managingCatalogs && (
        <Suspense fallback={null}>
          <CatalogManagerModal
            itemId={itemId}
            open
            onClose={() => {
              setManagingCatalogs(false);
              // The chooser offers what the manager left (new, renamed, moved catalogs).
              void fetchItemInfo(String(itemId)).then(
                (info) => setCatalogs(info.menu?.catalogs),
                () => {},
              );
            }}
          />
        </Suspense>
      )}
      <OnDemand open={!!paste}>
        <PasteChoiceModal
          open={!!paste}
          onCancel={() => setPaste(null)}
          onText={() => {
            handleRef.current?.insert(paste!.text);
            setPaste(null);
          }}
          onMarkdown={() => {
            const html = paste!.html;
            setPaste(null);
            void htmlToMarkdown(html).then((md) => handleRef.current?.insert(md));
          }}
        />
      </OnDemand>
    </div>
  );
}
