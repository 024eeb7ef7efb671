/**
 * Back office — projects: filter by name and owner; privacy, link, owner, member count, add time;
 * transfer to a username and delete (to the recycle bin), each after a confirmation.
 */
import { App, Button, Form, Input, Popconfirm, Space, Table, Tag } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminDeleteItem, adminItems, adminTransferItem, type AdminItem } from './api';
import { adminPaging } from './paging';
import { FormModal } from '../../components/FormModal';
import { useLatestAnswer } from '../../components/useLatestAnswer';

export function AdminItems() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [filter, setFilter] = useState({ item_name: '', username: '' });
  const [page, setPage] = useState(1);
  const [transferring, setTransferring] = useState<AdminItem | null>(null);
  const fetchItems = useCallback(() => adminItems({ ...filter, page }), [filter, page]);
  const { data, reload: load } = useLatestAnswer(fetchItems, { total: 0, items: [] });

  async function remove(item: AdminItem) {
    try {
      await adminDeleteItem(Number(item.item_id));
      message.success(t('common.deleted'));
      load();
    } catch {
      // alerted
    }
  }

  return (
    <>
      <Form
        name="adminItemFilter"
        layout="inline"
        style={{ marginBottom: 16, rowGap: 8 }}
        onFinish={(values: { item_name?: string; username?: string }) => {
          setFilter({
            item_name: values.item_name?.trim() ?? '',
            username: values.username?.trim() ?? '',
          });
          setPage(1);
        }}
      >
        <Form.Item name="item_name">
          <Input
            allowClear
            placeholder={t('admin.items.name')}
            aria-label={t('admin.items.name')}
          />
        </Form.Item>
        <Form.Item name="username">
          <Input
            allowClear
            placeholder={t('admin.items.owner')}
            aria-label={t('admin.items.owner')}
          />
        </Form.Item>
        <Button htmlType="submit">{t('admin.filter')}</Button>
      </Form>
      <Table<AdminItem>
        rowKey="item_id"
        size="small"
        loading={data === null}
        dataSource={data?.items ?? []}
        scroll={{ x: 900 }}
        pagination={adminPaging(page, data?.total ?? 0, setPage)}
        columns={[
          { title: t('admin.items.name'), dataIndex: 'item_name' },
          { title: t('admin.items.description'), dataIndex: 'item_description', ellipsis: true },
          {
            title: t('admin.items.privacy'),
            dataIndex: 'is_private',
            width: 90,
            render: (value: number) =>
              Number(value) ? <Tag>{t('admin.items.private')}</Tag> : t('admin.items.public'),
          },
          {
            title: t('admin.items.link'),
            width: 90,
            render: (_v, item) => (
              <a href={`/${item.item_domain || item.item_id}`} target="_blank" rel="noreferrer">
                {t('admin.items.open')}
              </a>
            ),
          },
          { title: t('admin.items.owner'), dataIndex: 'username' },
          { title: t('admin.items.members'), dataIndex: 'member_num', width: 80 },
          { title: t('admin.items.addTime'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: 150,
            render: (_value, item) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setTransferring(item)}>
                  {t('admin.items.transfer')}
                </Button>
                <Popconfirm
                  title={t('admin.items.deleteConfirm', { name: item.item_name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => remove(item)}
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
      {transferring && (
        <TransferModal item={transferring} onClose={() => setTransferring(null)} onDone={load} />
      )}
    </>
  );
}

function TransferModal({
  item,
  onClose,
  onDone,
}: {
  item: AdminItem;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <FormModal<{ username: string }>
      title={t('admin.items.transferTitle', { name: item.item_name })}
      name="adminTransfer"
      okText={t('common.confirm')}
      save={async ({ username }) => {
        await adminTransferItem(Number(item.item_id), username.trim());
        message.success(t('admin.items.transferred'));
      }}
      onClose={onClose}
      onSaved={onDone}
    >
      <Form.Item
        name="username"
        label={t('admin.items.newOwner')}
        rules={[{ required: true, whitespace: true, message: t('admin.users.usernameRequired') }]}
      >
        <Input maxLength={30} autoComplete="off" />
      </Form.Item>
    </FormModal>
  );
}
