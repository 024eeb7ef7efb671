/**
 * The reader for one item: loads it and the open page, follows live changes, and picks the view
 * by item type — regular (0, 1, 3), single page (2), spreadsheet (4), whiteboard (5) and kanban
 * board (6), the last three in their own chunks.
 */
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useLogin } from '../../auth/useLogin';
import { pageMarkdown, unescapeHtml } from '../../markdown';
import { resolvePageId } from './api';
import { apiLabels } from './apiLabels';
import type { ReaderDialog } from './dialogs';
import { HeaderActions } from './HeaderActions';
import { findPage, firstPage } from './menu';
import { itemAddress, readerPath } from './paths';
import { RegularView } from './RegularView';
import { SinglePageView } from './SinglePageView';
import type { ItemInfo } from './types';
import { useDocumentTitle } from './useDocumentTitle';
import { useItem } from './useItem';
import { usePage } from './usePage';
import { useReaderLive } from './useReaderLive';
import { Watermark } from './Watermark';
import { LazyResult } from '../../components/LazyResult';
import { Placeholder } from '../../components/Placeholder';
import { ITEM_LOAD_OVERLAY_MS, LoadingOverlay } from '../../components/LoadingOverlay';
import { ReadsContext } from '../reads/context';
import { useReadTracking } from '../reads/useReadTracking';

// The dialogs' host too: a reader who opens none never downloads it.
const ReaderDialogs = lazy(() =>
  import('./ReaderDialogs').then((m) => ({ default: m.ReaderDialogs })),
);
const SpreadsheetView = lazy(() => import('../sheet/SpreadsheetView'));
const WhiteboardView = lazy(() => import('../whiteboard/WhiteboardView'));
const KanbanView = lazy(() => import('../kanban/KanbanView'));
// Logged-in readers only: "show changes" since the last read and after live saves.
const ReadChanges = lazy(() => import('../reads/ReadChanges'));
// Shown only when the live connection has news (never to an anonymous reader): loaded then.
const LiveNotes = lazy(() => import('./LiveNotes').then((m) => ({ default: m.LiveNotes })));

const SINGLE_PAGE = '2';
const SPREADSHEET = '4';
const WHITEBOARD = '5';
/** A kanban item shows its board, never one of its pages. */
const KANBAN = '6';
/** Scrolled less than this: a newer version replaces the page at once instead of asking. */
const UNSCROLLED_PX = 40;

function numeric(value: string | undefined): number {
  return value && /^\d{1,15}$/.test(value) ? Number(value) : 0;
}

/** The page to open: the asked one when it is in the menu, else resolved by the server. */
function usePageId(
  item: ItemInfo | null,
  pageParam: string | undefined,
  onUnknown: () => void,
): number {
  const [pageId, setPageId] = useState(0);
  useEffect(() => {
    if (!item) return;
    if (item.item_type === KANBAN) {
      setPageId(0);
      return;
    }
    const single =
      item.item_type === SINGLE_PAGE ||
      item.item_type === SPREADSHEET ||
      item.item_type === WHITEBOARD;
    if (!pageParam || single) {
      setPageId(
        Number(
          (single ? (item.menu.pages[0] ?? firstPage(item.menu)) : firstPage(item.menu))?.page_id ??
            0,
        ),
      );
      return;
    }
    const asked = numeric(pageParam);
    if (asked && findPage(item.menu, asked)) {
      setPageId(asked);
      return;
    }
    let current = true;
    resolvePageId(item.item_id, pageParam).then(
      (id) => current && setPageId(id),
      () => current && onUnknown(),
    );
    return () => {
      current = false;
    };
  }, [item, pageParam, onUnknown]);
  return pageId;
}

export function ReaderScreen({
  itemParam,
  pageParam,
  lang,
}: {
  itemParam: string;
  pageParam: string | undefined;
  lang?: string;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const { state: itemState, refresh } = useItem(itemParam, numeric(pageParam));
  const item = itemState.status === 'ready' ? itemState.item : null;
  const toItemRoot = useCallback(() => {
    void navigate(readerPath(itemParam, null, lang), { replace: true });
  }, [navigate, itemParam, lang]);
  const pageId = usePageId(item, pageParam, toItemRoot);
  const { state: pageState, reload } = usePage(pageId);
  const page = pageState.status === 'ready' ? pageState.page : null;
  const [dialog, setDialog] = useState<ReaderDialog | null>(null);
  // Mounted from the first dialog on, so that a closing dialog can finish closing.
  const [dialogsWanted, setDialogsWanted] = useState(false);
  if (dialog && !dialogsWanted) setDialogsWanted(true);
  const closeDialog = useCallback(() => setDialog(null), []);

  const live = useReaderLive(Number(item?.item_id ?? 0), pageId, Number(login?.uid ?? 0), {
    onMenuChanged: () => void refresh(),
    onItemChanged: () => void refresh(),
  });
  const { saved, clearSaved } = live;
  const isSheet = item?.item_type === SPREADSHEET;
  const reads = useReadTracking(Number(item?.item_id ?? 0), item?.menu ?? null, page, !!login);
  // Decided once per save, when it arrives: a reader who has scrolled keeps the note until they
  // choose to reload, even after scrolling back up and whatever else re-renders the screen.
  const decidedSave = useRef<typeof saved>(null);
  useEffect(() => {
    if (!saved || decidedSave.current === saved) return;
    decidedSave.current = saved;
    // A spreadsheet follows saves cell by cell itself (sheet:changed).
    if (isSheet) clearSaved();
    else if (window.scrollY < UNSCROLLED_PX) {
      clearSaved();
      reload();
    }
  }, [saved, clearSaved, reload, isSheet]);

  useDocumentTitle(
    item
      ? page && item.item_type !== SINGLE_PAGE
        ? `${page.page_title} - ${item.item_name}`
        : item.item_name
      : null,
  );

  const labels = useMemo(() => apiLabels(t), [t]);
  const source = useMemo(() => {
    if (!page) return '';
    const globals = item && !Array.isArray(item.global_param) ? item.global_param : {};
    return pageMarkdown(unescapeHtml(page.page_content), labels, globals);
  }, [page, item, labels]);

  if (itemState.status === 'error')
    return (
      <LazyResult
        status="warning"
        title={t('reader.itemUnavailable')}
        subTitle={itemState.message}
      />
    );
  if (!item)
    return (
      <>
        <Placeholder padded />
        <LoadingOverlay active limitMs={ITEM_LOAD_OVERLAY_MS} label={t('reader.loadingItem')} />
      </>
    );

  const loggedIn = !!login;
  const hasNotes = !!live.lockHolder || live.others.length > 0 || !!live.saved || live.deleted;
  const notes = (
    <>
      {hasNotes && (
        <Suspense fallback={null}>
          <LiveNotes
            lockHolder={live.lockHolder}
            others={live.others}
            saved={live.saved}
            deleted={live.deleted}
            onReload={() => {
              live.clearSaved();
              reload();
            }}
          />
        </Suspense>
      )}
      {login && page && (
        <Suspense fallback={null}>
          <ReadChanges
            key={page.page_id}
            pageId={Number(page.page_id)}
            version={page.addtime_unix ?? 0}
            changedAtOpen={reads.changedAtOpen(page.page_id)}
            selfUid={Number(login.uid)}
          />
        </Suspense>
      )}
    </>
  );
  const open = (which: ReaderDialog) => setDialog(which);
  const address = itemAddress(item);

  let view;
  if (item.item_type === KANBAN)
    view = (
      <Suspense fallback={<Placeholder padded />}>
        <KanbanView
          item={item}
          openTask={numeric(pageParam)}
          selfUid={Number(login?.uid ?? 0)}
          actions={<HeaderActions item={item} pageId={0} loggedIn={loggedIn} simple open={open} />}
        />
      </Suspense>
    );
  else if (item.item_type === WHITEBOARD)
    view = (
      <Suspense fallback={<Placeholder padded />}>
        {page ? (
          <WhiteboardView
            key={page.page_id}
            item={item}
            page={page}
            loggedIn={loggedIn}
            actions={
              <HeaderActions item={item} pageId={pageId} loggedIn={loggedIn} simple open={open} />
            }
          />
        ) : (
          <Placeholder padded />
        )}
      </Suspense>
    );
  else if (item.item_type === SINGLE_PAGE || item.item_type === SPREADSHEET) {
    const actions = (
      <HeaderActions item={item} pageId={pageId} loggedIn={loggedIn} simple open={open} />
    );
    if (item.item_type === SPREADSHEET)
      view = (
        <Suspense fallback={<Placeholder padded />}>
          {page ? (
            <SpreadsheetView
              key={page.page_id}
              item={item}
              page={page}
              selfUid={Number(login?.uid ?? 0)}
              selfName={login?.username ?? ''}
              lockHolder={live.lockHolder}
              actions={actions}
              reload={reload}
            />
          ) : (
            <Placeholder padded />
          )}
        </Suspense>
      );
    else
      view = page ? (
        <SinglePageView
          title={page.page_title}
          headerTitle={item.item_name}
          source={source}
          actions={actions}
          notes={notes}
          attachmentCount={Number(page.attachment_count) || 0}
          onAttachments={() => open('attachments')}
        />
      ) : (
        <Placeholder padded />
      );
  } else
    view = (
      <RegularView
        item={item}
        pageId={pageId}
        pageState={pageState}
        source={source}
        loggedIn={loggedIn}
        notes={notes}
        open={open}
        onOpenPage={(id) => void navigate(readerPath(address, id, lang), { replace: true })}
        onPageDeleted={() => {
          void navigate(readerPath(address, null, lang), { replace: true });
          void refresh();
        }}
        onMenuChanged={refresh}
      />
    );

  return (
    <ReadsContext.Provider value={reads}>
      {view}
      {login && item.show_watermark === 1 && (
        <Watermark username={login.username} name={login.name} />
      )}
      {dialogsWanted && (
        <Suspense fallback={null}>
          <ReaderDialogs
            dialog={dialog}
            item={item}
            page={page}
            onClose={closeDialog}
            onItemChanged={() => void refresh()}
            onShareKeyChange={() => reload()}
          />
        </Suspense>
      )}
    </ReadsContext.Provider>
  );
}
