/**
 * Back office — users: search by username, the list (7 a page), add, edit (username read-only,
 * blank password keeps it), delete after a confirmation (never shown for administrators).
 */
import { App, Button, Form, Input, Popconfirm, Space, Table, Tag } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminUsers, deleteAdminUser, saveAdminUser, type AdminUser } from './api';
import { adminPaging } from './paging';
import { FormModal } from '../../components/FormModal';
import { useLatestAnswer } from '../../components/useLatestAnswer';

interface UserForm {
  username: string;
  name: string;
  password: string;
}

export function AdminUsers() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [search, setSearch] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<AdminUser | 'new' | null>(null);
  const fetchUsers = useCallback(() => adminUsers(search, page), [search, page]);
  const { data, reload: load } = useLatestAnswer(fetchUsers, { total: 0, users: [] });

  async function remove(user: AdminUser) {
    try {
      await deleteAdminUser(Number(user.uid));
      message.success(t('common.deleted'));
      load();
    } catch {
      // alerted
    }
  }

  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('admin.users.search')}
          aria-label={t('admin.users.search')}
          onSearch={(value) => {
            setSearch(value.trim());
            setPage(1);
          }}
          style={{ width: 240 }}
        />
        <Button type="primary" onClick={() => setEditing('new')}>
          {t('admin.users.add')}
        </Button>
      </Space>
      <Table<AdminUser>
        rowKey="uid"
        size="small"
        loading={data === null}
        dataSource={data?.users ?? []}
        scroll={{ x: 720 }}
        pagination={adminPaging(page, data?.total ?? 0, setPage)}
        columns={[
          { title: t('admin.users.username'), dataIndex: 'username' },
          { title: t('admin.users.name'), dataIndex: 'name' },
          {
            title: t('admin.users.role'),
            dataIndex: 'groupid',
            render: (groupid: string) =>
              groupid === '1' ? (
                <Tag color="gold">{t('admin.users.roleAdmin')}</Tag>
              ) : (
                t('admin.users.roleUser')
              ),
          },
          { title: t('admin.users.regTime'), dataIndex: 'reg_time', width: 170 },
          { title: t('admin.users.lastLogin'), dataIndex: 'last_login_time', width: 170 },
          {
            title: t('common.actions'),
            width: 150,
            render: (_value, user) => (
              <Space size={0}>
                <Button type="link" size="small" onClick={() => setEditing(user)}>
                  {t('admin.edit')}
                </Button>
                {user.groupid !== '1' && (
                  <Popconfirm
                    title={t('admin.users.deleteConfirm', { name: user.username })}
                    description={t('admin.users.deleteRule')}
                    okText={t('common.confirm')}
                    cancelText={t('common.cancel')}
                    onConfirm={() => remove(user)}
                  >
                    <Button type="link" size="small" danger>
                      {t('common.delete')}
                    </Button>
                  </Popconfirm>
                )}
              </Space>
            ),
          },
        ]}
      />
      {editing && (
        <UserModal
          user={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={load}
        />
      )}
    </>
  );
}

function UserModal({
  user,
  onClose,
  onSaved,
}: {
  user: AdminUser | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  return (
    <FormModal<UserForm>
      title={user ? t('admin.users.editTitle') : t('admin.users.add')}
      name="adminUser"
      initialValues={{ username: user?.username ?? '', name: user?.name ?? '', password: '' }}
      save={async (values) => {
        await saveAdminUser({
          uid: user ? Number(user.uid) : 0,
          username: user ? user.username : values.username.trim(),
          name: values.name?.trim() ?? '',
          password: values.password ?? '',
        });
        message.success(t('common.saved'));
      }}
      onClose={onClose}
      onSaved={onSaved}
    >
      <Form.Item
        name="username"
        label={t('admin.users.username')}
        rules={[{ required: !user, whitespace: true, message: t('admin.users.usernameRequired') }]}
      >
        <Input maxLength={30} disabled={!!user} autoComplete="off" />
      </Form.Item>
      <Form.Item name="name" label={t('admin.users.name')}>
        <Input maxLength={64} autoComplete="off" />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('admin.users.password')}
        extra={user ? t('admin.users.passwordKeep') : undefined}
        rules={[{ required: !user, message: t('admin.users.passwordRequired') }]}
      >
        <Input.Password maxLength={100} autoComplete="new-password" />
      </Form.Item>
    </FormModal>
  );
}
