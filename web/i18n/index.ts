/**
 * Interface languages: the 13 of the spec (route prefix code → catalogue locale). English and
 * Simplified Chinese are complete; the others translate what they have and fall back to English.
 * Catalogues are flat JSON files in ./locales, one per locale.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';

export const LANGUAGES = [
  { code: 'cn', locale: 'zh_cn', label: '简体中文' },
  { code: 'en', locale: 'en_us', label: 'English' },
  { code: 'kr', locale: 'ko_kr', label: '한국어' },
  { code: 'jp', locale: 'ja_jp', label: '日本語' },
  { code: 'de', locale: 'de_de', label: 'Deutsch' },
  { code: 'fr', locale: 'fr_fr', label: 'Français' },
  { code: 'it', locale: 'it_it', label: 'Italiano' },
  { code: 'es', locale: 'es_es', label: 'Español' },
  { code: 'hu', locale: 'hu_hu', label: 'Magyar' },
  { code: 'pl', locale: 'pl_pl', label: 'Polski' },
  { code: 'tr', locale: 'tr_tr', label: 'Türkçe' },
  { code: 'ru', locale: 'ru_ru', label: 'Русский' },
  { code: 'pt', locale: 'pt_pt', label: 'Português' },
] as const;

export const DEFAULT_LOCALE = 'en_us';
const STORAGE_KEY = 'quire.locale';

type Catalogue = Record<string, unknown>;
const catalogues = import.meta.glob<Catalogue>('./locales/*.json', {
  eager: true,
  import: 'default',
});

function resources() {
  const out: Record<string, { translation: Catalogue }> = {};
  for (const [file, translation] of Object.entries(catalogues)) {
    const locale = file.replace(/^.*\/([a-z_]+)\.json$/, '$1');
    out[locale] = { translation };
  }
  return out;
}

/** The browser's language as one of ours: zh-* → zh_cn, de-AT → de_de, unknown → English. */
function browserLocale(): string {
  const wanted = (navigator.language || '').toLowerCase().slice(0, 2);
  const byPrefix: Record<string, string> = { zh: 'zh_cn', ko: 'ko_kr', ja: 'ja_jp' };
  const locale =
    byPrefix[wanted] ?? LANGUAGES.find((l) => l.locale.startsWith(`${wanted}_`))?.locale;
  return locale ?? DEFAULT_LOCALE;
}

function storedLocale(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null; // storage disabled
  }
}

export function initI18n(): typeof i18n {
  const stored = storedLocale();
  const lng = stored && LANGUAGES.some((l) => l.locale === stored) ? stored : browserLocale();
  void i18n.use(initReactI18next).init({
    resources: resources(),
    lng,
    fallbackLng: DEFAULT_LOCALE,
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  document.documentElement.lang = lng.replace('_', '-');
  return i18n;
}

export function setLanguage(locale: string): void {
  void i18n.changeLanguage(locale);
  document.documentElement.lang = locale.replace('_', '-');
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // not remembered; still switched for this visit
  }
}
