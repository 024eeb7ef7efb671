/**
 * The collaborator-quota alert (10310, spec 000 §8): who counts towards the limit, and where to
 * look at plans and the account. Plain anchors: it is shown in a dialog outside the router tree.
 */
import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';

export function QuotaNotice({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <Typography>
      <Typography.Paragraph>{message}</Typography.Paragraph>
      <Typography.Paragraph>{t('members.quotaExplain')}</Typography.Paragraph>
      <Typography.Paragraph>
        <a href="/prices">{t('members.quotaPrices')}</a>
        {' · '}
        <a href="/user/setting">{t('members.quotaSettings')}</a>
      </Typography.Paragraph>
    </Typography>
  );
}
