/**
 * `/page/:page_id` (spec 002 §2): one page by its id, on its own, for those who may read its
 * item.
 */
import { Skeleton } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pageMarkdown, unescapeHtml } from '../../markdown';
import { apiLabels } from './apiLabels';
import { SinglePageView } from './SinglePageView';
import { useDocumentTitle } from './useDocumentTitle';
import { usePage } from './usePage';
import { LazyResult } from '../../components/LazyResult';

export default function PageByIdRoute() {
  const { t } = useTranslation();
  const { page_id: raw = '' } = useParams();
  const pageId = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  const { state } = usePage(pageId);
  const labels = useMemo(() => apiLabels(t), [t]);
  const page = state.status === 'ready' ? state.page : null;
  const source = useMemo(
    () => (page ? pageMarkdown(unescapeHtml(page.page_content), labels) : ''),
    [page, labels],
  );
  useDocumentTitle(page?.page_title ?? null);
  if (!pageId || state.status === 'error')
    return (
      <LazyResult
        status="warning"
        title={t('reader.pageUnavailable')}
        subTitle={state.status === 'error' ? state.message : undefined}
      />
    );
  if (!page) return <Skeleton active style={{ padding: 40 }} />;
  return <SinglePageView title={page.page_title} source={source} />;
}
