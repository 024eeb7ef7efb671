/** The item's change log (spec 001 §2; 10 a page, spec 001 §9). */
import { Modal, Table, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeLog } from '../api';
import type { ChangeLogEntry } from '../types';

const PAGE_SIZE = 10;
/** The server keeps an item's latest 300 change-log entries (spec 002 §9). */
const KEPT_ENTRIES = 300;

export default function ChangeLogDialog({
  itemId,
  onClose,
}: {
  itemId: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{ list: ChangeLogEntry[]; total: number } | null>(null);
  useEffect(() => {
    setData(null);
    changeLog(itemId, page, PAGE_SIZE).then(setData, () => setData({ list: [], total: 0 }));
  }, [itemId, page]);
  return (
    <Modal
      open
      title={t('reader.changeLog.title')}
      footer={null}
      onCancel={onClose}
      width={820}
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary" data-testid="change-log-keep-tip">
        {t('reader.changeLog.keepTip', { entries: KEPT_ENTRIES })}
      </Typography.Paragraph>
      <Table<ChangeLogEntry>
        rowKey="id"
        size="small"
        loading={data === null}
        dataSource={data?.list ?? []}
        pagination={{
          current: page,
          pageSize: PAGE_SIZE,
          total: Number(data?.total ?? 0),
          onChange: setPage,
          hideOnSinglePage: true,
          showSizeChanger: false,
        }}
        columns={[
          { title: t('reader.changeLog.time'), dataIndex: 'optime', width: 170 },
          { title: t('reader.changeLog.user'), dataIndex: 'oper', width: 150 },
          {
            title: t('reader.changeLog.action'),
            render: (_v, row) => row.op_action_type_desc || row.op_action_type,
            width: 90,
          },
          {
            title: t('reader.changeLog.object'),
            render: (_v, row) => row.op_object_type_desc || row.op_object_type,
            width: 90,
          },
          { title: t('reader.changeLog.name'), dataIndex: 'op_object_name' },
        ]}
      />
    </Modal>
  );
}
