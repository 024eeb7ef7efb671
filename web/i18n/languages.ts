/**
 * The 13 interface languages of the spec (route prefix code → catalogue locale) and how a stored
 * or browser language maps onto them. No i18next here: plain data and functions, used by the
 * i18n setup, the language switch and the reader's language-prefixed addresses.
 */
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
/** ShowDoc's key: a language picked in one screen holds in every other, the reader included. */
export const LANGUAGE_STORAGE_KEY = 'help_lang';

/**
 * One of our locales for a stored or browser value: our own locales as they are, ShowDoc's
 * spellings (`zh-cn`, `en`) and route codes (`cn`, `kr`), browser tags (`de-AT`, `zh-Hans`).
 */
export function normaliseLocale(value: string | null | undefined): string | null {
  if (!value) return null;
  const raw = value.trim().toLowerCase().replace('-', '_');
  if (LANGUAGES.some((l) => l.locale === raw)) return raw;
  const byCode = LANGUAGES.find((l) => l.code === raw);
  if (byCode) return byCode.locale;
  const prefix = raw.slice(0, 2);
  const byPrefix: Record<string, string> = { zh: 'zh_cn', ko: 'ko_kr', ja: 'ja_jp' };
  return (
    byPrefix[prefix] ?? LANGUAGES.find((l) => l.locale.startsWith(`${prefix}_`))?.locale ?? null
  );
}
