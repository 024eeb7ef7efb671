/**
 * The item card's "…" menu (spec 000 §2, §6): everyone may open, share and star; item managers
 * also update, manage members, open API, recycle bin, attorn, copy, archive and delete (of a
 * read-only type-3 item: settings, open API, copy and delete).
 */
import {
  ApiOutlined,
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EllipsisOutlined,
  ExportOutlined,
  InboxOutlined,
  RestOutlined,
  SettingOutlined,
  ShareAltOutlined,
  StarFilled,
  StarOutlined,
  SwapOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { Button, Dropdown, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ItemListEntry } from '../../api/types';

export type ItemAction =
  | 'open'
  | 'share'
  | 'star'
  | 'update'
  | 'settings'
  | 'members'
  | 'openApi'
  | 'recycle'
  | 'attorn'
  | 'copy'
  | 'archive'
  | 'delete';

export function ItemActionsMenu({
  item,
  onAction,
}: {
  item: ItemListEntry;
  onAction: (action: ItemAction) => void;
}) {
  const { t } = useTranslation();
  const starred = Number(item.is_star) > 0;
  const entries: MenuProps['items'] = [
    { key: 'open', icon: <ExportOutlined />, label: t('items.actions.open') },
    { key: 'share', icon: <ShareAltOutlined />, label: t('items.actions.share') },
    {
      key: 'star',
      icon: starred ? <StarFilled /> : <StarOutlined />,
      label: starred ? t('items.actions.unstar') : t('items.actions.star'),
    },
  ];
  // A type-3 (RunApi) item is read-only for everyone (models/access): its manager keeps only
  // what still works — settings (to read), open API, copy and delete.
  const readOnly = String(item.item_type) === '3';
  if (item.manage) {
    const managerEntries: NonNullable<MenuProps['items']> = [
      { type: 'divider' },
      { key: 'update', icon: <EditOutlined />, label: t('items.actions.update') },
      { key: 'settings', icon: <SettingOutlined />, label: t('itemSetting.open') },
      { key: 'members', icon: <UsergroupAddOutlined />, label: t('items.actions.members') },
      { key: 'openApi', icon: <ApiOutlined />, label: t('items.actions.openApi') },
      { key: 'recycle', icon: <RestOutlined />, label: t('items.actions.recycle') },
      { type: 'divider' },
      { key: 'attorn', icon: <SwapOutlined />, label: t('items.actions.attorn') },
      { key: 'copy', icon: <CopyOutlined />, label: t('items.actions.copy') },
      { key: 'archive', icon: <InboxOutlined />, label: t('items.actions.archive') },
      { key: 'delete', icon: <DeleteOutlined />, label: t('items.actions.delete'), danger: true },
    ];
    const kept = new Set(['settings', 'openApi', 'copy', 'delete']);
    entries.push(
      ...managerEntries.filter(
        (entry) => !readOnly || entry?.type === 'divider' || kept.has(String(entry?.key)),
      ),
    );
  }
  return (
    <Dropdown
      trigger={['click']}
      menu={{
        items: entries,
        onClick: ({ key, domEvent }) => {
          domEvent.stopPropagation();
          onAction(key as ItemAction);
        },
      }}
    >
      <Button
        type="text"
        icon={<EllipsisOutlined />}
        aria-label={t('items.actions.label', { name: item.item_name })}
        onClick={(e) => e.stopPropagation()}
        onMouseDown={(e) => e.stopPropagation()}
        onTouchStart={(e) => e.stopPropagation()}
      />
    </Dropdown>
  );
}
