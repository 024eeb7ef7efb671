/**
 * The collaborator-quota alert (10310, spec 000 §8): who counts towards the limit, and where to
 * look at plans and the account. Plain anchors: it is shown in a dialog outside the router tree.
 * Plain paragraphs too: the app's entry imports this, and antd's Typography would bring its
 * tooltip, text area and copy button into every screen's first download (~25 KiB gzip).
 */
import { useTranslation } from 'react-i18next';

export function QuotaNotice({ message }: { message: string }) {
  const { t } = useTranslation();
  return (
    <div>
      <p>{message}</p>
      <p>{t('members.quotaExplain')}</p>
      <p>
        <a href="/prices">{t('members.quotaPrices')}</a>
        {' · '}
        <a href="/user/setting">{t('members.quotaSettings')}</a>
      </p>
    </div>
  );
}
