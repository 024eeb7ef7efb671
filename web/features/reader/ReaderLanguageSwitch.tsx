/**
 * The reader's language choice. When the address carries a language code (`/en/…`) the code is
 * changed with it, so the address and the interface never disagree; otherwise only the stored
 * choice changes (spec 001 §2).
 */
import { GlobalOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LazyDropdown } from '../../components/LazyDropdown';
import { LANGUAGES, setLanguage } from '../../i18n';
import { LANGUAGE_CODES } from './paths';

export function useSwitchLanguage(): (locale: string) => void {
  const navigate = useNavigate();
  const location = useLocation();
  return (locale: string) => {
    setLanguage(locale);
    const segments = location.pathname.split('/');
    const code = LANGUAGES.find((l) => l.locale === locale)?.code;
    if (code && LANGUAGE_CODES.includes(segments[1] ?? '')) {
      segments[1] = code;
      void navigate(segments.join('/') + location.search, { replace: true });
    }
  };
}

export function ReaderLanguageSwitch() {
  const { t, i18n } = useTranslation();
  const switchTo = useSwitchLanguage();
  const current = LANGUAGES.find((l) => l.locale === i18n.language);
  return (
    <LazyDropdown
      trigger={['click']}
      menu={{
        selectable: true,
        selectedKeys: [i18n.language],
        items: LANGUAGES.map((l) => ({ key: l.locale, label: l.label })),
        onClick: ({ key }) => switchTo(key),
      }}
    >
      <Button
        type="text"
        icon={<GlobalOutlined />}
        aria-label={t('language.label')}
        data-testid="language-switch"
      >
        {current?.label}
      </Button>
    </LazyDropdown>
  );
}
