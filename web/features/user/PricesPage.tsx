/** `/prices`: what a self-hosted Quire includes (no paid plans, no collaborator quota). */
import { CheckOutlined } from '@ant-design/icons';
import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/PageFrame';

const FEATURES = [
  'prices.featureItems',
  'prices.featureMembers',
  'prices.featureLive',
  'prices.featureApi',
  'prices.featureStorage',
] as const;

export default function PricesPage() {
  const { t } = useTranslation();
  return (
    <PageFrame accountLink>
      <Typography.Title>{t('prices.title')}</Typography.Title>
      <Card variant="borderless">
        <Typography.Title level={3}>{t('prices.planName')}</Typography.Title>
        <Typography.Paragraph type="secondary">{t('prices.planIntro')}</Typography.Paragraph>
        <ul style={{ listStyle: 'none', padding: 0 }}>
          {FEATURES.map((key) => (
            <li key={key} style={{ padding: '4px 0' }}>
              <CheckOutlined style={{ color: '#22a06b', marginRight: 8 }} />
              {t(key)}
            </li>
          ))}
        </ul>
      </Card>
    </PageFrame>
  );
}
