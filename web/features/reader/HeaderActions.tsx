/**
 * The reader header's icons by role (spec 001 §2, §6; spec 002 §2): edit (editors), share,
 * notices with the 'New' badge and user centre (logged in), the manager menu (item managers),
 * login and about (anonymous visitors), and the language choice. The single-page item variant
 * is simpler: edit, share, members, login/about, and a manager menu of update, transfer,
 * archive and delete.
 */
import {
  BellOutlined,
  DeleteOutlined,
  DownloadOutlined,
  EditOutlined,
  HistoryOutlined,
  InboxOutlined,
  InfoCircleOutlined,
  LoginOutlined,
  RestOutlined,
  SettingOutlined,
  ShareAltOutlined,
  SwapOutlined,
  UploadOutlined,
  UserOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { Badge, Button, Tooltip, type MenuProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { currentPathAsRedirect } from '../../auth/redirect';
import { LazyDropdown } from '../../components/LazyDropdown';
import { useUnread } from '../notices/unreadContext';
import type { ReaderDialog } from './dialogs';
import { ReaderLanguageSwitch } from './ReaderLanguageSwitch';
import { editPagePath } from './paths';
import type { ItemInfo } from './types';

function Icon({
  label,
  icon,
  onClick,
  testId,
}: {
  label: string;
  icon: ReactNode;
  onClick?: () => void;
  testId?: string;
}) {
  return (
    <Tooltip title={label}>
      <Button type="text" aria-label={label} icon={icon} onClick={onClick} data-testid={testId} />
    </Tooltip>
  );
}

export function HeaderActions({
  item,
  pageId,
  loggedIn,
  simple = false,
  open,
}: {
  item: ItemInfo;
  /** The open page (0: none). */
  pageId: number;
  loggedIn: boolean;
  /** The single-page item variant. */
  simple?: boolean;
  open: (dialog: ReaderDialog) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { remind, announce } = useUnread();
  const hasNew = remind + announce > 0 || item.unread_count > 0;

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

  const loginPath = `/user/login?redirect=${encodeURIComponent(
    currentPathAsRedirect(location.pathname, location.search),
  )}`;

  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 4 }} data-testid="header-actions">
      {/* A spreadsheet is edited in place (web/features/sheet), not in the Markdown editor. */}
      {item.item_edit && pageId > 0 && item.item_type !== '4' && (
        <Icon
          label={t('reader.editPage')}
          icon={<EditOutlined />}
          onClick={() => void navigate(editPagePath(item.item_id, pageId))}
          testId="edit-page"
        />
      )}
      <Icon
        label={t('reader.share')}
        icon={<ShareAltOutlined />}
        onClick={() => open('share')}
        testId="share"
      />
      {simple && item.item_manage && (
        <Icon
          label={t('reader.manage.members')}
          icon={<UsergroupAddOutlined />}
          onClick={() => open('members')}
        />
      )}
      {loggedIn && !simple && (
        <>
          <span data-testid="notices-icon" data-unread={hasNew ? 'yes' : 'no'}>
            <Badge count={hasNew ? t('header.new') : 0} size="small" offset={[-4, 4]}>
              <Icon
                label={t('header.notices')}
                icon={<BellOutlined />}
                onClick={() => open('notices')}
              />
            </Badge>
          </span>
          <Icon
            label={t('header.user')}
            icon={<UserOutlined />}
            onClick={() => open('user')}
            testId="user-centre"
          />
        </>
      )}
      {item.item_manage && (
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
      )}
      {!loggedIn && (
        <>
          <Icon
            label={t('reader.login')}
            icon={<LoginOutlined />}
            onClick={() => void navigate(loginPath)}
            testId="login"
          />
          <Icon
            label={t('reader.about')}
            icon={<InfoCircleOutlined />}
            onClick={() => void navigate('/')}
          />
        </>
      )}
      <ReaderLanguageSwitch />
    </div>
  );
}
