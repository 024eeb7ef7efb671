/**
 * `/page/:page_id` (spec 002 §2): one page by its id, on its own, for those who may read its
 * item. A private item's page (10303 / 10307, spec 002 §8) leads to the password screen, which
 * finds the item from the page and comes back here; a site that requires a login (10312) leads
 * to the login screen and back.
 */
import { useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams } from 'react-router';
import { currentPathAsRedirect } from '../../auth/redirect';
import { pageMarkdown, unescapeHtml } from '../../markdown';
import { apiLabels } from './apiLabels';
import { SinglePageView } from './SinglePageView';
import { useDocumentTitle } from './useDocumentTitle';
import { FORCE_LOGIN, NEEDS_PASSWORD, passwordPath } from './useItem';
import { usePage } from './usePage';
import { LazyResult } from '../../components/LazyResult';
import { Placeholder } from '../../components/Placeholder';

export default function PageByIdRoute() {
  const { t } = useTranslation();
  const { page_id: raw = '' } = useParams();
  const pageId = /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
  const { state } = usePage(pageId);
  const labels = useMemo(() => apiLabels(t), [t]);
  const page = state.status === 'ready' ? state.page : null;
  const source = useMemo(
    () => (page ? pageMarkdown(unescapeHtml(page.page_content), labels) : ''),
    [page, labels],
  );
  useDocumentTitle(page?.page_title ?? null);
  const navigate = useNavigate();
  const { pathname, search } = useLocation();
  const code = state.status === 'error' ? state.code : 0;
  const elsewhere = NEEDS_PASSWORD.has(code) || code === FORCE_LOGIN;
  useEffect(() => {
    if (!elsewhere) return;
    const back = currentPathAsRedirect(pathname, search);
    // Item 0: the password screen and item/pwd find the item from the page.
    const target =
      code === FORCE_LOGIN
        ? `/user/login?redirect=${encodeURIComponent(back)}`
        : passwordPath('0', String(pageId), back);
    void navigate(target, { replace: true });
  }, [elsewhere, code, pageId, pathname, search, navigate]);
  if (elsewhere) return <Placeholder padded />;
  if (!pageId || state.status === 'error')
    return (
      <LazyResult
        status="warning"
        title={t('reader.pageUnavailable')}
        subTitle={state.status === 'error' ? state.message : undefined}
      />
    );
  if (!page) return <Placeholder padded />;
  return <SinglePageView title={page.page_title} source={source} />;
}
