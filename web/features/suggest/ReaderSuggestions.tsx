/**
 * The reader's box of a page's open suggestions (its own chunk: loaded only for a page that has
 * some). Everyone who may read the page sees them highlighted; those who may edit it accept or
 * reject them here too. Plain markup and the list's own antd parts only: a new antd component
 * here would land in the reader's shared chunk, which every reader downloads.
 */
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SuggestionList } from './SuggestionList';
import { useSuggestions } from './useSuggestions';

export default function ReaderSuggestions({ pageId }: { pageId: number }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(true);
  // The reader has joined the page's room already: its pushes reach us.
  const { list, reload } = useSuggestions(pageId, false);
  if (!list || !list.suggestions.length) return null;
  return (
    <section
      data-testid="reader-suggestions"
      style={{
        margin: '12px 0',
        border: '1px solid #f0c36d',
        borderRadius: 8,
        background: '#fffbe6',
      }}
    >
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        style={{
          all: 'unset',
          cursor: 'pointer',
          display: 'block',
          width: '100%',
          boxSizing: 'border-box',
          padding: '8px 12px',
          fontWeight: 500,
        }}
      >
        {open ? '▾' : '▸'} {t('suggest.readerTitle', { count: list.suggestions.length })}
      </button>
      {open && (
        <div style={{ padding: '0 12px 8px', background: '#fff', borderRadius: '0 0 8px 8px' }}>
          <SuggestionList pageId={pageId} list={list} onReviewed={reload} />
        </div>
      )}
    </section>
  );
}
