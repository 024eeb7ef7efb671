/**
 * Reader addresses: `/{item}` and `/{item}/{page}`, optionally behind a language code
 * (`/en/{item}/{page}`, spec 002 §2). `item` is the item's custom domain or id; `page` a page id
 * or a custom page id.
 */
import { LANGUAGES } from '../../i18n';

export const LANGUAGE_CODES: readonly string[] = LANGUAGES.map((l) => l.code);

export function localeOfCode(code: string | undefined): string | null {
  return LANGUAGES.find((l) => l.code === code)?.locale ?? null;
}

export function codeOfLocale(locale: string): string | null {
  return LANGUAGES.find((l) => l.locale === locale)?.code ?? null;
}

export function readerPath(
  item: string,
  page?: string | number | null,
  lang?: string | null,
): string {
  const parts = [lang, item, page ? String(page) : null].filter((p): p is string => !!p);
  return `/${parts.map(encodeURIComponent).join('/')}`;
}

/** The address others use for an item: custom domain when set, else the id. */
export function itemAddress(item: { item_id: string; item_domain?: string }): string {
  return item.item_domain || item.item_id;
}

export const editPagePath = (itemId: string | number, pageId: string | number) =>
  `/page/edit/${itemId}/${pageId}`;

export const catalogManagerPath = (itemId: string | number) => `/catalog/${itemId}`;

export const diffPath = (pageId: string | number, historyId: string | number) =>
  `/page/diff/${pageId}/${historyId}`;

export const sharedPagePath = (uniqueKey: string) => `/p/${encodeURIComponent(uniqueKey)}`;
