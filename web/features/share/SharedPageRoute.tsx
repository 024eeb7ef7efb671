/**
 * `/p/:unique_key`: a page shared on its own (spec 001 §2, reference pages §3.2) — public, no
 * password, no item around it. An unknown or expired link shows the server's reason.
 */
import { Result, Skeleton } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pageMarkdown, unescapeHtml } from '../../markdown';
import { fetchSharedPage } from '../reader/api';
import { apiLabels } from '../reader/apiLabels';
import { SinglePageView } from '../reader/SinglePageView';
import type { SharedPage } from '../reader/types';
import { useDocumentTitle } from '../reader/useDocumentTitle';

export default function SharedPageRoute() {
  const { t } = useTranslation();
  const { unique_key: key = '' } = useParams();
  const [state, setState] = useState<{ page?: SharedPage; error?: string }>({});

  useEffect(() => {
    let current = true;
    setState({});
    fetchSharedPage(key).then(
      (page) => current && setState({ page }),
      (error: unknown) =>
        current && setState({ error: error instanceof Error ? error.message : String(error) }),
    );
    return () => {
      current = false;
    };
  }, [key]);

  const labels = useMemo(() => apiLabels(t), [t]);
  const page = state.page;
  const source = useMemo(
    () => (page ? pageMarkdown(unescapeHtml(page.page_content), labels) : ''),
    [page, labels],
  );
  useDocumentTitle(page?.page_title ?? null);

  if (state.error)
    return (
      <Result
        status="warning"
        title={t('share.linkUnavailable')}
        subTitle={state.error}
        data-testid="shared-error"
      />
    );
  if (!page) return <Skeleton active style={{ padding: 40 }} />;
  return <SinglePageView title={page.page_title} source={source} />;
}
