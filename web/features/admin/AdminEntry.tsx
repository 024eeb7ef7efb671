/**
 * `/admin/index`: the back office (spec 002 §2), its own lazy chunk. Only administrators get in
 * (others go back to their items). The left menu keeps the spec's order; the open tab is in the
 * URL (`?tab=`) so a reload or a shared link lands on the same screen. Items the spec marks
 * Chinese-only (about) appear only when the interface is in Chinese.
 */
import { Badge, Layout, Menu } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useSearchParams } from 'react-router';
import { checkUpdate } from './api';
import { isAdmin } from '../../auth/storage';
import { useLogin } from '../../auth/useLogin';
import { ScreenCard } from '../layout/ScreenCard';
import { AdminAbout, isNewer } from './AdminAbout';
import { AdminAttachments } from './AdminAttachments';
import { AdminExtLogin } from './AdminExtLogin';
import { AdminItems } from './AdminItems';
import { AdminSettings } from './AdminSettings';
import { AdminUsers } from './AdminUsers';

const TABS = ['users', 'items', 'attachments', 'extLogin', 'settings', 'about'] as const;
type Tab = (typeof TABS)[number];

export const isChinese = (language: string) => language.startsWith('zh');

export default function AdminEntry() {
  const { t, i18n } = useTranslation();
  const login = useLogin();
  const navigate = useNavigate();
  const [params, setParams] = useSearchParams();
  const chinese = isChinese(i18n.language);
  const [updateAvailable, setUpdateAvailable] = useState(false);
  const requested = params.get('tab') as Tab | null;
  const tab: Tab =
    requested && TABS.includes(requested) && (requested !== 'about' || chinese)
      ? requested
      : 'users';

  const admin = isAdmin(login);
  useEffect(() => {
    if (!admin || !chinese) return;
    checkUpdate().then(
      (info) => setUpdateAvailable(isNewer(info.new_version, info.version)),
      () => setUpdateAvailable(false),
    );
  }, [admin, chinese]);

  if (!admin) return <Navigate replace to="/item/index" />;

  const items = [
    { key: 'users', label: t('admin.menu.users') },
    { key: 'items', label: t('admin.menu.items') },
    { key: 'attachments', label: t('admin.menu.attachments') },
    { key: 'extLogin', label: t('admin.menu.extLogin') },
    { key: 'settings', label: t('admin.menu.settings') },
    ...(chinese
      ? [
          {
            key: 'about',
            label: (
              <Badge dot={updateAvailable} offset={[8, 0]}>
                {t('admin.menu.about')}
              </Badge>
            ),
          },
        ]
      : []),
    { key: 'back', label: t('admin.back') },
  ];

  return (
    <ScreenCard title={t('admin.title')} back="/item/index">
      <Layout style={{ background: 'transparent' }}>
        <Layout.Sider width={190} theme="light" breakpoint="md" collapsedWidth={0}>
          <Menu
            mode="inline"
            selectedKeys={[tab]}
            items={items}
            onClick={({ key }) =>
              key === 'back'
                ? void navigate('/item/index')
                : setParams({ tab: key }, { replace: true })
            }
          />
        </Layout.Sider>
        <Layout.Content style={{ padding: '0 0 0 24px', minWidth: 0 }}>
          {tab === 'users' && <AdminUsers />}
          {tab === 'items' && <AdminItems />}
          {tab === 'attachments' && <AdminAttachments />}
          {tab === 'extLogin' && <AdminExtLogin chinese={chinese} />}
          {tab === 'settings' && <AdminSettings chinese={chinese} />}
          {tab === 'about' && <AdminAbout />}
        </Layout.Content>
      </Layout>
    </ScreenCard>
  );
}
