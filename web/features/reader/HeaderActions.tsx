/**
 * The reader header's icons by role (spec 001 §2, §6; spec 002 §2): edit (editors), share,
 * notices with the 'New' badge and user centre (logged in), the manager menu (item managers),
 * login and about (anonymous visitors), and the language choice. The single-page item variant
 * is simpler: edit, share, members, login/about, and a manager menu of update, transfer,
 * archive and delete.
 */
import {
  EditOutlined,
  InfoCircleOutlined,
  LoginOutlined,
  ShareAltOutlined,
  UsergroupAddOutlined,
} from '@ant-design/icons';
import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { currentPathAsRedirect } from '../../auth/redirect';
import { getStoredLogin } from '../../auth/storage';
import { loadFullCatalogue } from '../../i18n';
import type { ReaderDialog } from './dialogs';
import { HeaderIcon as Icon } from './HeaderIcon';
import { ReaderLanguageSwitch } from './ReaderLanguageSwitch';
import { editPagePath } from './paths';
import type { ItemInfo } from './types';

// Signed-in users' icons and the manager's menu: their own chunk, fetched at once for a stored
// login (beside this chunk's imports), never by an anonymous reader.
const loadMemberActions = () => import('./HeaderMemberActions');
const MemberIcons = lazy(() => loadMemberActions().then((m) => ({ default: m.MemberIcons })));
const ManagerMenu = lazy(() => loadMemberActions().then((m) => ({ default: m.ManagerMenu })));
if (getStoredLogin()) void loadMemberActions();
// With its texts: an anonymous reader has only the catalogue's reader part until then.
const AskButton = lazy(() =>
  Promise.all([import('../askDocs/AskButton'), loadFullCatalogue()]).then(([m]) => m),
);

/** The item's assistant is on and lets this visitor in (guests only where the item allows). */
export function askable(item: ItemInfo, loggedIn: boolean): boolean {
  const config = item.ai_config;
  return config?.enabled === 1 && (loggedIn || config.guest_enabled === 1);
}

export function HeaderActions({
  item,
  pageId,
  loggedIn,
  simple = false,
  open,
}: {
  item: ItemInfo;
  /** The open page (0: none). */
  pageId: number;
  loggedIn: boolean;
  /** The single-page item variant. */
  simple?: boolean;
  open: (dialog: ReaderDialog) => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const loginPath = `/user/login?redirect=${encodeURIComponent(
    currentPathAsRedirect(location.pathname, location.search),
  )}`;

  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 4 }} data-testid="header-actions">
      {/* Spreadsheets and whiteboards are edited in place, not in the Markdown editor. */}
      {item.item_edit && pageId > 0 && item.item_type !== '4' && item.item_type !== '5' && (
        <Icon
          label={t('reader.editPage')}
          icon={<EditOutlined />}
          onClick={() => void navigate(editPagePath(item.item_id, pageId))}
          testId="edit-page"
        />
      )}
      {askable(item, loggedIn) && (
        <Suspense fallback={null}>
          <AskButton onClick={() => open('ask')} />
        </Suspense>
      )}
      <Icon
        label={t('reader.share')}
        icon={<ShareAltOutlined />}
        onClick={() => open('share')}
        testId="share"
      />
      {simple && item.item_manage && (
        <Icon
          label={t('reader.manage.members')}
          icon={<UsergroupAddOutlined />}
          onClick={() => open('members')}
        />
      )}
      <Suspense fallback={null}>
        {loggedIn && !simple && <MemberIcons item={item} open={open} />}
        {item.item_manage && <ManagerMenu simple={simple} open={open} />}
      </Suspense>
      {!loggedIn && (
        <>
          <Icon
            label={t('reader.login')}
            icon={<LoginOutlined />}
            onClick={() => void navigate(loginPath)}
            testId="login"
          />
          <Icon
            label={t('reader.about')}
            icon={<InfoCircleOutlined />}
            onClick={() => void navigate('/')}
          />
        </>
      )}
      <ReaderLanguageSwitch />
    </div>
  );
}
