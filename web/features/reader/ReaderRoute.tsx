/**
 * `/:item`, `/:item/:page` and their language-prefixed forms (spec 002 §2 "Project display
 * screen"): resolves the item (id or custom domain), then the page (id or custom page id from the
 * route, or the `page_id` query; the item's first page by default), and shows the view of the
 * item's type. A logged-in reader gets the live connection (updates, lock holder, presence) and
 * the unread badge; an anonymous one reads without them (and without their code).
 */
import { lazy, Suspense, useState } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { getStoredLogin } from '../../auth/storage';
import { useLogin } from '../../auth/useLogin';
import { prefetchReader } from './prefetch';
import { ReaderScreen } from './ReaderScreen';
import { useLanguagePrefix } from './useLanguagePrefix';

const loadLiveShell = () => import('./LiveShell');
const LiveShell = lazy(loadLiveShell);
// Fetched beside this chunk's own imports, not after the first render.
if (getStoredLogin()) void loadLiveShell();

const numeric = (value: string | undefined) =>
  value && /^\d{1,15}$/.test(value) ? Number(value) : 0;

export default function ReaderRoute({ lang }: { lang?: string }) {
  useLanguagePrefix(lang);
  const { item = '', page } = useParams();
  const [search] = useSearchParams();
  const login = useLogin();
  const pageParam = page ?? (search.get('page_id') || undefined);
  useState(() => prefetchReader(item, numeric(pageParam)));
  const screen = <ReaderScreen key={item} itemParam={item} pageParam={pageParam} lang={lang} />;
  if (!login) return screen;
  return (
    <Suspense fallback={null}>
      <LiveShell>{screen}</LiveShell>
    </Suspense>
  );
}
