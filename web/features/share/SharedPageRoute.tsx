/**
 * `/p/:unique_key`: a page shared on its own (spec 001 §2, reference pages §3.2) — public, no
 * password, no item around it. An unknown or expired link shows the server's reason.
 *
 * A whiteboard's page shows its board as a picture, read-only, and follows the board as it is
 * saved: visitors of a link have no login, so no live socket — the page is asked again every few
 * seconds while the tab is visible (whiteboards only).
 */
import { Result, Skeleton, Typography } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { pageMarkdown, unescapeHtml } from '../../markdown';
import { fetchSharedPage } from '../reader/api';
import { apiLabels } from '../reader/apiLabels';
import { SinglePageView } from '../reader/SinglePageView';
import type { SharedPage } from '../reader/types';
import { useDocumentTitle } from '../reader/useDocumentTitle';

const BoardImage = lazy(() => import('../whiteboard/BoardImage'));
const BOARD_REFRESH_MS = 5000;

const looksLikeBoard = (content: string) =>
  content.trimStart().startsWith('{') &&
  content.includes('"objects"') &&
  content.includes('"version"');

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

  const page = state.page;
  const board = page ? looksLikeBoard(unescapeHtml(page.page_content)) : false;
  useEffect(() => {
    if (!board) return;
    const timer = setInterval(() => {
      if (document.visibilityState !== 'visible') return;
      fetchSharedPage(key).then(
        (fresh) =>
          setState((current) =>
            current.page?.page_content === fresh.page_content ? current : { page: fresh },
          ),
        () => {},
      );
    }, BOARD_REFRESH_MS);
    return () => clearInterval(timer);
  }, [board, key]);

  const labels = useMemo(() => apiLabels(t), [t]);
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
  if (board)
    return (
      <div style={{ padding: 24 }} data-testid="shared-board">
        <Typography.Title level={3}>{page.page_title}</Typography.Title>
        <Suspense fallback={<Skeleton active />}>
          <BoardImage content={unescapeHtml(page.page_content)} label={page.page_title} />
        </Suspense>
      </div>
    );
  return <SinglePageView title={page.page_title} source={source} />;
}
