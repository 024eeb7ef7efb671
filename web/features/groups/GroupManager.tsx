/**
 * The item group manager (spec 000 §2): drag to sort, add, edit, delete. Used in the dialog of
 * the item list and on `/item/group/index`.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Empty, Popconfirm, Space, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { deleteGroup, listGroups, saveGroupOrder } from '../../api/groups';
import type { ItemGroup } from '../../api/types';
import { SortableCard, SortableList } from '../../components/SortableList';
import { GroupFormModal } from './GroupFormModal';

export function GroupManager({ onChanged }: { onChanged?: () => void }) {
  const { t } = useTranslation();
  const [groups, setGroups] = useState<ItemGroup[] | null>(null);
  const [editing, setEditing] = useState<ItemGroup | null | 'new'>(null);

  const load = useCallback(async () => {
    try {
      setGroups(await listGroups());
    } catch {
      setGroups([]);
    }
  }, []);

  useEffect(() => {
    void load();
  }, [load]);

  const changed = () => {
    void load();
    onChanged?.();
  };

  async function reorder(next: ItemGroup[]) {
    setGroups(next);
    try {
      await saveGroupOrder(next.map((g, index) => ({ id: Number(g.id), s_number: index + 1 })));
      onChanged?.();
    } catch {
      void load(); // alerted; show the order the server kept
    }
  }

  async function remove(group: ItemGroup) {
    try {
      await deleteGroup(Number(group.id));
      changed();
    } catch {
      // alerted
    }
  }

  if (!groups) return <Spin />;

  return (
    <div>
      <Typography.Paragraph type="secondary">{t('groups.help')}</Typography.Paragraph>
      {groups.length === 0 ? (
        <Empty description={t('groups.empty')} />
      ) : (
        <div role="list" aria-label={t('groups.title')}>
          <SortableList
            items={groups}
            getId={(g) => String(g.id)}
            getLabel={(g) => g.group_name}
            onReorder={reorder}
          >
            {(group, drag) => (
              <SortableCard
                drag={drag}
                handleLabel={t('sort.handle', { name: group.group_name })}
                attributes={{ 'data-group-name': group.group_name }}
              >
                <Typography.Text strong style={{ flex: 1 }} ellipsis>
                  {group.group_name}
                </Typography.Text>
                <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                  {t('groups.itemCount', {
                    count: group.item_ids ? group.item_ids.split(',').filter(Boolean).length : 0,
                  })}
                </Typography.Text>
                <Space size={2}>
                  <Button
                    type="text"
                    icon={<EditOutlined />}
                    aria-label={t('groups.editNamed', { name: group.group_name })}
                    onClick={() => setEditing(group)}
                  />
                  <Popconfirm
                    title={t('groups.deleteConfirm', { name: group.group_name })}
                    okText={t('common.delete')}
                    cancelText={t('common.cancel')}
                    okButtonProps={{ danger: true }}
                    onConfirm={() => remove(group)}
                  >
                    <Button
                      type="text"
                      danger
                      icon={<DeleteOutlined />}
                      aria-label={t('groups.deleteNamed', { name: group.group_name })}
                    />
                  </Popconfirm>
                </Space>
              </SortableCard>
            )}
          </SortableList>
        </div>
      )}
      <Button type="dashed" block icon={<PlusOutlined />} onClick={() => setEditing('new')}>
        {t('groups.add')}
      </Button>
      {editing && (
        <GroupFormModal
          group={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={changed}
        />
      )}
    </div>
  );
}
