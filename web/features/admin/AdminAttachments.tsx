/**
 * Back office — attachments: filter by name, type (all / images / other files) and uploader; the
 * space used; visit and delete (after a confirmation).
 */
import { App, Button, Form, Input, Popconfirm, Select, Space, Table, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminAttachments, adminDeleteAttachment, type AdminAttachment } from './api';
import { adminPaging } from './paging';

interface Filter {
  display_name: string;
  attachment_type: number;
  username: string;
}

export function AdminAttachments() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [filter, setFilter] = useState<Filter>({
    display_name: '',
    attachment_type: -1,
    username: '',
  });
  const [page, setPage] = useState(1);
  const [data, setData] = useState<{
    list: AdminAttachment[];
    total: number;
    used_m: number;
  } | null>(null);

  // A stale answer (an earlier filter or page) never overwrites a newer one.
  const load = useCallback(() => {
    let current = true;
    adminAttachments({ ...filter, page }).then(
      (next) => current && setData(next),
      () => current && setData({ list: [], total: 0, used_m: 0 }),
    );
    return () => {
      current = false;
    };
  }, [filter, page]);
  useEffect(load, [load]);

  async function remove(file: AdminAttachment) {
    try {
      await adminDeleteAttachment(Number(file.file_id));
      message.success(t('common.deleted'));
      load();
    } catch {
      // alerted
    }
  }

  return (
    <>
      <Form
        name="adminFileFilter"
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        initialValues={filter}
        onFinish={(values: Filter) => {
          setFilter({
            display_name: values.display_name?.trim() ?? '',
            attachment_type: values.attachment_type,
            username: values.username?.trim() ?? '',
          });
          setPage(1);
        }}
      >
        <Form.Item name="display_name">
          <Input
            allowClear
            placeholder={t('admin.files.name')}
            aria-label={t('admin.files.name')}
          />
        </Form.Item>
        <Form.Item name="attachment_type">
          <Select
            style={{ width: 140 }}
            options={[
              { value: -1, label: t('admin.files.all') },
              { value: 1, label: t('admin.files.images') },
              { value: 2, label: t('admin.files.others') },
            ]}
          />
        </Form.Item>
        <Form.Item name="username">
          <Input
            allowClear
            placeholder={t('admin.files.uploader')}
            aria-label={t('admin.files.uploader')}
          />
        </Form.Item>
        <Button htmlType="submit">{t('admin.filter')}</Button>
      </Form>
      <Typography.Paragraph type="secondary">
        {t('admin.files.used', { size: data?.used_m ?? 0 })}
      </Typography.Paragraph>
      <Table<AdminAttachment>
        rowKey="file_id"
        size="small"
        loading={data === null}
        dataSource={data?.list ?? []}
        scroll={{ x: 900 }}
        pagination={adminPaging(page, data?.total ?? 0, setPage)}
        columns={[
          { title: 'ID', dataIndex: 'file_id', width: 80 },
          { title: t('admin.files.name'), dataIndex: 'display_name', ellipsis: true },
          { title: t('admin.files.type'), dataIndex: 'file_type', ellipsis: true },
          { title: t('admin.files.size'), dataIndex: 'file_size_m', width: 100 },
          { title: t('admin.files.visits'), dataIndex: 'visit_times', width: 80 },
          { title: t('admin.files.uploader'), dataIndex: 'username' },
          { title: t('admin.items.addTime'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: 130,
            render: (_value, file) => (
              <Space size={0}>
                <Button type="link" size="small" href={file.url} target="_blank">
                  {t('admin.files.visit')}
                </Button>
                <Popconfirm
                  title={t('admin.files.deleteConfirm', { name: file.display_name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => remove(file)}
                >
                  <Button type="link" size="small" danger>
                    {t('common.delete')}
                  </Button>
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
    </>
  );
}
