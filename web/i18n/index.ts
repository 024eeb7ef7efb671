/**
 * i18next for the 13 interface languages (./languages.ts). Every catalogue in ./locales has every
 * key (nested JSON, one file per locale); English is also the fallback. The choice is remembered
 * in localStorage `help_lang`.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LOCALE, LANGUAGE_STORAGE_KEY, normaliseLocale } from './languages';

export { DEFAULT_LOCALE, LANGUAGE_STORAGE_KEY, LANGUAGES, normaliseLocale } from './languages';

type Catalogue = Record<string, unknown>;
// English is built in (every other language falls back to it); the others are fetched when
// chosen, so a visitor downloads one catalogue, not thirteen.
const english = import.meta.glob<Catalogue>('./locales/en_us.json', {
  eager: true,
  import: 'default',
});
const others = import.meta.glob<Catalogue>(['./locales/*.json', '!./locales/en_us.json'], {
  import: 'default',
});

function localeOfFile(file: string): string {
  return file.replace(/^.*\/([a-z_]+)\.json$/, '$1');
}

async function loadCatalogue(locale: string): Promise<void> {
  if (locale === DEFAULT_LOCALE || i18n.hasResourceBundle(locale, 'translation')) return;
  const entry = Object.entries(others).find(([file]) => localeOfFile(file) === locale);
  if (!entry) return;
  i18n.addResourceBundle(locale, 'translation', await entry[1]());
}

function storedLocale(): string | null {
  try {
    return normaliseLocale(localStorage.getItem(LANGUAGE_STORAGE_KEY));
  } catch {
    return null; // storage disabled
  }
}

/** Resolves once the chosen language's catalogue is in: the first render is in that language. */
export async function initI18n(): Promise<typeof i18n> {
  const lng = storedLocale() ?? normaliseLocale(navigator.language) ?? DEFAULT_LOCALE;
  await i18n.use(initReactI18next).init({
    resources: { [DEFAULT_LOCALE]: { translation: Object.values(english)[0] ?? {} } },
    partialBundledLanguages: true,
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
  });
  try {
    await loadCatalogue(lng);
    await i18n.changeLanguage(lng);
  } catch {
    // the catalogue could not be fetched: English it is
  }
  document.documentElement.lang = i18n.language.replace('_', '-');
  return i18n;
}

export function setLanguage(locale: string): void {
  void loadCatalogue(locale)
    .catch(() => {})
    .then(() => i18n.changeLanguage(locale));
  document.documentElement.lang = locale.replace('_', '-');
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, locale);
  } catch {
    // not remembered; still switched for this visit
  }
}

/** Translation outside React components (the API client's alerts). */
export function translate(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, options);
}
