/**
 * The plan part of the user centre. Quire is self-hosted: everything is included, nothing to
 * upgrade; the link shows what that means next to ShowDoc's hosted plans.
 */
import { CheckCircleOutlined } from '@ant-design/icons';
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function PlanCard() {
  const { t } = useTranslation();
  return (
    <div>
      <Typography.Paragraph>
        <CheckCircleOutlined style={{ color: '#22a06b' }} /> {t('user.planSelfHosted')}
      </Typography.Paragraph>
      <Link to="/prices">{t('user.planDetails')}</Link>
    </div>
  );
}
