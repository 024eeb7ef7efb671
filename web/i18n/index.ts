/**
 * i18next for the 13 interface languages (./languages.ts). Every catalogue in ./locales has every
 * key (nested JSON, one file per locale); English is also the fallback. The choice is remembered
 * in localStorage `help_lang`.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import englishReader from 'virtual:catalogue/en_us/reader';
import loaders from 'virtual:catalogue-loaders';
import { getStoredLogin } from '../auth/storage';
import { DEFAULT_LOCALE, LANGUAGE_STORAGE_KEY, normaliseLocale } from './languages';
import { READER_SECTIONS, type CataloguePart } from './sections';

export { DEFAULT_LOCALE, LANGUAGE_STORAGE_KEY, LANGUAGES, normaliseLocale } from './languages';

// English's reader part is built in (English is every language's fallback); every other part is
// fetched: the chosen language's reader part before the first render, the rest of the catalogue
// (./sections.ts) with it for a signed-in user, else when a screen asks for it
// (loadFullCatalogue) or a text is missing. So a visitor downloads one language, and an anonymous
// reader only its reader part.

function hasPart(locale: string, part: CataloguePart): boolean {
  const bundle = i18n.getResourceBundle(locale, 'translation') as
    Record<string, unknown> | undefined;
  if (!bundle) return false;
  return Object.keys(bundle).some(
    (section) => READER_SECTIONS.includes(section) === (part === 'reader'),
  );
}

async function loadPart(locale: string, part: CataloguePart): Promise<void> {
  const loader = loaders[locale]?.[part];
  if (!loader || hasPart(locale, part)) return;
  // Deep: the two parts share the one namespace.
  i18n.addResourceBundle(locale, 'translation', (await loader()).default, true, false);
}

/** The parts to have for a locale: what the current language has (at least its reader part). */
function loadLike(locale: string): Promise<unknown> {
  const parts: CataloguePart[] =
    hasPart(i18n.language, 'rest') || getStoredLogin() ? ['reader', 'rest'] : ['reader'];
  return Promise.all(parts.map((part) => loadPart(locale, part)));
}

/** Whether every screen's texts are in for the current language. */
export function hasFullCatalogue(): boolean {
  return hasPart(i18n.language, 'rest');
}

/** The rest of the current language's catalogue (screens other than the reader need it). */
export function loadFullCatalogue(): Promise<void> {
  return loadPart(i18n.language, 'rest').catch(() => {});
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
    resources: { [DEFAULT_LOCALE]: { translation: englishReader } },
    partialBundledLanguages: true,
    lng: DEFAULT_LOCALE,
    fallbackLng: DEFAULT_LOCALE,
    interpolation: { escapeValue: false }, // React escapes
    initAsync: false,
    // A text of a part not yet fetched: fetch it; the components re-render once it is added.
    saveMissing: true,
    missingKeyHandler: () => void loadFullCatalogue(),
    react: { bindI18nStore: 'added' },
  });
  try {
    await loadLike(lng);
    await i18n.changeLanguage(lng);
  } catch {
    // the catalogue could not be fetched: English it is
  }
  document.documentElement.lang = i18n.language.replace('_', '-');
  return i18n;
}

export function setLanguage(locale: string): void {
  void loadLike(locale)
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
