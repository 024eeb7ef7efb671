/** Any route the app does not know. */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageFrame } from '../../components/PageFrame';

export function NotFound() {
  const { t } = useTranslation();
  return (
    <PageFrame>
      <Result
        status="404"
        title={t('notFound.title')}
        extra={<Link to="/">{t('notFound.home')}</Link>}
      />
    </PageFrame>
  );
}
