/**
 * The interface catalogues: all 13 languages present; English and Simplified Chinese complete
 * (same keys, no empty texts); every workspace text present in all 13 (translated, or English
 * where no translation exists) with the same {{placeholders}}; no catalogue with keys English
 * lacks; and every literal `t('…')` key of the workspace code defined in English.
 */
import { expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/paths';

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

/** The interface's namespaces: workspace, reader, share link, editor and its tools. */
const WORKSPACE_NAMESPACES = [
  'reader',
  'reads',
  'comments',
  'share',
  'sheet',
  'editor',
  'editTools',
  'diff',
  'editAssets',
  'assistants',
  'catalogManager',
  'app',
  'landing',
  'login',
  'register',
  'auth',
  'bridge',
  'itemPassword',
  'header',
  'live',
  'common',
  'errors',
  'items',
  'groups',
  'dataTransfer',
  'sort',
  'members',
  'teams',
  'attachments',
  'notices',
  'user',
  'prices',
  'admin',
  'itemSetting',
  'notFound',
  'language',
  'footer',
  'suggest',
];
/** Workspace source folders whose `t('key')` literals must exist. */
const WORKSPACE_SOURCES = [
  'App.tsx',
  'components',
  'api',
  'auth',
  'live',
  ...[
    'auth',
    'items',
    'groups',
    'teams',
    'members',
    'attachments',
    'notices',
    'user',
    'layout',
    'admin',
    'itemSetting',
    'landing',
    'editor',
    'catalog',
    'diff',
    'transfer',
    'reads',
    'suggest',
  ].map((f) => `features/${f}`),
];

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

const placeholders = (text: unknown) =>
  String(text)
    .match(/\{\{\w+\}\}/g)
    ?.sort() ?? [];

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

test('every catalogue has every workspace text, with the placeholders English has', () => {
  const en = load('en_us');
  const workspaceKeys = Object.keys(en).filter((k) =>
    WORKSPACE_NAMESPACES.includes(k.split('.')[0]),
  );
  expect(workspaceKeys.length).toBeGreaterThan(300);
  for (const locale of LOCALES) {
    const catalogue = load(locale);
    const missing = workspaceKeys.filter((k) => typeof catalogue[k] !== 'string' || !catalogue[k]);
    expect([locale, missing]).toEqual([locale, []]);
    for (const key of Object.keys(catalogue).filter((k) => k in en))
      expect([locale, key, placeholders(catalogue[key])]).toEqual([
        locale,
        key,
        placeholders(en[key]),
      ]);
  }
});

test('the other languages translate the common texts rather than repeating English', () => {
  const en = load('en_us');
  const common = [
    'login.submit',
    'common.cancel',
    'common.save',
    'items.all',
    'items.create.button',
    'user.logout',
  ];
  for (const locale of LOCALES.filter((l) => l !== 'en_us')) {
    const catalogue = load(locale);
    for (const key of common)
      expect([locale, key, catalogue[key] !== en[key]]).toEqual([locale, key, true]);
  }
});

test('no catalogue has keys English lacks (English is the fallback of every text)', () => {
  const enKeys = new Set(Object.keys(load('en_us')));
  for (const locale of LOCALES) {
    const extra = Object.keys(load(locale)).filter((key) => !enKeys.has(key));
    expect([locale, extra]).toEqual([locale, []]);
  }
});

function sourceFiles(target: string): string[] {
  const full = path.join(ROOT, 'web', target);
  if (!fs.statSync(full).isDirectory()) return [full];
  return fs
    .readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.tsx?$/.test(f))
    .map((f) => path.join(full, f));
}

test('every literal translation key used by the workspace code exists in English', () => {
  const en = load('en_us');
  const used = new Set<string>();
  for (const file of WORKSPACE_SOURCES.flatMap(sourceFiles)) {
    const text = fs.readFileSync(file, 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.]+)'/g)) used.add(match[1]);
  }
  expect(used.size).toBeGreaterThan(200);
  expect([...used].filter((key) => !(key in en))).toEqual([]);
});
