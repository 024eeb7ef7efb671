/**
 * The item list's left side (spec 000 §2): all items, starred items, then the user's groups, with
 * the group manager one click away. On a phone it becomes a row of chips above the list.
 */
import { FolderOutlined, ProfileOutlined, SettingOutlined, StarFilled } from '@ant-design/icons';
import { Button, Divider, Tooltip, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_ITEMS, STARRED } from '../../api/items';
import type { ItemGroup } from '../../api/types';

interface Entry {
  id: number;
  label: string;
  icon: ReactNode;
}

export function GroupNav({
  groups,
  selected,
  onSelect,
  onManage,
  compact,
}: {
  groups: ItemGroup[];
  selected: number;
  onSelect: (id: number) => void;
  onManage: () => void;
  compact: boolean;
}) {
  const { t } = useTranslation();
  const fixed: Entry[] = [
    { id: ALL_ITEMS, label: t('items.all'), icon: <ProfileOutlined /> },
    { id: STARRED, label: t('items.starred'), icon: <StarFilled style={{ color: '#f5b400' }} /> },
  ];
  const own: Entry[] = groups.map((g) => ({
    id: Number(g.id),
    label: g.group_name,
    icon: <FolderOutlined />,
  }));
  const button = (entry: Entry) => (
    <Button
      key={entry.id}
      type={selected === entry.id ? 'primary' : 'text'}
      ghost={false}
      icon={entry.icon}
      aria-pressed={selected === entry.id}
      onClick={() => onSelect(entry.id)}
      style={
        compact
          ? { flex: 'none' }
          : { justifyContent: 'flex-start', width: '100%', height: 40, marginBottom: 2 }
      }
    >
      {entry.label}
    </Button>
  );
  const manage = (
    <Tooltip title={t('groups.manageHint')}>
      <Button
        type="text"
        size="small"
        icon={<SettingOutlined />}
        aria-label={t('groups.manage')}
        onClick={onManage}
      />
    </Tooltip>
  );

  if (compact)
    return (
      <nav
        aria-label={t('groups.navLabel')}
        style={{
          display: 'flex',
          alignItems: 'center',
          gap: 6,
          overflowX: 'auto',
          paddingBottom: 8,
          marginBottom: 8,
        }}
      >
        {[...fixed, ...own].map(button)}
        {manage}
      </nav>
    );

  return (
    <nav aria-label={t('groups.navLabel')}>
      {fixed.map(button)}
      <Divider style={{ margin: '12px 0' }} />
      <div
        style={{
          display: 'flex',
          justifyContent: 'space-between',
          alignItems: 'center',
          padding: '0 8px 6px 12px',
        }}
      >
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('groups.title')}
        </Typography.Text>
        {manage}
      </div>
      {own.map(button)}
      {!own.length && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12, padding: '0 12px' }}>
          {t('groups.emptyHint')}
        </Typography.Paragraph>
      )}
    </nav>
  );
}
