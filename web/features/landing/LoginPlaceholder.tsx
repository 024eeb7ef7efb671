/** /user/login until the accounts screens land: says plainly that sign-in is not there yet. */
import { Alert, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { PageFrame } from '../../components/PageFrame';

export function LoginPlaceholder() {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <Typography.Title level={2}>{t('login.title')}</Typography.Title>
      <Alert type="info" showIcon title={t('login.notYet')} />
    </PageFrame>
  );
}
