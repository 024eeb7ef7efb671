/**
 * Spec 001 §8 "Page quota exceeded on a new page": opening the editor on a new page asks
 * `isLock` (page 0) whether the item's page quota is used up (`exceed`, a back-office setting,
 * off by default); if so an alert explains the limit, with links to the prices and the user
 * centre, and the editor closes when it is dismissed.
 */
import { App } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { isLock } from './editorApi';

const link = (href: string, text: string) => (
  <a href={href} target="_blank" rel="noopener noreferrer">
    {text}
  </a>
);

export function usePageQuota(pageId: number, itemId: number, leaveNow: () => void): void {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  // The check runs once per page being opened: leaveNow and t change identity as the editor
  // loads (the lock, the page's meta), and rerunning on them showed the alert twice.
  const leaveRef = useRef(leaveNow);
  leaveRef.current = leaveNow;
  const tRef = useRef(t);
  tRef.current = t;
  useEffect(() => {
    const t = tRef.current;
    if (pageId) return;
    let current = true;
    isLock(0, itemId).then(
      (state) => {
        if (!current || Number(state.exceed) !== 1) return;
        modal.warning({
          title: t('editor.quota.title'),
          content: (
            <div data-testid="page-quota-alert">
              <p>{t('editor.quota.text')}</p>
              <p>
                {link('/prices', t('editor.quota.prices'))} ·{' '}
                {link('/user/setting', t('editor.quota.upgrade'))}
              </p>
            </div>
          ),
          okText: t('editor.quota.leave'),
          onOk: () => leaveRef.current(),
        });
      },
      () => undefined, // no answer: the save itself still refuses a page over the quota
    );
    return () => {
      current = false;
    };
  }, [pageId, itemId, modal]);
}
