/**
 * `/admin/index`: the back office's entry. Only administrators get in (others go back to their
 * items); the back office screens themselves arrive with their own issue (spec 002).
 */
import { Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, Navigate } from 'react-router';
import { isAdmin } from '../../auth/storage';
import { useLogin } from '../../auth/useLogin';
import { ScreenCard } from '../layout/ScreenCard';

export default function AdminEntry() {
  const { t } = useTranslation();
  const login = useLogin();
  if (!isAdmin(login)) return <Navigate replace to="/item/index" />;
  return (
    <ScreenCard title={t('admin.title')} back="/item/index">
      <Result
        status="info"
        title={t('admin.comingTitle')}
        subTitle={t('admin.comingText')}
        extra={<Link to="/item/index">{t('admin.back')}</Link>}
      />
    </ScreenCard>
  );
}
