/**
 * The workspace header's icons (spec 000 §2): attachments, notices (with the 'New' badge), teams,
 * user centre, back office (admins only). Attachments, notices and the user panel open as
 * dialogs over the current screen, as in ShowDoc; teams and back office are screens.
 */
import {
  AppstoreOutlined,
  BellOutlined,
  FolderOpenOutlined,
  SettingOutlined,
  TeamOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Badge, Button, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { isAdmin } from '../../auth/storage';
import { useLogin } from '../../auth/useLogin';
import { useUnread } from '../notices/unreadContext';

export type HeaderDialog = 'attachments' | 'notices' | 'user';

function IconButton({
  label,
  icon,
  onClick,
}: {
  label: string;
  icon: ReactNode;
  onClick: () => void;
}) {
  return (
    <Tooltip title={label}>
      <Button
        aria-label={label}
        icon={icon}
        onClick={onClick}
        style={{ width: 40, height: 40, boxShadow: '0 0 4px rgba(0,0,0,0.08)', border: 'none' }}
      />
    </Tooltip>
  );
}

export function HeaderIcons({ open }: { open: (dialog: HeaderDialog) => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const login = useLogin();
  const { remind, announce } = useUnread();
  const hasNew = remind + announce > 0;
  return (
    <div style={{ display: 'flex', gap: 8, alignItems: 'center', flexWrap: 'nowrap' }}>
      <IconButton
        label={t('header.items')}
        icon={<AppstoreOutlined />}
        onClick={() => void navigate('/item/index')}
      />
      <IconButton
        label={t('header.attachments')}
        icon={<FolderOpenOutlined />}
        onClick={() => open('attachments')}
      />
      <span data-testid="notices-icon" data-unread={hasNew ? 'yes' : 'no'}>
        <Badge count={hasNew ? t('header.new') : 0} size="small" offset={[-4, 4]}>
          <IconButton
            label={t('header.notices')}
            icon={<BellOutlined />}
            onClick={() => open('notices')}
          />
        </Badge>
      </span>
      <IconButton
        label={t('header.teams')}
        icon={<TeamOutlined />}
        onClick={() => void navigate('/team/index')}
      />
      <IconButton label={t('header.user')} icon={<UserOutlined />} onClick={() => open('user')} />
      {isAdmin(login) && (
        <IconButton
          label={t('header.admin')}
          icon={<SettingOutlined />}
          onClick={() => void navigate('/admin/index')}
        />
      )}
    </div>
  );
}
