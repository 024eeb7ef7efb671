/**
 * An item's personal members: who they are, their authority and catalog, added when; adding
 * several users at once and removing one (spec 000 §2, §4, §5).
 */
import { DeleteOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Form, Popconfirm, Select, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { addMembers, listMembers, removeMember } from '../../api/members';
import type { ItemMember } from '../../api/types';
import { useLogin } from '../../auth/useLogin';
import { AUTHORITIES, authorityLabel, catalogApplies, EDIT } from './authority';
import { useCatalogOptions } from './useCatalogOptions';
import { UserPicker } from './UserPicker';

interface AddValues {
  usernames: string[];
  member_group_id: number;
  cat_id: number;
}

export function PersonalMembers({ itemId }: { itemId: number }) {
  const { t } = useTranslation();
  const me = useLogin();
  const catalogs = useCatalogOptions(itemId);
  const [members, setMembers] = useState<ItemMember[] | null>(null);
  const [form] = Form.useForm<AddValues>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    listMembers(itemId).then(setMembers, () => setMembers([]));
  }, [itemId]);
  useEffect(load, [load]);

  async function add(values: AddValues) {
    if (!values.usernames?.length) return;
    setBusy(true);
    try {
      await addMembers({
        item_id: itemId,
        usernames: values.usernames,
        member_group_id: values.member_group_id,
        cat_id: catalogApplies(values.member_group_id) ? values.cat_id : 0,
      });
      form.setFieldsValue({ usernames: [] });
      load();
    } catch {
      // alerted (10310 with the quota explanation)
    } finally {
      setBusy(false);
    }
  }

  async function remove(member: ItemMember) {
    try {
      await removeMember(itemId, Number(member.item_member_id));
      load();
    } catch {
      // alerted
    }
  }

  const exclude = [...(members ?? []).map((m) => m.username), me?.username ?? ''];

  return (
    <>
      <Form
        form={form}
        layout="vertical"
        onFinish={add}
        initialValues={{ usernames: [], member_group_id: EDIT, cat_id: 0 }}
        style={{ background: '#f8f9fb', padding: 12, borderRadius: 8, marginBottom: 16 }}
      >
        <Form.Item
          name="usernames"
          label={t('members.addUsers')}
          rules={[{ required: true, message: t('members.pickRequired') }]}
        >
          <UserPicker exclude={exclude} />
        </Form.Item>
        <div style={{ display: 'flex', gap: 12, flexWrap: 'wrap', alignItems: 'flex-end' }}>
          <Form.Item
            name="member_group_id"
            label={t('members.authorityLabel')}
            style={{ minWidth: 160, marginBottom: 0 }}
          >
            <Select options={AUTHORITIES.map((a) => ({ value: a.value, label: t(a.label) }))} />
          </Form.Item>
          <Form.Item noStyle dependencies={['member_group_id']}>
            {({ getFieldValue }) => (
              <Form.Item
                name="cat_id"
                label={t('members.catalog')}
                style={{ minWidth: 180, marginBottom: 0 }}
              >
                <Select
                  disabled={!catalogApplies(getFieldValue('member_group_id'))}
                  options={catalogs}
                />
              </Form.Item>
            )}
          </Form.Item>
          <Button type="primary" htmlType="submit" icon={<UserAddOutlined />} loading={busy}>
            {t('members.add')}
          </Button>
        </div>
      </Form>
      <Table<ItemMember>
        rowKey="item_member_id"
        size="small"
        loading={members === null}
        dataSource={members ?? []}
        pagination={{ pageSize: 8, hideOnSinglePage: true }}
        scroll={{ x: 560 }}
        locale={{ emptyText: t('members.empty') }}
        columns={[
          { title: t('members.username'), dataIndex: 'username' },
          { title: t('members.name'), dataIndex: 'name', render: (v: string | null) => v || '—' },
          {
            title: t('members.authorityLabel'),
            dataIndex: 'member_group_id',
            render: (v: string) => <Tag>{t(authorityLabel(v))}</Tag>,
          },
          {
            title: t('members.catalog'),
            dataIndex: 'cat_name',
            render: (v: string | undefined, row) =>
              Number(row.cat_id) > 0 ? v || row.cat_id : t('members.allCatalogs'),
          },
          { title: t('members.addedAt'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: 80,
            render: (_v, row) => (
              <Popconfirm
                title={t('members.removeConfirm', { name: row.username })}
                okText={t('common.delete')}
                cancelText={t('common.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => remove(row)}
              >
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('members.removeNamed', { name: row.username })}
                />
              </Popconfirm>
            ),
          },
        ]}
      />
    </>
  );
}
