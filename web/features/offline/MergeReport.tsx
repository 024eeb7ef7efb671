/**
 * The report shown after the offline edits were merged and saved (issue #41): one line a page —
 * saved, saved together with what someone else changed meanwhile (named), or kept back because
 * someone else holds the lock — with links to the diff screen. Its own React root: the sync runs
 * from the app's entry (boot.ts), whichever screen is open.
 */
import { Alert, Modal, Space, Typography } from 'antd';
import i18n from 'i18next';
import { createRoot } from 'react-dom/client';
import { useTranslation } from 'react-i18next';
import { loadFullCatalogue } from '../../i18n';
import type { ReportRow } from './mergeReport';

function Links({ row }: { row: Extract<ReportRow, { kind: 'saved' }> }) {
  const { t } = useTranslation();
  return (
    <Space size="middle">
      {row.sinceOfflineDiff && (
        <a
          href={row.sinceOfflineDiff}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="offline-report-diff"
        >
          {t('offline.report.diffSinceOffline')}
        </a>
      )}
      {row.onlineDiff && (
        <a
          href={row.onlineDiff}
          target="_blank"
          rel="noopener noreferrer"
          data-testid="offline-report-online-diff"
        >
          {t('offline.report.diffOnline')}
        </a>
      )}
    </Space>
  );
}

function Line({ row }: { row: ReportRow }) {
  const { t } = useTranslation();
  const status =
    row.kind === 'locked'
      ? t('offline.report.locked', { name: row.holder })
      : row.kind === 'failed'
        ? t('offline.report.failed', { message: row.message })
        : row.changedOnline
          ? t('offline.report.merged', { name: row.changedBy })
          : t('offline.report.saved');
  return (
    <li
      data-testid="offline-report-row"
      data-page-id={row.pageId}
      data-kind={row.kind}
      data-changed-online={row.kind === 'saved' && row.changedOnline ? 'yes' : 'no'}
      style={{ marginBottom: 8 }}
    >
      <Typography.Link href={`/page/${row.pageId}`} strong>
        {row.title}
      </Typography.Link>
      <div>
        <Typography.Text type={row.kind === 'saved' ? 'secondary' : 'warning'}>
          {status}
        </Typography.Text>
      </div>
      {row.kind === 'saved' && <Links row={row} />}
    </li>
  );
}

function MergeReport({ rows, onClose }: { rows: ReportRow[]; onClose: () => void }) {
  const { t } = useTranslation();
  const kept = rows.filter((row) => row.kind !== 'saved').length;
  return (
    <Modal
      open
      title={t('offline.report.title')}
      onOk={onClose}
      onCancel={onClose}
      okText={t('offline.report.close')}
      cancelButtonProps={{ style: { display: 'none' } }}
    >
      <div data-testid="offline-report">
        <Typography.Paragraph>
          {t('offline.report.intro', { count: rows.length })}
        </Typography.Paragraph>
        {kept > 0 && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 12 }}
            title={t('offline.report.keptHere', { count: kept })}
          />
        )}
        <ul style={{ paddingLeft: 18 }}>
          {rows.map((row) => (
            <Line key={row.pageId} row={row} />
          ))}
        </ul>
      </div>
    </Modal>
  );
}

export async function showMergeReport(rows: ReportRow[]): Promise<void> {
  if (!i18n.isInitialized)
    await new Promise<void>((resolve) => i18n.on('initialized', () => resolve()));
  await loadFullCatalogue();
  const host = document.createElement('div');
  document.body.appendChild(host);
  const root = createRoot(host);
  const close = () => {
    root.unmount();
    host.remove();
  };
  root.render(<MergeReport rows={rows} onClose={close} />);
}
