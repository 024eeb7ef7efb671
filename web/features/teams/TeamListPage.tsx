/**
 * `/team/index`: the user's teams (spec 000 §2, §6). A team manager may open, rename, transfer
 * and delete a team; other members may only look and exit.
 */
import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Dropdown, Popconfirm, Space, Table, Tag } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { deleteTeam, exitTeam, listTeams } from '../../api/teams';
import type { Team } from '../../api/types';
import { ScreenCard } from '../layout/ScreenCard';
import { TeamAttornModal } from './TeamAttornModal';
import { TeamFormModal } from './TeamFormModal';

export default function TeamListPage() {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [teams, setTeams] = useState<Team[] | null>(null);
  const [editing, setEditing] = useState<Team | null | 'new'>(null);
  const [attorn, setAttorn] = useState<Team | null>(null);

  const load = useCallback(() => {
    listTeams().then(setTeams, () => setTeams([]));
  }, []);
  useEffect(load, [load]);

  function confirmDelete(team: Team) {
    modal.confirm({
      title: t('teams.deleteConfirm', { name: team.team_name }),
      content: t('teams.deleteWarning'),
      okText: t('common.delete'),
      okButtonProps: { danger: true },
      cancelText: t('common.cancel'),
      onOk: async () => {
        await deleteTeam(Number(team.id));
        message.success(t('common.deleted'));
        load();
      },
    });
  }

  async function exit(team: Team) {
    try {
      await exitTeam(Number(team.id));
      message.success(t('teams.exited'));
      load();
    } catch {
      // alerted
    }
  }

  return (
    <ScreenCard
      title={t('teams.title')}
      back="/item/index"
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')}>
          {t('teams.create')}
        </Button>
      }
    >
      <Table<Team>
        rowKey="id"
        loading={teams === null}
        dataSource={teams ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 640 }}
        locale={{ emptyText: t('teams.empty') }}
        columns={[
          {
            title: t('teams.name'),
            dataIndex: 'team_name',
            render: (name: string, team) => (
              <Space>
                <span>{name}</span>
                {Number(team.team_manage) > 0 && <Tag color="blue">{t('teams.manager')}</Tag>}
              </Space>
            ),
          },
          {
            title: t('teams.members'),
            dataIndex: 'memberCount',
            width: 110,
            render: (count: number, team) => (
              <Link
                to={`/team/member/${team.id}`}
                aria-label={t('teams.membersOf', { name: team.team_name })}
              >
                {count}
              </Link>
            ),
          },
          {
            title: t('teams.items'),
            dataIndex: 'itemCount',
            width: 110,
            render: (count: number, team) => (
              <Link
                to={`/team/item/${team.id}`}
                aria-label={t('teams.itemsOf', { name: team.team_name })}
              >
                {count}
              </Link>
            ),
          },
          { title: t('teams.createdAt'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: 120,
            render: (_v, team) =>
              Number(team.team_manage) > 0 ? (
                <Dropdown
                  trigger={['click']}
                  menu={{
                    items: [
                      {
                        key: 'members',
                        label: (
                          <Link to={`/team/member/${team.id}`}>{t('teams.manageMembers')}</Link>
                        ),
                      },
                      {
                        key: 'items',
                        label: <Link to={`/team/item/${team.id}`}>{t('teams.manageItems')}</Link>,
                      },
                      { key: 'rename', label: t('teams.rename'), onClick: () => setEditing(team) },
                      { key: 'attorn', label: t('teams.attorn'), onClick: () => setAttorn(team) },
                      { type: 'divider' },
                      {
                        key: 'delete',
                        label: t('common.delete'),
                        danger: true,
                        onClick: () => confirmDelete(team),
                      },
                    ],
                  }}
                >
                  <Button size="small" aria-label={t('teams.actionsFor', { name: team.team_name })}>
                    {t('common.manage')}
                  </Button>
                </Dropdown>
              ) : (
                <Popconfirm
                  title={t('teams.exitConfirm', { name: team.team_name })}
                  okText={t('teams.exit')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => exit(team)}
                >
                  <Button size="small" danger>
                    {t('teams.exit')}
                  </Button>
                </Popconfirm>
              ),
          },
        ]}
      />
      {editing && (
        <TeamFormModal
          team={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={load}
        />
      )}
      {attorn && <TeamAttornModal team={attorn} onClose={() => setAttorn(null)} onDone={load} />}
    </ScreenCard>
  );
}
