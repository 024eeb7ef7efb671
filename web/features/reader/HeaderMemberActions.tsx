/**
 * The reader header's icons for signed-in users — notices with the 'New' badge, "available
 * offline" (issue #41) and the user centre — and the item manager's menu. Their own chunk: an anonymous reader sees none of them
 * and does not download them (issue #22).
 */
import {
  BellOutlined,
  CloudDownloadOutlined,
  DeleteOutlined,
  DownloadOutlined,
  HistoryOutlined,
  InboxOutlined,
  RestOutlined,
  SettingOutlined,
  SwapOutlined,
  UploadOutlined,
  UserOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { Badge, Button, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { LazyDropdown } from '../../components/LazyDropdown';
import { useUnread } from '../notices/unreadContext';
import type { ReaderDialog } from './dialogs';
import { HeaderIcon } from './HeaderIcon';
import type { ItemInfo } from './types';

export function MemberIcons({
  item,
  open,
}: {
  item: ItemInfo;
  open: (dialog: ReaderDialog) => void;
}) {
  const { t } = useTranslation();
  const { remind, announce } = useUnread();
  const hasNew = remind + announce > 0 || item.unread_count > 0;
  return (
    <>
      <span data-testid="notices-icon" data-unread={hasNew ? 'yes' : 'no'}>
        <Badge count={hasNew ? t('header.new') : 0} size="small" offset={[-4, 4]}>
          <HeaderIcon
            label={t('header.notices')}
            icon={<BellOutlined />}
            onClick={() => open('notices')}
          />
        </Badge>
      </span>
      <HeaderIcon
        label={t('offline.menu')}
        icon={<CloudDownloadOutlined />}
        onClick={() => open('offline')}
        testId="offline-menu"
      />
      <HeaderIcon
        label={t('header.user')}
        icon={<UserOutlined />}
        onClick={() => open('user')}
        testId="user-centre"
      />
    </>
  );
}

export function ManagerMenu({
  simple,
  open,
}: {
  /** The single-page item variant. */
  simple: boolean;
  open: (dialog: ReaderDialog) => void;
}) {
  const { t } = useTranslation();
  const manage: MenuProps['items'] = simple
    ? [
        { key: 'update', icon: <SettingOutlined />, label: t('reader.manage.update') },
        { key: 'attorn', icon: <SwapOutlined />, label: t('reader.manage.attorn') },
        { key: 'archive', icon: <InboxOutlined />, label: t('reader.manage.archive') },
        { key: 'delete', icon: <DeleteOutlined />, label: t('reader.manage.delete'), danger: true },
      ]
    : [
        { key: 'import', icon: <UploadOutlined />, label: t('reader.manage.import') },
        { key: 'export', icon: <DownloadOutlined />, label: t('reader.manage.export') },
        { key: 'members', icon: <UsergroupAddOutlined />, label: t('reader.manage.members') },
        { key: 'recycle', icon: <RestOutlined />, label: t('reader.manage.recycle') },
        { key: 'update', icon: <SettingOutlined />, label: t('reader.manage.update') },
        { key: 'changeLog', icon: <HistoryOutlined />, label: t('reader.manage.changeLog') },
        { type: 'divider' },
        { key: 'attorn', icon: <SwapOutlined />, label: t('reader.manage.attorn') },
        { key: 'archive', icon: <InboxOutlined />, label: t('reader.manage.archive') },
        { key: 'delete', icon: <DeleteOutlined />, label: t('reader.manage.delete'), danger: true },
      ];
  return (
    <LazyDropdown
      trigger={['click']}
      menu={{ items: manage, onClick: ({ key }) => open(key as ReaderDialog) }}
    >
      <Button
        type="text"
        aria-label={t('reader.manage.label')}
        icon={<SettingOutlined />}
        data-testid="manage-menu"
      />
    </LazyDropdown>
  );
}
