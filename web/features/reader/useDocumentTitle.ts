/** Sets the tab title while a reader screen is shown; back to the app's title on leaving. */
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export function useDocumentTitle(title: string | null): void {
  const { t } = useTranslation();
  const fallback = t('app.name');
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
  useEffect(() => () => void (document.title = fallback), [fallback]);
}
