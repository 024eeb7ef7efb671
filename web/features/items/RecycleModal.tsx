/** An item's recycle bin: deleted pages, who deleted them and when, and recovering one. */
import { App, Button, Modal, Popconfirm, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { recoverPage, recycleList } from './recycleApi';
import type { RecycleEntry } from '../../api/types';

/** The server purges a deleted page this many days after its deletion (spec 002 §9). */
const RECYCLE_PURGE_DAYS = 30;

export default function RecycleModal({ itemId, onClose }: { itemId: number; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('items.recycle.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={720}
    >
      <RecyclePanel itemId={itemId} />
    </Modal>
  );
}

/** The deleted pages and their recovery (also the item setting screen's "recycle" tab). */
export function RecyclePanel({ itemId }: { itemId: number }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [rows, setRows] = useState<RecycleEntry[] | null>(null);

  const load = useCallback(() => {
    recycleList(itemId).then(setRows, () => setRows([]));
  }, [itemId]);
  useEffect(load, [load]);

  async function recover(row: RecycleEntry) {
    try {
      await recoverPage(itemId, Number(row.page_id));
      message.success(t('items.recycle.recovered'));
      load();
    } catch {
      // alerted
    }
  }

  return (
    <>
      <Typography.Paragraph type="secondary" data-testid="recycle-purge-tip">
        {t('items.recycle.purgeTip', { days: RECYCLE_PURGE_DAYS })}
      </Typography.Paragraph>
      <Table<RecycleEntry>
        rowKey="page_id"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 520 }}
        locale={{ emptyText: t('items.recycle.empty') }}
        columns={[
          { title: t('items.recycle.page'), dataIndex: 'page_title' },
          { title: t('items.recycle.deletedBy'), dataIndex: 'del_by_username', width: 140 },
          { title: t('items.recycle.deletedAt'), dataIndex: 'del_time', width: 170 },
          {
            title: t('common.actions'),
            width: 110,
            render: (_value, row) => (
              <Popconfirm
                title={t('items.recycle.recoverConfirm')}
                okText={t('common.confirm')}
                cancelText={t('common.cancel')}
                onConfirm={() => recover(row)}
              >
                <Button type="link" size="small">
                  {t('items.recycle.recover')}
                </Button>
              </Popconfirm>
            ),
          },
        ]}
      />
    </>
  );
}
