/**
 * The reader's search results: each page's title and, from ranked search, the snippet around its
 * best match with the matched words highlighted; then the attachments whose text matched, linked
 * to the file. Visitors without a login get the menu's keyword search (titles only).
 */
import { PaperClipOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { SearchAttachment } from '../../api/types';
import { LazyEmpty } from '../../components/LazyEmpty';
import { Highlighted, type Ranges } from '../search/Highlighted';
import '../search/search.css';

export interface ReaderHit {
  page_id: string;
  page_title: string;
  snippet?: string;
  highlights?: Ranges;
  title_highlights?: Ranges;
}

export interface ReaderResults {
  pages: ReaderHit[];
  attachments: SearchAttachment[];
}

export function ReaderSearchResults({
  results,
  currentPageId,
  height,
  onOpenPage,
}: {
  results: ReaderResults;
  currentPageId: number;
  height: number;
  onOpenPage: (pageId: string) => void;
}) {
  const { t } = useTranslation();
  const { pages, attachments } = results;
  return (
    <div data-testid="search-results" style={{ overflowY: 'auto', maxHeight: height }}>
      {pages.length === 0 && attachments.length === 0 ? (
        <LazyEmpty simple description={t('reader.noResults')} />
      ) : (
        pages.map((page) => (
          <div key={page.page_id} data-testid="search-hit">
            <button
              type="button"
              className="q-link"
              data-testid="search-result"
              onClick={() => onOpenPage(page.page_id)}
              style={{
                display: 'block',
                width: '100%',
                padding: '4px 8px',
                fontWeight: String(currentPageId) === page.page_id ? 600 : 400,
              }}
            >
              <Highlighted text={page.page_title} ranges={page.title_highlights} />
            </button>
            {page.snippet ? (
              <div className="q-search-snippet" data-testid="search-snippet">
                <Highlighted text={page.snippet} ranges={page.highlights} />
              </div>
            ) : null}
          </div>
        ))
      )}
      {attachments.length > 0 && (
        <section aria-label={t('search.attachments')}>
          <div className="q-search-heading">{t('search.attachments')}</div>
          {attachments.map((file) => (
            <div key={file.file_id} data-testid="search-attachment">
              <a
                href={file.url}
                target="_blank"
                rel="noreferrer"
                style={{ display: 'block', padding: '4px 8px' }}
              >
                <PaperClipOutlined /> {file.display_name}
              </a>
              {file.page_title ? (
                <div className="q-search-snippet">
                  {t('search.attachedTo', { page: file.page_title })}
                </div>
              ) : null}
              <div className="q-search-snippet">
                <Highlighted text={file.snippet} ranges={file.highlights} />
              </div>
            </div>
          ))}
        </section>
      )}
    </div>
  );
}
