/**
 * Ant Design's own texts (pagination, empty tables, confirm buttons) in the interface language.
 * Loaded on demand: only the chosen language's pack is fetched (English is built in).
 */
import type { Locale } from 'antd/es/locale';

const loaders: Record<string, () => Promise<{ default: Locale }>> = {
  zh_cn: () => import('antd/es/locale/zh_CN'),
  ko_kr: () => import('antd/es/locale/ko_KR'),
  ja_jp: () => import('antd/es/locale/ja_JP'),
  de_de: () => import('antd/es/locale/de_DE'),
  fr_fr: () => import('antd/es/locale/fr_FR'),
  it_it: () => import('antd/es/locale/it_IT'),
  es_es: () => import('antd/es/locale/es_ES'),
  hu_hu: () => import('antd/es/locale/hu_HU'),
  pl_pl: () => import('antd/es/locale/pl_PL'),
  tr_tr: () => import('antd/es/locale/tr_TR'),
  ru_ru: () => import('antd/es/locale/ru_RU'),
  pt_pt: () => import('antd/es/locale/pt_PT'),
};

/** undefined = Ant Design's built-in English. */
export async function loadAntdLocale(locale: string): Promise<Locale | undefined> {
  const loader = loaders[locale];
  if (!loader) return undefined;
  return (await loader()).default;
}
