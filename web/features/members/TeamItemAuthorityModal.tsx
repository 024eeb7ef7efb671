/**
 * The authorities of one team's members on one item (spec 000 §4): per member an authority and,
 * for read-only and edit, a catalog; "all read-only" sets every member to 0. Changes save as they
 * are made. Used from the item's member manager and from the team's item list.
 */
import { App, Button, Modal, Select, Table } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { listTeamItemMembers, setTeamItemMember } from '../../api/teams';
import type { TeamItemMember } from '../../api/types';
import { AUTHORITIES, catalogApplies, READ_ONLY } from './authority';
import { useCatalogOptions } from './useCatalogOptions';

export default function TeamItemAuthorityModal({
  itemId,
  teamId,
  title,
  onClose,
}: {
  itemId: number;
  teamId: number;
  title: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const catalogs = useCatalogOptions(itemId);
  const [rows, setRows] = useState<TeamItemMember[] | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(() => {
    listTeamItemMembers(itemId, teamId).then(setRows, () => setRows([]));
  }, [itemId, teamId]);
  useEffect(load, [load]);

  async function change(
    row: TeamItemMember,
    update: { member_group_id: number } | { cat_id: number },
  ) {
    try {
      await setTeamItemMember(Number(row.id), update);
      message.success(t('members.saved'));
      load();
    } catch {
      load(); // alerted; show what the server kept
    }
  }

  async function allReadOnly() {
    setBusy(true);
    try {
      for (const row of rows ?? [])
        if (Number(row.member_group_id) !== READ_ONLY)
          await setTeamItemMember(Number(row.id), { member_group_id: READ_ONLY });
      message.success(t('members.allReadOnlyDone'));
    } catch {
      // alerted
    } finally {
      setBusy(false);
      load();
    }
  }

  return (
    <Modal open title={title} footer={null} onCancel={onClose} destroyOnHidden width={720}>
      <div style={{ display: 'flex', justifyContent: 'flex-end', marginBottom: 12 }}>
        <Button onClick={() => void allReadOnly()} loading={busy} disabled={!rows?.length}>
          {t('members.allReadOnly')}
        </Button>
      </div>
      <Table<TeamItemMember>
        rowKey="id"
        size="small"
        loading={rows === null}
        dataSource={rows ?? []}
        pagination={false}
        scroll={{ x: 560 }}
        locale={{ emptyText: t('teams.noMembers') }}
        columns={[
          {
            title: t('members.username'),
            dataIndex: 'member_username',
            render: (v: string, row) => (row.name ? `${v} (${row.name})` : v),
          },
          {
            title: t('members.authorityLabel'),
            dataIndex: 'member_group_id',
            width: 170,
            render: (v: string, row) => (
              <Select
                size="small"
                style={{ width: 150 }}
                aria-label={t('members.authorityOf', { name: row.member_username })}
                value={Number(v)}
                options={AUTHORITIES.map((a) => ({ value: a.value, label: t(a.label) }))}
                onChange={(value: number) => void change(row, { member_group_id: value })}
              />
            ),
          },
          {
            title: t('members.catalog'),
            dataIndex: 'cat_id',
            width: 190,
            render: (v: string, row) => (
              <Select
                size="small"
                style={{ width: 170 }}
                aria-label={t('members.catalogOf', { name: row.member_username })}
                disabled={!catalogApplies(row.member_group_id)}
                value={Number(row.cat_ids?.[0] ?? v ?? 0)}
                options={catalogs}
                onChange={(value: number) => void change(row, { cat_id: value })}
              />
            ),
          },
          { title: t('members.addedAt'), dataIndex: 'addtime', width: 170 },
        ]}
      />
      <p style={{ color: '#667085', fontSize: 12, marginTop: 12 }}>
        {t('members.teamAuthorityHint')}
      </p>
    </Modal>
  );
}
