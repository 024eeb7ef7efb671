/** The language dropdown; the choice is remembered in localStorage. */
import { Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { LANGUAGES, setLanguage } from '../i18n';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  return (
    <Select
      aria-label={t('language.label')}
      size="small"
      style={{ width: 130 }}
      value={i18n.language}
      onChange={(locale: string) => setLanguage(locale)}
      options={LANGUAGES.map((l) => ({ value: l.locale, label: l.label }))}
    />
  );
}
