/**
 * The logged-in frame: header (brand, live-connection dot, header icons, language) over the
 * current workspace screen. It owns the live connection and the unread state, so both last while
 * the user moves between workspace screens, and hosts the header's dialogs (loaded on first use).
 */
import { Grid, Layout } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet } from 'react-router';
import { LanguageSwitch } from '../../components/LanguageSwitch';
import { ScreenLoading } from '../../components/ScreenLoading';
import { LiveProvider } from '../../live/LiveProvider';
import { UnreadProvider } from '../notices/UnreadProvider';
import { ConnectionIndicator } from './ConnectionIndicator';
import { HeaderIcons, type HeaderDialog } from './HeaderIcons';

const AttachmentModal = lazy(() => import('../attachments/AttachmentModal'));
const NoticeModal = lazy(() => import('../notices/NoticeModal'));
const UserInfoModal = lazy(() => import('../user/UserInfoModal'));

export default function WorkspaceLayout() {
  const { t } = useTranslation();
  const screens = Grid.useBreakpoint();
  const [dialog, setDialog] = useState<HeaderDialog | null>(null);
  const close = () => setDialog(null);
  const narrow = !screens.md;

  return (
    <LiveProvider>
      <UnreadProvider>
        <Layout style={{ minHeight: '100vh', background: '#f5f6f8' }}>
          <Layout.Header
            style={{
              position: 'sticky',
              top: 0,
              zIndex: 10,
              display: 'flex',
              alignItems: 'center',
              justifyContent: 'space-between',
              gap: 12,
              height: 'auto',
              minHeight: 64,
              flexWrap: narrow ? 'wrap' : 'nowrap',
              padding: narrow ? '8px 12px' : '0 clamp(16px, 3vw, 40px)',
              background: '#fff',
              borderBottom: '1px solid #eceef2',
              lineHeight: 'normal',
            }}
          >
            <div style={{ display: 'flex', alignItems: 'center', gap: 10 }}>
              <Link to="/item/index" style={{ fontSize: 20, fontWeight: 700, color: '#1f2937' }}>
                {t('app.name')}
              </Link>
              <ConnectionIndicator />
            </div>
            <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
              <HeaderIcons open={setDialog} />
              {!narrow && <LanguageSwitch />}
            </div>
          </Layout.Header>
          <Layout.Content
            style={{
              width: '100%',
              maxWidth: 1120,
              margin: '0 auto',
              padding: narrow ? '16px 12px' : '32px 24px',
            }}
          >
            <Suspense fallback={<ScreenLoading />}>
              <Outlet />
            </Suspense>
          </Layout.Content>
        </Layout>
        <Suspense fallback={null}>
          {dialog === 'attachments' && <AttachmentModal onClose={close} />}
          {dialog === 'notices' && <NoticeModal onClose={close} />}
          {dialog === 'user' && <UserInfoModal onClose={close} />}
        </Suspense>
      </UnreadProvider>
    </LiveProvider>
  );
}
