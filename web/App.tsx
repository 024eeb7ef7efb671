/**
 * The app shell: Ant Design (theme, language pack, message/modal context loaded on first use), the bridge that lets
 * the API client alert and navigate, and the route table of spec 000 §2. Every screen but the
 * landing page is a lazy chunk, so the reader route (`/:item`) loads no workspace code.
 */
import { ConfigProvider } from 'antd';
import type { Locale } from 'antd/es/locale';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Route, Routes, useLocation } from 'react-router';
import { RequireLogin } from './auth/RequireLogin';
import { ApiBridge } from './components/ApiBridge';
import { AppFeedback } from './components/AppFeedback';
import { ScreenLoading } from './components/ScreenLoading';
import { loadAntdLocale } from './i18n/antdLocale';
import { hasFullCatalogue, LANGUAGES, loadFullCatalogue } from './i18n';
import { readerAddress } from './features/reader/paths';
import { motionWanted } from './motion';

// The start page and the 404 are lazy too: their frame (header, language select) is not the
// reader's, and an entry import would make every reader download it.
const Landing = lazy(() =>
  import('./features/landing/Landing').then((m) => ({ default: m.Landing })),
);
const NotFound = lazy(() =>
  import('./features/landing/NotFound').then((m) => ({ default: m.NotFound })),
);
const LoginPage = lazy(() => import('./features/auth/LoginPage'));
const RegisterPage = lazy(() => import('./features/auth/RegisterPage'));
const TokenLoginBridge = lazy(() => import('./features/auth/TokenLoginBridge'));
const ItemPasswordPage = lazy(() => import('./features/auth/ItemPasswordPage'));
const PricesPage = lazy(() => import('./features/user/PricesPage'));
const WorkspaceLayout = lazy(() => import('./features/layout/WorkspaceLayout'));
const ItemListPage = lazy(() => import('./features/items/ItemListPage'));
const GroupsPage = lazy(() => import('./features/groups/GroupsPage'));
const UserCentrePage = lazy(() => import('./features/user/UserCentrePage'));
const NoticesPage = lazy(() => import('./features/notices/NoticesPage'));
const TeamListPage = lazy(() => import('./features/teams/TeamListPage'));
const TeamMembersPage = lazy(() => import('./features/teams/TeamMembersPage'));
const TeamItemsPage = lazy(() => import('./features/teams/TeamItemsPage'));
const AttachmentsPage = lazy(() => import('./features/attachments/AttachmentsPage'));
const AdminEntry = lazy(() => import('./features/admin/AdminEntry'));
const ItemSettingPage = lazy(() => import('./features/itemSetting/ItemSettingPage'));
const ExportPage = lazy(() => import('./features/transfer/ExportPage'));
// The reader: its own chunks, no workspace, editor or admin code (DESIGN §6).
const Reader = lazy(() => import('./features/reader/ReaderRoute'));
const PageById = lazy(() => import('./features/reader/PageByIdRoute'));
const CatalogManagerPage = lazy(() => import('./features/catalog/CatalogManagerPage'));
const SharedPage = lazy(() => import('./features/share/SharedPageRoute'));
const DiffPage = lazy(() => import('./features/diff/DiffPage'));
// The editor: its own chunk (CodeMirror, Yjs), never part of the reader's.
const EditorRoute = lazy(() => import('./features/editor/EditorRoute'));

function useAntdLocale(): Locale | undefined {
  const { i18n } = useTranslation();
  const [locale, setLocale] = useState<Locale | undefined>(undefined);
  useEffect(() => {
    let current = true;
    loadAntdLocale(i18n.language).then(
      (loaded) => current && setLocale(loaded),
      () => current && setLocale(undefined),
    );
    return () => {
      current = false;
    };
  }, [i18n.language]);
  return locale;
}

/**
 * A reader address renders with the catalogue's reader part; any other screen waits for the whole
 * catalogue (web/i18n/sections.ts), which an anonymous reader never downloads.
 */
function CatalogueGate({ children }: { children: ReactNode }) {
  const { pathname, search } = useLocation();
  const needed = !readerAddress(pathname, search);
  const [ready, setReady] = useState(hasFullCatalogue);
  useEffect(() => {
    if (!needed || ready) return;
    let current = true;
    void loadFullCatalogue().then(() => current && setReady(true));
    return () => {
      current = false;
    };
  }, [needed, ready]);
  return !needed || ready ? children : <ScreenLoading />;
}

const MOTION = motionWanted();
const THEME = { token: { colorPrimary: '#2f6fde', borderRadius: 8, motion: MOTION } };
// The click ripple is drawn in a separate React root: it has its own switch.
const WAVE = { disabled: !MOTION };
const NOTIFICATION = { placement: 'bottomRight' } as const;

export function App() {
  const locale = useAntdLocale();
  return (
    <ConfigProvider locale={locale} theme={THEME} wave={WAVE}>
      {/* Notices pop up bottom right: top right would cover the header's icons. */}
      <AppFeedback notification={NOTIFICATION}>
        <ApiBridge />
        <Suspense fallback={<ScreenLoading />}>
          <CatalogueGate>
            <Routes>
              <Route path="/" element={<Landing />} />
              <Route path="/user/login" element={<LoginPage />} />
              <Route path="/user/register" element={<RegisterPage />} />
              <Route path="/user/loginByUserToken" element={<TokenLoginBridge />} />
              <Route path="/item/password/:item_id" element={<ItemPasswordPage />} />
              <Route path="/prices" element={<PricesPage />} />
              <Route
                element={
                  <RequireLogin>
                    <WorkspaceLayout />
                  </RequireLogin>
                }
              >
                <Route path="/item/index" element={<ItemListPage />} />
                <Route path="/item/add" element={<ItemListPage creating />} />
                <Route path="/item/group/index" element={<GroupsPage />} />
                <Route path="/user/setting" element={<UserCentrePage />} />
                <Route path="/message/index" element={<NoticesPage />} />
                <Route path="/team/index" element={<TeamListPage />} />
                <Route path="/team/member/:id" element={<TeamMembersPage />} />
                <Route path="/team/item/:id" element={<TeamItemsPage />} />
                <Route path="/attachment/index" element={<AttachmentsPage />} />
                <Route path="/admin/index" element={<AdminEntry />} />
                <Route path="/item/setting/:item_id" element={<ItemSettingPage />} />
                <Route path="/item/export/:item_id" element={<ExportPage />} />
              </Route>
              <Route
                path="/page/edit/:item_id/:page_id"
                element={
                  <RequireLogin>
                    <EditorRoute />
                  </RequireLogin>
                }
              />
              <Route path="/page/diff/:page_id/:page_history_id" element={<DiffPage />} />
              <Route path="/p/:unique_key" element={<SharedPage />} />
              <Route path="/page/:page_id" element={<PageById />} />
              <Route
                path="/catalog/:item_id"
                element={
                  <RequireLogin>
                    <CatalogManagerPage />
                  </RequireLogin>
                }
              />
              {/* A language code before an item selects the language (spec 002 §2). */}
              {LANGUAGES.flatMap(({ code }) => [
                <Route key={code} path={`/${code}/:item`} element={<Reader lang={code} />} />,
                <Route
                  key={`${code}/p`}
                  path={`/${code}/:item/:page`}
                  element={<Reader lang={code} />}
                />,
              ])}
              <Route path="/:item" element={<Reader />} />
              <Route path="/:item/:page" element={<Reader />} />
              <Route path="*" element={<NotFound />} />
            </Routes>
          </CatalogueGate>
        </Suspense>
      </AppFeedback>
    </ConfigProvider>
  );
}
