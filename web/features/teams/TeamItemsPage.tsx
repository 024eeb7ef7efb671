/**
 * `/team/item/:id`: the items bound to a team. Its managers bind items they manage, unbind them,
 * and set each member's authority on an item.
 */
import { DeleteOutlined, LinkOutlined, SafetyOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Select, Space, Table } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { myItems } from '../../api/items';
import { bindTeamItem, listTeamItems, unbindTeamItem } from '../../api/teams';
import type { ItemListEntry, TeamItem } from '../../api/types';
import { itemPath } from '../items/itemTypes';
import { ScreenCard } from '../layout/ScreenCard';
import { useTeam } from './useTeam';

const TeamItemAuthorityModal = lazy(() => import('../members/TeamItemAuthorityModal'));

export default function TeamItemsPage() {
  const { t } = useTranslation();
  const teamId = Number(useParams().id);
  const team = useTeam(teamId);
  const manager = Number(team?.team_manage ?? 0) > 0;
  const [rows, setRows] = useState<TeamItem[] | null>(null);
  const [mine, setMine] = useState<ItemListEntry[]>([]);
  const [picked, setPicked] = useState<string[]>([]);
  const [authority, setAuthority] = useState<TeamItem | null>(null);

  const load = useCallback(() => {
    listTeamItems(teamId).then(setRows, () => setRows([]));
  }, [teamId]);
  useEffect(load, [load]);
  useEffect(() => {
    if (manager)
      myItems(0).then(
        (list) => setMine(list.filter((i) => i.manage)),
        () => {},
      );
  }, [manager]);

  async function bind() {
    try {
      await bindTeamItem(teamId, picked.map(Number));
      setPicked([]);
    } catch {
      // alerted
    } finally {
      load();
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

  const bound = new Set((rows ?? []).map((r) => String(r.item_id)));
  return (
    <ScreenCard title={t('teams.itemsTitle', { name: team?.team_name ?? '' })} back="/team/index">
      {manager && (
        <Space wrap style={{ marginBottom: 16 }}>
          <Select
            mode="multiple"
            style={{ minWidth: 280 }}
            placeholder={t('teams.pickItems')}
            aria-label={t('teams.pickItems')}
            value={picked}
            onChange={setPicked}
            showSearch={{ optionFilterProp: 'label' }}
            options={mine
              .filter((i) => !bound.has(String(i.item_id)))
              .map((i) => ({ value: String(i.item_id), label: i.item_name }))}
          />
          <Button
            type="primary"
            icon={<LinkOutlined />}
            disabled={!picked.length}
            onClick={() => void bind()}
          >
            {t('teams.bindItems')}
          </Button>
        </Space>
      )}
      <Table<TeamItem>
        rowKey="id"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={{ pageSize: 10, hideOnSinglePage: true }}
        scroll={{ x: 560 }}
        locale={{ emptyText: t('teams.noItems') }}
        columns={[
          {
            title: t('teams.itemName'),
            dataIndex: 'item_name',
            render: (name: string, row) => (
              <Link to={itemPath({ item_id: row.item_id })}>{name}</Link>
            ),
          },
          { title: t('members.addedAt'), dataIndex: 'addtime', width: 170 },
          ...(manager
            ? [
                {
                  title: t('common.actions'),
                  width: 230,
                  render: (_v: unknown, row: TeamItem) => (
                    <Space size={4}>
                      <Button
                        size="small"
                        icon={<SafetyOutlined />}
                        onClick={() => setAuthority(row)}
                      >
                        {t('members.memberAuthority')}
                      </Button>
                      <Popconfirm
                        title={t('teams.unbindConfirm', { name: row.item_name })}
                        okText={t('common.confirm')}
                        cancelText={t('common.cancel')}
                        onConfirm={() => unbind(row)}
                      >
                        <Button
                          size="small"
                          danger
                          icon={<DeleteOutlined />}
                          aria-label={t('teams.unbindNamed', { name: row.item_name })}
                        />
                      </Popconfirm>
                    </Space>
                  ),
                },
              ]
            : []),
        ]}
      />
      <Suspense fallback={null}>
        {authority && (
          <TeamItemAuthorityModal
            itemId={Number(authority.item_id)}
            teamId={teamId}
            title={t('members.authorityOnItem', { item: authority.item_name })}
            onClose={() => setAuthority(null)}
          />
        )}
      </Suspense>
    </ScreenCard>
  );
}
