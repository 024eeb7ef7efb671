/** System reminders: "X updated page Y" with the update note, 5 per page. */
import { Badge, Pagination, Spin, Empty, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { remindList } from './api';
import type { RemindMessage } from '../../api/types';
import { NOTICE_PAGE_SIZE } from './constants';
import { useMarkRead } from './useMarkRead';

export function ReminderList() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState<RemindMessage[] | null>(null);
  const [total, setTotal] = useState(0);

  useEffect(() => {
    setRows(null);
    remindList(page, NOTICE_PAGE_SIZE).then(
      (data) => {
        setRows(data.list);
        setTotal(data.total);
      },
      () => setRows([]),
    );
  }, [page]);
  useMarkRead(rows);

  if (rows === null) return <Spin />;
  if (!rows.length) return <Empty description={t('notices.noReminders')} />;
  return (
    <div>
      <div role="list" aria-label={t('notices.reminders')}>
        {rows.map((row) => {
          const pageData = row.page_data;
          const isPage = row.object_type === 'page' && pageData;
          const isComment = row.action_type === 'comment';
          return (
            <div
              role="listitem"
              key={`${row.message_content_id}-${row.from_uid}`}
              style={{ padding: '10px 0', borderBottom: '1px solid #f0f1f3' }}
            >
              <div style={{ display: 'flex', justifyContent: 'space-between', gap: 12 }}>
                <span>
                  {isPage ? (
                    <>
                      {t(isComment ? 'comments.noticeBy' : 'notices.pageUpdatedBy', {
                        name: row.from_name ?? '',
                      })}{' '}
                      <Link to={`/${pageData.item_id}/${pageData.page_id}`}>
                        {pageData.page_title}
                      </Link>
                    </>
                  ) : (
                    row.message_content
                  )}
                  {Number(row.status) === 0 && (
                    <Badge count={t('header.new')} size="small" style={{ marginLeft: 8 }} />
                  )}
                </span>
                <Typography.Text type="secondary" style={{ fontSize: 12, whiteSpace: 'nowrap' }}>
                  {row.addtime}
                </Typography.Text>
              </div>
              {isPage && !isComment && row.message_content && (
                <Typography.Text type="secondary">
                  {t('notices.updateNote')}: {row.message_content}
                </Typography.Text>
              )}
            </div>
          );
        })}
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
