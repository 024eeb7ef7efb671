/** System announcements from the site's administrators, 5 per page. */
import { Badge, Empty, Pagination, Spin, Typography } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { announcementList } from './api';
import type { Announcement } from '../../api/types';
import { SafeHtml } from '../../components/SafeHtml';
import { NOTICE_PAGE_SIZE } from './constants';
import { useMarkRead } from './useMarkRead';

export function AnnouncementList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<Announcement[] | null>(null);
  const [total, setTotal] = useState(0);

  useEffect(() => {
    setRows(null);
    announcementList(page, NOTICE_PAGE_SIZE).then(
      (data) => {
        setRows(data.list);
        setTotal(data.total);
      },
      () => setRows([]),
    );
  }, [page]);
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
      <Pagination
        style={{ marginTop: 12 }}
        size="small"
        current={page}
        pageSize={NOTICE_PAGE_SIZE}
        total={total}
        onChange={setPage}
        showTotal={(count) => t('common.total', { count })}
        hideOnSinglePage
      />
    </div>
  );
}
