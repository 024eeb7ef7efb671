/**
 * `/`: the start page — or, by the site's home-page setting, straight to the login screen (2) or
 * to the home item (3) (spec 000 §2). With the public square on, the open items are listed below.
 */
import { Button, Space, Typography } from 'antd';
import { lazy, Suspense, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate } from 'react-router';
import { homePageSetting } from '../../api/common';
import type { HomePageSetting } from '../../api/types';
import { useLogin } from '../../auth/useLogin';
import { PageFrame } from '../../components/PageFrame';
import { ScreenLoading } from '../../components/ScreenLoading';
import { request } from '../../api/request';

// Its own chunk: most sites keep the square off, and their landing stays as light as before.
const PublicSquare = lazy(() => import('./PublicSquare'));

/** A real link (open in new tab works) that navigates client-side on a plain click. */
function RouteButton({
  to,
  children,
  primary,
}: {
  to: string;
  children: string;
  primary?: boolean;
}) {
  const navigate = useNavigate();
  return (
    <Button
      type={primary ? 'primary' : 'default'}
      size="large"
      href={to}
      onClick={(event) => {
        if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
        event.preventDefault();
        void navigate(to);
      }}
    >
      {children}
    </Button>
  );
}

/**
 * The last answer, remembered so the first screen needs no round trip: a site whose home page is
 * the landing shows it at once; one that redirects waits for the fresh answer (no flash).
 */
const CACHE_KEY = 'quire.homePage';

function cachedSetting(): HomePageSetting | undefined {
  try {
    const raw = localStorage.getItem(CACHE_KEY);
    return raw ? (JSON.parse(raw) as HomePageSetting) : undefined;
  } catch {
    return undefined;
  }
}

const redirects = (s: HomePageSetting | null | undefined) =>
  s?.home_page === '2' || (s?.home_page === '3' && !!s.home_item);

export function Landing() {
  const { t } = useTranslation();
  const login = useLogin();
  const [cached] = useState(cachedSetting);
  const [setting, setSetting] = useState<HomePageSetting | null | undefined>(undefined);

  const [squareOn, setSquareOn] = useState(false);
  useEffect(() => {
    request<{ enable: number }>('publicSquare/checkEnabled', {}, { alert: false }).then(
      (answer) => setSquareOn(Number(answer.enable) === 1),
      () => setSquareOn(false),
    );
  }, []);

  useEffect(() => {
    // A failed settings call still shows the page: the landing must never be a dead end.
    homePageSetting().then(
      (fresh) => {
        setSetting(fresh);
        try {
          localStorage.setItem(CACHE_KEY, JSON.stringify(fresh));
        } catch {
          // not remembered
        }
      },
      () => setSetting(null),
    );
  }, []);

  if (setting === undefined && redirects(cached)) return <ScreenLoading />;
  if (setting?.home_page === '2') return <Navigate replace to="/user/login" />;
  if (setting?.home_page === '3' && setting.home_item)
    return <Navigate replace to={`/${encodeURIComponent(setting.home_item)}`} />;
  const shown = setting === undefined ? cached : setting;

  return (
    <PageFrame accountLink footerNote={shown?.beian || undefined}>
      <Typography.Title>{t('app.name')}</Typography.Title>
      <Typography.Paragraph style={{ fontSize: 18 }}>{t('landing.tagline')}</Typography.Paragraph>
      <Typography.Paragraph type="secondary">{t('landing.intro')}</Typography.Paragraph>
      <Space wrap>
        {login ? (
          <RouteButton primary to="/item/index">
            {t('landing.myItems')}
          </RouteButton>
        ) : (
          <>
            <RouteButton primary to="/user/login">
              {t('landing.login')}
            </RouteButton>
            {Number(shown?.register_open ?? 1) !== 0 && (
              <RouteButton to="/user/register">{t('landing.register')}</RouteButton>
            )}
          </>
        )}
      </Space>
      {squareOn && (
        <Suspense fallback={null}>
          <PublicSquare />
        </Suspense>
      )}
    </PageFrame>
  );
}
