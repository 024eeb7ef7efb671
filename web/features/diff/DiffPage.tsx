/**
 * The diff screen, `/page/diff/:page_id/:page_history_id` (spec 002 "Diff screen"; opened in a
 * new window from the history dialogs): the page's current content on the left ("current newest
 * version") and the kept version on the right ("history version"), side by side, as ShowDoc
 * compares them. Its own lazy chunk, so neither the reader nor the editor carries the merge view.
 */
import { Alert, Result, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { ScreenLoading } from '../../components/ScreenLoading';
import { unescapeHtml } from '../../markdown/unescape';
import { useDocumentTitle } from '../reader/useDocumentTitle';
import { fetchPageDiff, type PageDiff } from './api';
import { MergeDiff } from './MergeDiff';

// Whiteboards (fabric JSON) compare as pictures; fabric loads only for them.
const BoardImage = lazy(() => import('../whiteboard/BoardImage'));

/** Cheap test for a whiteboard's JSON (the lazy chunk checks it properly). */
const looksLikeBoard = (content: string) =>
  content.trimStart().startsWith('{') &&
  content.includes('"objects"') &&
  content.includes('"version"');

type State =
  | { status: 'loading' }
  | { status: 'failed'; message: string }
  | { status: 'ready'; diff: PageDiff };

function positiveId(value: string | undefined): number {
  const id = Number(value);
  return Number.isInteger(id) && id > 0 ? id : 0;
}

/** A raw Unix time (seconds) in the reader's locale. */
function localTime(unix: string, locale: string): string {
  const seconds = Number(unix);
  return seconds > 0 ? new Date(seconds * 1000).toLocaleString(locale.replace('_', '-')) : '';
}

function SideLabel({
  testId,
  label,
  details,
}: {
  testId: string;
  label: string;
  details: (string | false)[];
}) {
  return (
    <div data-testid={testId}>
      <Typography.Text strong>{label}</Typography.Text>
      {details.filter(Boolean).map((line) => (
        <Typography.Text key={line as string} type="secondary" style={{ marginLeft: 12 }}>
          {line}
        </Typography.Text>
      ))}
    </div>
  );
}

export default function DiffPage() {
  const { t, i18n } = useTranslation();
  const params = useParams();
  const pageId = positiveId(params.page_id);
  const historyId = positiveId(params.page_history_id);
  const [state, setState] = useState<State>({ status: 'loading' });

  useEffect(() => {
    if (!pageId || !historyId) return;
    let current = true;
    setState({ status: 'loading' });
    fetchPageDiff(pageId, historyId).then(
      (diff) => current && setState({ status: 'ready', diff }),
      (error: Error) => current && setState({ status: 'failed', message: error.message }),
    );
    return () => {
      current = false;
    };
  }, [pageId, historyId]);

  const diff = state.status === 'ready' ? state.diff : null;
  useDocumentTitle(diff ? `${diff.page.page_title} - ${t('diff.title')}` : null);

  if (!pageId || !historyId)
    return <Result status="404" title={t('diff.failed')} subTitle={t('diff.badAddress')} />;
  if (state.status === 'failed')
    return (
      <Result
        status="warning"
        title={t('diff.failed')}
        subTitle={state.message}
        data-testid="diff-error"
      />
    );
  if (!diff) return <ScreenLoading />;

  const current = unescapeHtml(diff.page.page_content);
  const history = unescapeHtml(diff.history_page.page_content);
  const savedBy = (row: { addtime: string; author_username: string }) =>
    t('diff.savedBy', { time: localTime(row.addtime, i18n.language), author: row.author_username });
  return (
    <div data-testid="diff-screen" style={{ padding: '16px clamp(12px, 3vw, 40px)' }}>
      <Typography.Title level={3} data-testid="diff-title" style={{ marginTop: 0 }}>
        {diff.page.page_title}
        <Typography.Text type="secondary" style={{ marginLeft: 12, fontSize: 16 }}>
          {t('diff.title')}
        </Typography.Text>
      </Typography.Title>
      <div
        style={{
          display: 'grid',
          gridTemplateColumns: '1fr 1fr',
          gap: 16,
          padding: '8px 0',
          borderBottom: '1px solid #eef0f3',
        }}
      >
        <SideLabel
          testId="diff-current-label"
          label={t('diff.current')}
          details={[savedBy(diff.page)]}
        />
        <SideLabel
          testId="diff-history-label"
          label={t('diff.history')}
          details={[
            savedBy(diff.history_page),
            !!diff.history_page.page_comments &&
              t('diff.remark', { remark: diff.history_page.page_comments }),
          ]}
        />
      </div>
      {current === history && (
        <Alert type="info" showIcon title={t('diff.identical')} style={{ margin: '12px 0' }} />
      )}
      {looksLikeBoard(current) && looksLikeBoard(history) ? (
        <Suspense fallback={<ScreenLoading />}>
          <div
            data-testid="diff-board"
            style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 16, paddingTop: 12 }}
          >
            <BoardImage
              content={current}
              label={t('whiteboard.after')}
              testId="diff-board-current"
            />
            <BoardImage
              content={history}
              label={t('whiteboard.before')}
              testId="diff-board-history"
            />
          </div>
        </Suspense>
      ) : (
        <MergeDiff left={current} right={history} />
      )}
    </div>
  );
}
