/** The start page: what Quire is, and the way in. */
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { PageFrame } from '../../components/PageFrame';

export function Landing() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <PageFrame>
      <Typography.Title>{t('app.name')}</Typography.Title>
      <Typography.Paragraph style={{ fontSize: 18 }}>{t('landing.tagline')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('landing.intro')}</Typography.Paragraph>
      <Space>
        {/* A real link (open in new tab works) that navigates client-side on a plain click. */}
        <Button
          type="primary"
          size="large"
          href="/user/login"
          onClick={(event) => {
            if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
            event.preventDefault();
            void navigate('/user/login');
          }}
        >
          {t('landing.login')}
        </Button>
      </Space>
    </PageFrame>
  );
}
