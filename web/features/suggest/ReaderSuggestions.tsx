/**
 * The reader's box of a page's open suggestions (its own chunk: loaded only for a page that has
 * some). Everyone who may read the page sees them highlighted; those who may edit it accept or
 * reject them here too.
 */
import { Collapse } from 'antd';
import { useTranslation } from 'react-i18next';
import { SuggestionList } from './SuggestionList';
import { useSuggestions } from './useSuggestions';

export default function ReaderSuggestions({ pageId }: { pageId: number }) {
  const { t } = useTranslation();
  // The reader has joined the page's room already: its pushes reach us.
  const { list, reload } = useSuggestions(pageId, false);
  if (!list || !list.suggestions.length) return null;
  return (
    <Collapse
      size="small"
      defaultActiveKey={['s']}
      style={{ margin: '12px 0', borderColor: '#f0c36d', background: '#fffbe6' }}
      data-testid="reader-suggestions"
      items={[
        {
          key: 's',
          label: t('suggest.readerTitle', { count: list.suggestions.length }),
          children: <SuggestionList pageId={pageId} list={list} onReviewed={reload} />,
        },
      ]}
    />
  );
}
