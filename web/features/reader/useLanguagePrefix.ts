/** A language code in the address (`/en/…`, spec 002 §2) selects that interface language. */
import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { setLanguage } from '../../i18n';
import { localeOfCode } from './paths';

export function useLanguagePrefix(code: string | undefined): void {
  const { i18n } = useTranslation();
  const locale = localeOfCode(code);
  useLayoutEffect(() => {
    if (locale && i18n.language !== locale) setLanguage(locale);
  }, [locale, i18n]);
}
