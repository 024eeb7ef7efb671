/** How a stored (`help_lang`) or browser language maps onto the 13 interface languages. */
import { expect, test } from '@jest/globals';
import { LANGUAGES, normaliseLocale } from '../../web/i18n/languages';

test('our locales, ShowDoc spellings, route codes and browser tags all map to a locale', () => {
  expect(normaliseLocale('zh_cn')).toBe('zh_cn');
  expect(normaliseLocale('zh-cn')).toBe('zh_cn');
  expect(normaliseLocale('zh-Hans')).toBe('zh_cn');
  expect(normaliseLocale('en')).toBe('en_us');
  expect(normaliseLocale('en-GB')).toBe('en_us');
  expect(normaliseLocale('kr')).toBe('ko_kr');
  expect(normaliseLocale('ko-KR')).toBe('ko_kr');
  expect(normaliseLocale('jp')).toBe('ja_jp');
  expect(normaliseLocale('de-AT')).toBe('de_de');
  expect(normaliseLocale('pt-BR')).toBe('pt_pt');
});

test('unknown or empty values map to nothing (the caller falls back to English)', () => {
  expect(normaliseLocale('xx')).toBeNull();
  expect(normaliseLocale('')).toBeNull();
  expect(normaliseLocale(null)).toBeNull();
});

test('every language has a distinct code and locale', () => {
  expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(13);
  expect(new Set(LANGUAGES.map((l) => l.locale)).size).toBe(13);
});
