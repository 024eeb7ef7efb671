/**
 * The teams bound to an item: bind one of the user's teams, unbind, and set each team member's
 * authority on this item.
 */
import { DeleteOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Select, Space, Table } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { bindTeamItem, listItemTeams, listTeams, unbindTeamItem } from '../../api/teams';
import type { Team, TeamItem } from '../../api/types';

const TeamItemAuthorityModal = lazy(() => import('./TeamItemAuthorityModal'));

export function ItemTeams({ itemId }: { itemId: number }) {
  const { t } = useTranslation();
  const [bound, setBound] = useState<TeamItem[] | null>(null);
  const [teams, setTeams] = useState<Team[]>([]);
  const [picked, setPicked] = useState<number | undefined>(undefined);
  const [authority, setAuthority] = useState<TeamItem | null>(null);

  const load = useCallback(() => {
    listItemTeams(itemId).then(setBound, () => setBound([]));
  }, [itemId]);
  useEffect(load, [load]);
  useEffect(() => {
    listTeams().then(
      (list) => setTeams(list.filter((team) => Number(team.team_manage) > 0)),
      () => {},
    );
  }, []);

  async function bind() {
    if (!picked) return;
    try {
      await bindTeamItem(picked, [itemId]);
      setPicked(undefined);
      load();
    } catch {
      // alerted
    }
  }

  async function unbind(row: TeamItem) {
    try {
      await unbindTeamItem(Number(row.id));
      load();
    } catch {
      // alerted
    }
  }

  const boundIds = new Set((bound ?? []).map((b) => String(b.team_id)));
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Select
          style={{ minWidth: 220 }}
          placeholder={t('members.pickTeam')}
          aria-label={t('members.pickTeam')}
          value={picked}
          onChange={setPicked}
          options={teams
            .filter((team) => !boundIds.has(String(team.id)))
            .map((team) => ({ value: Number(team.id), label: team.team_name }))}
          notFoundContent={t('members.noTeams')}
        />
        <Button type="primary" disabled={!picked} onClick={() => void bind()}>
          {t('members.bindTeam')}
        </Button>
        <Link to="/team/index">{t('members.newTeam')}</Link>
      </Space>
      <Table<TeamItem>
        rowKey="id"
        size="small"
        loading={bound === null}
        dataSource={bound ?? []}
        pagination={false}
        locale={{ emptyText: t('members.noBoundTeams') }}
        columns={[
          { title: t('teams.name'), dataIndex: 'team_name' },
          { title: t('members.addedAt'), dataIndex: 'addtime', width: 170 },
          {
            title: t('common.actions'),
            width: 220,
            render: (_v, row) => (
              <Space size={4}>
                <Button size="small" icon={<SafetyOutlined />} onClick={() => setAuthority(row)}>
                  {t('members.memberAuthority')}
                </Button>
                <Popconfirm
                  title={t('members.unbindConfirm', { name: row.team_name })}
                  okText={t('common.confirm')}
                  cancelText={t('common.cancel')}
                  onConfirm={() => unbind(row)}
                >
                  <Button
                    size="small"
                    danger
                    icon={<DeleteOutlined />}
                    aria-label={t('members.unbindNamed', { name: row.team_name })}
                  />
                </Popconfirm>
              </Space>
            ),
          },
        ]}
      />
      <Suspense fallback={null}>
        {authority && (
          <TeamItemAuthorityModal
            itemId={itemId}
            teamId={Number(authority.team_id)}
            title={t('members.authorityTitle', { team: authority.team_name ?? '' })}
            onClose={() => setAuthority(null)}
          />
        )}
      </Suspense>
    </>
  );
}
