/**
 * Connects the React-free API client to the app: alerts become Ant Design dialogs, navigation
 * goes through the router (the missing-item rule's language reset is set in main.tsx). Renders
 * nothing.
 */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { configureApiClient } from '../api/request';
import { useAppFeedback } from './AppFeedback';
import { QuotaNotice } from './QuotaNotice';

export function ApiBridge() {
  const { modal } = useAppFeedback();
  const navigate = useNavigate();
  const { t } = useTranslation();
  useEffect(() => {
    configureApiClient({
      alert: (message) => {
        modal.warning({ content: message, okText: t('common.ok'), maskClosable: true });
      },
      quotaAlert: (message) => {
        modal.warning({
          title: t('members.quotaTitle'),
          content: <QuotaNotice message={message} />,
          okText: t('common.ok'),
          width: 520,
        });
      },
      navigate: (to) => void navigate(to),
      reload: (to) => window.location.assign(to),
      text: (key) => (key === 'busy' ? t('scale.busy') : t(`errors.${key}`)),
    });
  }, [modal, navigate, t]);
  return null;
}
