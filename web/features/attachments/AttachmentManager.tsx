/**
 * The attachment manager (spec 000 §2, §9): the user's uploaded files, 5 per page, filtered by
 * name and type, with the space they use and this month's download traffic; open or delete one.
 */
import { DeleteOutlined, LinkOutlined } from '@ant-design/icons';
import { App, Button, Input, Popconfirm, Select, Space, Statistic, Table } from 'antd';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteMyAttachment, myAttachments } from './api';
import type { Attachment } from '../../api/types';

export const ATTACHMENT_PAGE_SIZE = 5;

/** A readable size: bytes when known (small files would all read "0 MB"), else the MB field. */
function sizeText(file: Attachment): string {
  const bytes = Number(file.file_size);
  if (!Number.isFinite(bytes) || file.file_size === undefined) return `${file.file_size_m} MB`;
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(2)} MB`;
}
const ALL = 0;
const IMAGES = 1;
const OTHER = 2;

export function AttachmentManager({
  rowAction,
}: {
  /** One more action per file (the editor's file hub: "bind to this page"). */
  rowAction?: (file: Attachment) => ReactNode;
} = {}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [type, setType] = useState(ALL);
  const [name, setName] = useState('');
  const [rows, setRows] = useState<Attachment[] | null>(null);
  const [total, setTotal] = useState(0);
  const [usage, setUsage] = useState({ used: 0, flow: 0 });

  const load = useCallback(() => {
    setRows(null);
    myAttachments({
      page,
      count: ATTACHMENT_PAGE_SIZE,
      attachment_type: type,
      display_name: name,
    }).then(
      (data) => {
        setRows(data.list ?? []);
        setTotal(Number(data.total ?? 0));
        setUsage({ used: Number(data.used_m ?? 0), flow: Number(data.used_flow_m ?? 0) });
      },
      () => setRows([]),
    );
  }, [page, type, name]);
  useEffect(load, [load]);

  async function remove(file: Attachment) {
    try {
      await deleteMyAttachment(Number(file.file_id));
      message.success(t('common.deleted'));
      // The last file of a page gone: show the page before it.
      if (rows?.length === 1 && page > 1) setPage(page - 1);
      else load();
    } catch {
      // alerted
    }
  }

  return (
    <div>
      <Space size="large" wrap style={{ marginBottom: 16 }}>
        <Statistic title={t('attachments.used')} value={usage.used} precision={3} suffix="MB" />
        <Statistic title={t('attachments.flow')} value={usage.flow} precision={3} suffix="MB" />
      </Space>
      <Space wrap style={{ marginBottom: 12 }}>
        <Input.Search
          allowClear
          placeholder={t('attachments.searchName')}
          aria-label={t('attachments.searchName')}
          onSearch={(value) => {
            setPage(1);
            setName(value.trim());
          }}
          style={{ width: 220 }}
        />
        <Select
          value={type}
          aria-label={t('attachments.type')}
          style={{ width: 160 }}
          onChange={(value: number) => {
            setPage(1);
            setType(value);
          }}
          options={[
            { value: ALL, label: t('attachments.typeAll') },
            { value: IMAGES, label: t('attachments.typeImages') },
            { value: OTHER, label: t('attachments.typeOther') },
          ]}
        />
      </Space>
      <Table<Attachment>
        rowKey={(row) => String(row.file_id)}
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('attachments.empty') }}
        pagination={{
          current: page,
          pageSize: ATTACHMENT_PAGE_SIZE,
          total,
          onChange: setPage,
          showSizeChanger: false,
          showTotal: (count) => t('common.total', { count }),
        }}
        columns={[
          { title: t('attachments.name'), dataIndex: 'display_name', ellipsis: true },
          { title: t('attachments.fileType'), dataIndex: 'file_type', width: 140, ellipsis: true },
          {
            title: t('attachments.size'),
            dataIndex: 'file_size_m',
            width: 100,
            render: (_v, row) => sizeText(row),
          },
          { title: t('attachments.visits'), dataIndex: 'visit_times', width: 80 },
          { title: t('attachments.addedAt'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: rowAction ? 140 : 100,
            render: (_v, row) => (
              <Space size={2}>
                {rowAction?.(row)}
                <Button
                  type="text"
                  icon={<LinkOutlined />}
                  href={row.url}
                  target="_blank"
                  rel="noopener noreferrer"
                  aria-label={t('attachments.open', { name: row.display_name })}
                />
                <Popconfirm
                  title={t('attachments.deleteConfirm', { name: row.display_name })}
                  okText={t('common.delete')}
                  cancelText={t('common.cancel')}
                  okButtonProps={{ danger: true }}
                  onConfirm={() => remove(row)}
                >
                  <Button
                    type="text"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('attachments.delete', { name: row.display_name })}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </div>
  );
}
