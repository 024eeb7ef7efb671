/** Header (brand + language switch), centred content, footer: the frame of the public screens. */
import { Layout, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { LanguageSwitch } from './LanguageSwitch';

export function PageFrame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Layout style={{ minHeight: '100vh', background: '#fff' }}>
      <Layout.Header
        style={{
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'space-between',
          background: '#fff',
          borderBottom: '1px solid #f0f0f0',
        }}
      >
        <Link to="/" style={{ fontSize: 20, fontWeight: 600, color: 'inherit' }}>
          {t('app.name')}
        </Link>
        <LanguageSwitch />
      </Layout.Header>
      <Layout.Content
        style={{ padding: '48px 24px', maxWidth: 880, width: '100%', margin: '0 auto' }}
      >
        {children}
      </Layout.Content>
      <Layout.Footer style={{ textAlign: 'center', background: '#fff' }}>
        <Typography.Text type="secondary">{t('footer.poweredBy')}</Typography.Text>
      </Layout.Footer>
    </Layout>
  );
}
