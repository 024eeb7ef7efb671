/**
 * The regular item view (types 0, 1 and 3; spec 001 §2 "Page viewing screen"): header with the
 * icons of the viewer's role, the searchable catalog tree with the editors' bottom bar, the page,
 * its table of contents and a back-to-top button. Full screen hides the header, menu and table
 * of contents, narrows the page and enlarges its text. Under 1000 px the menu and languages move
 * into drawers behind a compact header.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Tooltip } from 'antd';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import type { TocEntry } from '../../markdown';
import { CatalogTree } from './CatalogTree';
import type { ReaderDialog } from './dialogs';
import { HeaderActions } from './HeaderActions';
import { LazyEmpty } from '../../components/LazyEmpty';
import { Placeholder } from '../../components/Placeholder';
import { isEmptyMenu } from './menu';
import { PageArticle } from './PageArticle';
import { editPagePath } from './paths';
import { TOC_WIDTH, TocPanel } from './TocPanel';
import './reader.css';
import type { ItemInfo, PageInfo } from './types';
import type { PageState } from './usePage';
import { MOBILE_BELOW, MOBILE_HEADER_HEIGHT, useIsMobile } from './useViewport';
import { useWindowHeight } from './useWindowHeight';
import { LazyBackTop } from '../../components/LazyBackTop';
import { LazyResult } from '../../components/LazyResult';
import { ReadSummary } from '../reads/ReadSummary';
import { useLiveEvent } from '../../live/useLiveEvent';

// Only items whose pages carry API contract marks load the banner (and ask for marks).
const ContractMark = lazy(() =>
  import('./ContractMark').then((m) => ({ default: m.ContractMark })),
);

// Neither is on an anonymous desktop reader's first paint: the mobile header (drawers, menu) and
// the editors' bar (its dropdown menu) load when they are shown.
const MobileHeader = lazy(() => import('./MobileHeader'));
const EditorBar = lazy(() => import('./EditorBar').then((m) => ({ default: m.EditorBar })));

const PageExtras = lazy(() => import('../comments/PageExtras'));
// Only a page with suggestions (or one that gets some while open) loads their list.
const ReaderSuggestions = lazy(() => import('../suggest/ReaderSuggestions'));

export const HEADER_HEIGHT = 56;
const SIDEBAR_WIDTH = 280;
/** Search box + editor bar + paddings around the tree. */
const SIDEBAR_CHROME = 40 + 48 + 32;

export function RegularView({
  item,
  pageId,
  pageState,
  source,
  loggedIn,
  notes,
  onOpenPage,
  onPageDeleted,
  onMenuChanged,
  open,
}: {
  item: ItemInfo;
  pageId: number;
  pageState: PageState;
  /** The open page's Markdown (un-escaped, API documents converted). */
  source: string;
  loggedIn: boolean;
  notes: ReactNode;
  onOpenPage: (pageId: string) => void;
  onPageDeleted: () => void;
  /** Re-reads the item after an editor changed its tree. */
  onMenuChanged: () => Promise<unknown>;
  open: (dialog: ReaderDialog) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const mobile = useIsMobile();
  const windowHeight = useWindowHeight();
  const [fullscreen, setFullscreen] = useState(false);
  const [tocOpen, setTocOpen] = useState(() => window.innerWidth > MOBILE_BELOW);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const [drawer, setDrawer] = useState(false);
  const page: PageInfo | null = pageState.status === 'ready' ? pageState.page : null;
  const wide = fullscreen && !mobile;
  const [suggestedOn, setSuggestedOn] = useState(0);
  useLiveEvent('page:suggestions', (payload) => setSuggestedOn(payload.page_id));
  const showSuggestions =
    !!page && ((page.suggestion_count ?? 0) > 0 || suggestedOn === Number(page.page_id));

  const tree = (height: number) => (
    <CatalogTree
      itemId={item.item_id}
      menu={item.menu}
      currentPageId={pageId}
      height={height}
      onMenuChanged={item.item_edit ? onMenuChanged : undefined}
      onOpenPage={(id) => {
        setDrawer(false);
        onOpenPage(id);
      }}
    />
  );

  let body: ReactNode;
  if (isEmptyMenu(item.menu))
    body = (
      <LazyEmpty
        description={t('reader.emptyItem')}
        style={{ marginTop: 80 }}
        data-testid="empty-item"
      >
        {item.item_edit && (
          <Button type="primary" onClick={() => void navigate(editPagePath(item.item_id, 0))}>
            {t('reader.newPage')}
          </Button>
        )}
      </LazyEmpty>
    );
  else if (pageState.status === 'error')
    body = (
      <LazyResult
        status="warning"
        title={t('reader.pageUnavailable')}
        subTitle={pageState.message}
      />
    );
  else if (!page) body = <Placeholder rows={8} />;
  else
    body = (
      <PageArticle
        title={page.page_title}
        source={source}
        attachmentCount={Number(page.attachment_count) || 0}
        onAttachments={() => open('attachments')}
        fullscreen={wide}
        onToggleFullscreen={mobile ? undefined : () => setFullscreen((f) => !f)}
        notes={
          <>
            {item.api_contract_marks === 1 && (
              <Suspense fallback={null}>
                <ContractMark pageId={Number(page.page_id)} version={page.addtime} />
              </Suspense>
            )}
            {notes}
            {showSuggestions && (
              <Suspense fallback={null}>
                <ReaderSuggestions pageId={Number(page.page_id)} />
              </Suspense>
            )}
          </>
        }
        extras={
          (item.allow_comment === '1' || item.allow_feedback === '1') && (
            <Suspense fallback={null}>
              <PageExtras
                pageId={Number(page.page_id)}
                comments={item.allow_comment === '1'}
                feedback={item.allow_feedback === '1'}
                loggedIn={loggedIn}
              />
            </Suspense>
          )
        }
        onToc={setToc}
      />
    );

  const showSide = !mobile && !wide;
  const showToc = !mobile && !wide && toc.length > 0;
  const top = mobile ? MOBILE_HEADER_HEIGHT : wide ? 0 : HEADER_HEIGHT;

  return (
    <div
      style={{ minHeight: '100vh', background: '#fff' }}
      data-testid="reader"
      data-layout={mobile ? 'mobile' : wide ? 'fullscreen' : 'desktop'}
    >
      {mobile ? (
        <Suspense fallback={<div style={{ height: MOBILE_HEADER_HEIGHT }} />}>
          <MobileHeader
            title={item.item_name}
            catalog={
              <>
                <ReadSummary />
                {tree(windowHeight - 160)}
              </>
            }
            onShare={() => open('share')}
            catalogOpen={drawer}
            onCatalogOpenChange={setDrawer}
          />
        </Suspense>
      ) : (
        !wide && (
          <header
            data-testid="reader-header"
            style={{
              position: 'fixed',
              top: 0,
              left: 0,
              right: 0,
              height: HEADER_HEIGHT,
              zIndex: 10,
              display: 'flex',
              alignItems: 'center',
              gap: 12,
              padding: '0 16px',
              background: '#fff',
              borderBottom: '1px solid #eceef2',
            }}
          >
            {loggedIn && (
              <Tooltip title={t('header.items')}>
                <Button
                  type="text"
                  icon={<ArrowLeftOutlined />}
                  aria-label={t('header.items')}
                  onClick={() => void navigate('/item/index')}
                  data-testid="back-to-items"
                />
              </Tooltip>
            )}
            <Link to="/" style={{ fontSize: 18, fontWeight: 700, color: '#1f2937' }}>
              {t('app.name')}
            </Link>
            <span
              className="q-ellipsis"
              style={{ flex: 1, fontSize: 16, fontWeight: 600 }}
              data-testid="item-name"
            >
              {item.item_name}
            </span>
            <HeaderActions item={item} pageId={pageId} loggedIn={loggedIn} open={open} />
          </header>
        )
      )}
      {showSide && (
        <aside
          data-testid="reader-sidebar"
          style={{
            position: 'fixed',
            top: HEADER_HEIGHT,
            bottom: 0,
            left: 0,
            width: SIDEBAR_WIDTH,
            display: 'flex',
            flexDirection: 'column',
            padding: 12,
            background: '#fafbfc',
            borderRight: '1px solid #eceef2',
          }}
        >
          <ReadSummary />
          <div style={{ flex: 1, minHeight: 0 }}>
            {tree(windowHeight - HEADER_HEIGHT - SIDEBAR_CHROME)}
          </div>
          {item.item_edit && (
            <Suspense fallback={null}>
              <EditorBar
                itemId={item.item_id}
                pageId={page ? Number(page.page_id) : 0}
                canManage={item.item_manage}
                open={open}
                onDeleted={onPageDeleted}
              />
            </Suspense>
          )}
        </aside>
      )}
      <main
        style={{
          marginLeft: showSide ? SIDEBAR_WIDTH : 0,
          paddingTop: top + (mobile ? 12 : 28),
          paddingBottom: 40,
          paddingLeft: mobile ? 14 : 40,
          paddingRight: mobile ? 14 : showToc && tocOpen ? TOC_WIDTH + 48 : 56,
        }}
      >
        <div style={{ maxWidth: wide ? 860 : 1000, margin: '0 auto' }}>{body}</div>
      </main>
      {showToc && page && (
        <TocPanel
          toc={toc}
          open={tocOpen}
          onToggle={() => setTocOpen((o) => !o)}
          top={HEADER_HEIGHT + 16}
        />
      )}
      <LazyBackTop aria-label={t('reader.backToTop')} data-testid="back-to-top" />
    </div>
  );
}
