/**
 * One page on its own (spec 002 §2 "Single-page view and page view by id or key"): the title,
 * the content, a table of contents and back-to-top; a full-screen switch off mobile (narrower,
 * no table of contents, 16 px text). On a narrow screen the header is hidden. Used for
 * single-page items (type 2), shared pages (`/p/:unique_key`) and pages by id (`/page/:id`).
 */
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { TocEntry } from '../../markdown';
import { PageArticle } from './PageArticle';
import { TOC_WIDTH, TocPanel } from './TocPanel';
import { MOBILE_BELOW, useIsMobile } from './useViewport';
import { LazyBackTop } from '../../components/LazyBackTop';

const HEADER_HEIGHT = 56;

export function SinglePageView({
  title,
  source,
  headerTitle,
  actions,
  notes,
  attachmentCount,
  onAttachments,
}: {
  title: string;
  source: string;
  /** What the header names (the item); the page title when absent. */
  headerTitle?: string;
  /** Header icons (single-page items). */
  actions?: ReactNode;
  notes?: ReactNode;
  attachmentCount?: number;
  onAttachments?: () => void;
}) {
  const { t } = useTranslation();
  const mobile = useIsMobile();
  const [fullscreen, setFullscreen] = useState(false);
  const [tocOpen, setTocOpen] = useState(() => window.innerWidth > MOBILE_BELOW);
  const [toc, setToc] = useState<TocEntry[]>([]);
  const wide = fullscreen && !mobile;
  const showHeader = !mobile && !wide;
  const showToc = !mobile && !wide && toc.length > 0;

  return (
    <div
      style={{ minHeight: '100vh', background: '#fff' }}
      data-testid="single-page"
      data-layout={mobile ? 'mobile' : wide ? 'fullscreen' : 'desktop'}
    >
      {showHeader && (
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
          <Link to="/" style={{ fontSize: 18, fontWeight: 700, color: '#1f2937' }}>
            {t('app.name')}
          </Link>
          <span
            style={{
              flex: 1,
              fontWeight: 600,
              overflow: 'hidden',
              textOverflow: 'ellipsis',
              whiteSpace: 'nowrap',
            }}
          >
            {headerTitle ?? title}
          </span>
          {actions}
        </header>
      )}
      <main
        style={{
          paddingTop: showHeader ? HEADER_HEIGHT + 28 : mobile ? 16 : 28,
          paddingBottom: 40,
          paddingLeft: mobile ? 14 : 40,
          paddingRight: mobile ? 14 : showToc && tocOpen ? TOC_WIDTH + 48 : 56,
        }}
      >
        <div style={{ maxWidth: wide ? 860 : 960, margin: '0 auto' }}>
          <PageArticle
            title={title}
            source={source}
            fullscreen={wide}
            onToggleFullscreen={mobile ? undefined : () => setFullscreen((f) => !f)}
            notes={notes}
            onToc={setToc}
            attachmentCount={attachmentCount}
            onAttachments={onAttachments}
          />
        </div>
      </main>
      {showToc && (
        <TocPanel
          toc={toc}
          open={tocOpen}
          onToggle={() => setTocOpen((o) => !o)}
          top={(showHeader ? HEADER_HEIGHT : 0) + 16}
        />
      )}
      <LazyBackTop aria-label={t('reader.backToTop')} data-testid="back-to-top" />
    </div>
  );
}
