/** `/team/member/:id`: a team's members; its managers add members (ordinary or admin) and remove them. */
import { DeleteOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Form, Popconfirm, Select, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { addTeamMember, listTeamMembers, removeTeamMember } from '../../api/teams';
import type { TeamMember } from '../../api/types';
import { useLogin } from '../../auth/useLogin';
import { ScreenCard } from '../layout/ScreenCard';
import { UserPicker } from '../members/UserPicker';
import { useTeam } from './useTeam';

const MEMBER = 1;
const TEAM_ADMIN = 2;

export default function TeamMembersPage() {
  const { t } = useTranslation();
  const teamId = Number(useParams().id);
  const team = useTeam(teamId);
  const me = useLogin();
  const manager = Number(team?.team_manage ?? 0) > 0;
  const [members, setMembers] = useState<TeamMember[] | null>(null);
  const [form] = Form.useForm<{ usernames: string[]; role: 1 | 2 }>();
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    listTeamMembers(teamId).then(setMembers, () => setMembers([]));
  }, [teamId]);
  useEffect(load, [load]);

  async function add(values: { usernames: string[]; role: 1 | 2 }) {
    setBusy(true);
    try {
      for (const username of values.usernames ?? [])
        await addTeamMember(teamId, username, values.role);
      form.setFieldsValue({ usernames: [] });
    } catch {
      // alerted
    } finally {
      setBusy(false);
      load();
    }
  }

  async function remove(member: TeamMember) {
    try {
      await removeTeamMember(Number(member.id));
      load();
    } catch {
      // alerted
    }
  }

  const exclude = [...(members ?? []).map((m) => m.member_username), me?.username ?? ''];
  return (
    <ScreenCard title={t('teams.membersTitle', { name: team?.team_name ?? '' })} back="/team/index">
      {manager && (
        <Form
          form={form}
          layout="vertical"
          onFinish={add}
          initialValues={{ usernames: [], role: MEMBER }}
          style={{ background: '#f8f9fb', padding: 12, borderRadius: 8, marginBottom: 16 }}
        >
          <Form.Item
            name="usernames"
            label={t('teams.addMembers')}
            rules={[{ required: true, message: t('members.pickRequired') }]}
          >
            <UserPicker exclude={exclude} />
          </Form.Item>
          <div style={{ display: 'flex', gap: 12, alignItems: 'flex-end', flexWrap: 'wrap' }}>
            <Form.Item
              name="role"
              label={t('teams.role')}
              style={{ minWidth: 180, marginBottom: 0 }}
            >
              <Select
                options={[
                  { value: MEMBER, label: t('teams.roleMember') },
                  { value: TEAM_ADMIN, label: t('teams.roleAdmin') },
                ]}
              />
            </Form.Item>
            <Button type="primary" htmlType="submit" icon={<UserAddOutlined />} loading={busy}>
              {t('members.add')}
            </Button>
          </div>
        </Form>
      )}
      <Table<TeamMember>
        rowKey="id"
        loading={members === null}
        dataSource={members ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 560 }}
        locale={{ emptyText: t('teams.noMembers') }}
        columns={[
          { title: t('members.username'), dataIndex: 'member_username' },
          { title: t('members.name'), dataIndex: 'name', render: (v: string | null) => v || '—' },
          {
            title: t('teams.role'),
            dataIndex: 'team_member_group_id',
            render: (v: string) =>
              Number(v) === TEAM_ADMIN ? (
                <Tag color="blue">{t('teams.roleAdmin')}</Tag>
              ) : (
                <Tag>{t('teams.roleMember')}</Tag>
              ),
          },
          { title: t('members.addedAt'), dataIndex: 'addtime', width: 170 },
          ...(manager
            ? [
                {
                  title: t('common.actions'),
                  width: 80,
                  render: (_v: unknown, row: TeamMember) => (
                    <Popconfirm
                      title={t('members.removeConfirm', { name: row.member_username })}
                      okText={t('common.delete')}
                      cancelText={t('common.cancel')}
                      okButtonProps={{ danger: true }}
                      onConfirm={() => remove(row)}
                    >
                      <Button
                        type="text"
                        danger
                        icon={<DeleteOutlined />}
                        aria-label={t('members.removeNamed', { name: row.member_username })}
                      />
                    </Popconfirm>
                  ),
                },
              ]
            : []),
        ]}
      />
    </ScreenCard>
  );
}
