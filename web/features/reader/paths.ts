/**
 * Reader addresses: `/{item}` and `/{item}/{page}`, optionally behind a language code
 * (`/en/{item}/{page}`, spec 002 §2). `item` is the item's custom domain or id; `page` a page id
 * or a custom page id.
 */
import { LANGUAGES } from '../../i18n/languages';

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

/**
 * The first path segments of the app's other routes (web/App.tsx; test/web/readerPaths.test.ts
 * checks the two agree): an address that starts with none of them is a reader's.
 */
export const OTHER_ROUTE_SEGMENTS: readonly string[] = [
  'user',
  'item',
  'prices',
  'message',
  'team',
  'attachment',
  'admin',
  'page',
  'p',
  'catalog',
];

/**
 * The item and page a reader address names, read as the route table does (`/{item}`,
 * `/{item}/{page}`, behind a language code or not; `?page_id=` when the path has no page);
 * null for any other address.
 */
export function readerAddress(
  pathname: string,
  search: string,
): { item: string; page: string | null } | null {
  let segments: string[];
  try {
    segments = pathname.split('/').filter(Boolean).map(decodeURIComponent);
  } catch {
    return null; // a malformed escape: the router would not match it either
  }
  if (segments.length >= 2 && LANGUAGE_CODES.includes(segments[0]!)) segments.shift();
  else if (OTHER_ROUTE_SEGMENTS.includes(segments[0] ?? '')) return null;
  if (segments.length < 1 || segments.length > 2) return null;
  const page = segments[1] ?? new URLSearchParams(search).get('page_id');
  return { item: segments[0]!, page: page || null };
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
