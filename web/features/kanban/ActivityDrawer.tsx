/** The board's activity log (`kanban/getActivity`), newest first, with the CSV export. */
import { DownloadOutlined } from '@ant-design/icons';
import { App, Button, Drawer, List, Pagination, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { type TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import * as api from './api';

function describe(entry: api.ActivityEntry, t: TFunction): string {
  const data = entry.event_data as Record<string, unknown>;
  const title = typeof data.title === 'string' ? data.title : '';
  const from = typeof data.from_list_title === 'string' ? data.from_list_title : '';
  const to = typeof data.to_list_title === 'string' ? data.to_list_title : '';
  const what = t(`kanban.event.${entry.event_type}`, { defaultValue: entry.event_type });
  return [what, title && `“${title}”`, from && to ? `${from} → ${to}` : '']
    .filter(Boolean)
    .join(' ');
}

export default function ActivityDrawer({
  itemId,
  loggedIn,
  onClose,
}: {
  itemId: number;
  loggedIn: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<api.ActivityPage | null>(null);

  useEffect(() => {
    api.loadActivity(itemId, page).then(setData, () => undefined);
  }, [itemId, page]);

  return (
    <Drawer
      open
      onClose={onClose}
      width={480}
      title={t('kanban.activity')}
      data-testid="kanban-activity-drawer"
      extra={
        loggedIn && (
          <Button
            size="small"
            icon={<DownloadOutlined />}
            onClick={() =>
              api
                .downloadActivity(itemId)
                .catch((e: unknown) =>
                  message.error(e instanceof ApiRequestError ? e.message : t('kanban.failed')),
                )
            }
            data-testid="kanban-activity-export"
          >
            {t('kanban.exportActivity')}
          </Button>
        )
      }
    >
      <List
        loading={!data}
        dataSource={data?.activities ?? []}
        locale={{ emptyText: t('kanban.noActivity') }}
        renderItem={(entry) => (
          <List.Item data-testid="kanban-activity-entry">
            <List.Item.Meta
              title={describe(entry, t)}
              description={
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {entry.operator_username} · {new Date(entry.addtime * 1000).toLocaleString()}
                </Typography.Text>
              }
            />
          </List.Item>
        )}
      />
      {data && data.total > data.page_size && (
        <Pagination
          size="small"
          current={page}
          pageSize={data.page_size}
          total={data.total}
          onChange={setPage}
          style={{ marginTop: 12 }}
        />
      )}
    </Drawer>
  );
}
