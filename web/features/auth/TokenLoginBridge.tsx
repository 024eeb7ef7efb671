/**
 * `/user/loginByUserToken?user_token=…&redirect_uri=…`: the landing spot of single sign-on
 * (reference accounts §2.5). The token is checked with `user/info`, stored as the login, and the
 * user goes on to `redirect_uri` (same rule as any login redirect) or the item list. Quire's own
 * external logins send a single-use `login_code` instead of a token, redeemed here first.
 */
import { App, Result } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { redeemLoginCode, userInfo } from '../../api/user';
import { DEFAULT_AFTER_LOGIN, isSafeRedirect } from '../../auth/redirect';
import { rememberLogin } from '../../auth/session';
import { PageFrame } from '../../components/PageFrame';
import { ScreenLoading } from '../../components/ScreenLoading';

export default function TokenLoginBridge() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const [failed, setFailed] = useState(false);
  const started = useRef(false);

  useEffect(() => {
    // Once per visit: the dependencies below change identity when the language pack loads.
    if (started.current) return;
    started.current = true;
    const loginCode = search.get('login_code') ?? '';
    const target = search.get('redirect_uri') || DEFAULT_AFTER_LOGIN;
    if (!isSafeRedirect(target)) {
      modal.warning({ content: t('auth.illegalRedirect'), okText: t('common.ok') });
      setFailed(true);
      return;
    }
    const tokenOf = loginCode
      ? redeemLoginCode(loginCode).then((data) => data.user_token)
      : Promise.resolve(search.get('user_token') ?? '');
    tokenOf
      .then(async (token) => {
        if (!token) throw new Error('no token');
        const info = await userInfo({ token, alert: false, redirect: false });
        rememberLogin({ ...info, user_token: token });
        void navigate(target, { replace: true });
      })
      .catch(() => setFailed(true));
  }, [search, navigate, modal, t]);

  if (!failed) return <ScreenLoading />;
  return (
    <PageFrame>
      <Result
        status="warning"
        title={t('bridge.failed')}
        extra={<Link to="/user/login">{t('bridge.toLogin')}</Link>}
      />
    </PageFrame>
  );
}
