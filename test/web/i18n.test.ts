/**
 * The interface catalogues: all 13 languages present, English and Simplified Chinese complete
 * (same keys, no empty texts), the others translating only keys that exist in English.
 */
import { expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../scripts/paths';

const LOCALES = [
  'zh_cn',
  'en_us',
  'ko_kr',
  'ja_jp',
  'de_de',
  'fr_fr',
  'it_it',
  'es_es',
  'hu_hu',
  'pl_pl',
  'tr_tr',
  'ru_ru',
  'pt_pt',
];
const dir = path.join(ROOT, 'web', 'i18n', 'locales');

function flatten(value: unknown, prefix = ''): Record<string, unknown> {
  if (value === null || typeof value !== 'object') return { [prefix]: value };
  return Object.assign(
    {},
    ...Object.entries(value as Record<string, unknown>).map(([k, v]) =>
      flatten(v, prefix ? `${prefix}.${k}` : k),
    ),
  );
}

const load = (locale: string) =>
  flatten(JSON.parse(fs.readFileSync(path.join(dir, `${locale}.json`), 'utf8')));

test('exactly the 13 spec languages have a catalogue', () => {
  expect(
    fs
      .readdirSync(dir)
      .map((f) => f.replace(/\.json$/, ''))
      .sort(),
  ).toEqual([...LOCALES].sort());
});

test('English and Chinese have the same keys and no empty text', () => {
  const en = load('en_us');
  const zh = load('zh_cn');
  expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
  for (const text of [...Object.values(en), ...Object.values(zh)])
    expect(typeof text === 'string' && text.trim()).toBeTruthy();
});

test('the other languages only translate keys English has (the rest falls back to English)', () => {
  const enKeys = new Set(Object.keys(load('en_us')));
  for (const locale of LOCALES.filter((l) => l !== 'en_us' && l !== 'zh_cn')) {
    const keys = Object.keys(load(locale));
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys)
      expect(enKeys.has(key) ? key : `${locale}: unknown key ${key}`).toBe(key);
  }
});
