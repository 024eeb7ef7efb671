/** System announcements from the site's administrators, 5 per page. */
import { Badge, Empty, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { announcementList } from './api';
import type { Announcement } from '../../api/types';
import { SafeHtml } from '../../components/SafeHtml';
import { NoticePager, usePagedNotices } from './pagedNotices';
import { useMarkRead } from './useMarkRead';

export function AnnouncementList() {
  const { t } = useTranslation();
  const { page, setPage, rows, total } = usePagedNotices<Announcement>(announcementList);
  // Announcements are marked read by content id alone (from_uid 0: the read-marker row).
  const readable = useMemo(() => rows && rows.map((row) => ({ ...row, from_uid: 0 })), [rows]);
  useMarkRead(readable);

  if (rows === null) return <Spin />;
  if (!rows.length) return <Empty description={t('notices.noAnnouncements')} />;
  return (
    <div>
      <div role="list" aria-label={t('notices.announcements')}>
        {rows.map((row) => (
          <div
            role="listitem"
            key={row.message_content_id}
            style={{ padding: '10px 0', borderBottom: '1px solid #f0f1f3' }}
          >
            <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}>
              <Typography.Text strong>
                {row.from_name || t('notices.system')}
                {Number(row.status) === 0 && (
                  <Badge count={t('header.new')} size="small" style={{ marginLeft: 8 }} />
                )}
              </Typography.Text>
              <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                {row.addtime}
              </Typography.Text>
            </div>
            <SafeHtml html={row.message_content} />
          </div>
        ))}
      </div>
      <NoticePager page={page} total={total} onChange={setPage} />
    </div>
  );
}
