/**
 * The frame of the public screens (landing, login, register, prices): brand, language switch, an
 * optional account link, centred content, footer (with the site's filing number when set).
 */
import { Layout, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useLogin } from '../auth/useLogin';
import { LanguageSwitch } from './LanguageSwitch';

export function PageFrame({
  children,
  accountLink = false,
  footerNote,
  width = 880,
}: {
  children: ReactNode;
  /** Show "Login / Register" (or "My items" when logged in) in the header. */
  accountLink?: boolean;
  footerNote?: string;
  width?: number;
}) {
  const { t } = useTranslation();
  const login = useLogin();
  return (
    <Layout style={{ minHeight: '100vh', background: '#f7f8fa' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: '#fff',
          borderBottom: '1px solid #eef0f3',
          paddingInline: 'clamp(12px, 4vw, 48px)',
        }}
      >
        <Link to="/" style={{ fontSize: 20, fontWeight: 600, color: 'inherit' }}>
          {t('app.name')}
        </Link>
        <Space size="middle">
          {accountLink && (
            <Link to={login ? '/item/index' : '/user/login'}>
              {login ? t('landing.myItems') : t('landing.loginRegister')}
            </Link>
          )}
          <LanguageSwitch />
        </Space>
      </Layout.Header>
      <Layout.Content
        style={{ padding: '48px 16px', maxWidth: width, width: '100%', margin: '0 auto' }}
      >
        {children}
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', background: 'transparent' }}>
        <Typography.Text type="secondary">{t('footer.poweredBy')}</Typography.Text>
        {footerNote && (
          <div>
            <Typography.Text type="secondary">{footerNote}</Typography.Text>
          </div>
        )}
      </Layout.Footer>
    </Layout>
  );
}
