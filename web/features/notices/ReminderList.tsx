/** System reminders: "X updated page Y" with the update note, 5 per page. */
import { Badge, Spin, Empty, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { remindList } from './api';
import type { RemindMessage } from '../../api/types';
import { NoticePager, usePagedNotices } from './pagedNotices';
import { useMarkRead } from './useMarkRead';

export function ReminderList() {
  const { t } = useTranslation();
  const { page, setPage, rows, total } = usePagedNotices<RemindMessage>(remindList);
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
          const isSuggestion = row.action_type === 'suggest';
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
                      {t(
                        isComment
                          ? 'comments.noticeBy'
                          : isSuggestion
                            ? 'suggest.noticeBy'
                            : 'notices.pageUpdatedBy',
                        {
                          name: row.from_name ?? '',
                        },
                      )}{' '}
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
      <NoticePager page={page} total={total} onChange={setPage} />
    </div>
  );
}
