/**
 * `/user/login`: username, password and captcha; a link to registration; the third-party login
 * entrance when the site has one. After success the login is stored and the user goes to the
 * `redirect` (checked by the rule of spec 000 §5) or the item list.
 */
import { App, Button, Divider, Form, Input, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { oauthInfo, oauthLoginUrl } from '../../api/common';
import type { OauthInfo } from '../../api/types';
import { login, userInfo } from '../../api/user';
import { rememberLogin } from '../../auth/session';
import { getStoredLogin } from '../../auth/storage';
import { AuthCard } from './AuthCard';
import { CaptchaInput } from './CaptchaInput';
import { useCaptchaForm } from './useCaptchaForm';
import { useRedirectTarget } from './useRedirectTarget';

interface LoginForm {
  username: string;
  password: string;
  captcha: string;
}

export default function LoginPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const redirect = useRedirectTarget();
  const { form, captcha, busy, attempt } = useCaptchaForm<LoginForm>();
  const [oauth, setOauth] = useState<OauthInfo | null>(null);

  const illegal = () =>
    modal.warning({ content: t('auth.illegalRedirect'), okText: t('common.ok') });

  useEffect(() => {
    oauthInfo().then(setOauth, () => setOauth(null));
    // Someone still logged in goes straight on (a dead token just stays here: no redirect loop).
    if (getStoredLogin())
      userInfo({ alert: false, redirect: false }).then(
        () => {
          if (redirect.legal) void navigate(redirect.target, { replace: true });
        },
        () => {},
      );
    // Only on arrival: the query does not change while this screen is shown.
  }, []);

  async function submit(values: LoginForm) {
    if (!redirect.legal) {
      illegal();
      return;
    }
    await attempt(async () => {
      const data = await login({
        username: values.username.trim(),
        password: values.password,
        captcha: values.captcha.trim(),
        captcha_id: captcha.captchaId,
      });
      rememberLogin(data);
      void navigate(redirect.target, { replace: true });
    });
  }

  const oauthOpen = oauth && oauth.oauth2_open !== null && Number(oauth.oauth2_open) > 0;
  const registerLink = redirect.given
    ? `/user/register?redirect=${encodeURIComponent(redirect.target)}`
    : '/user/register';

  return (
    <AuthCard title={t('login.title')}>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="username"
          rules={[{ required: true, message: t('auth.usernameRequired') }]}
        >
          <Input
            size="large"
            autoComplete="username"
            placeholder={t('auth.usernamePlaceholder')}
            aria-label={t('auth.username')}
          />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ required: true, message: t('auth.passwordRequired') }]}
        >
          <Input.Password
            size="large"
            autoComplete="current-password"
            placeholder={t('auth.password')}
            aria-label={t('auth.password')}
          />
        </Form.Item>
        <Form.Item name="captcha" rules={[{ required: true, message: t('auth.captchaRequired') }]}>
          <CaptchaInput captcha={captcha} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          {t('login.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to={registerLink}>{t('login.toRegister')}</Link>
      </div>
      {oauthOpen && (
        <>
          <Divider plain>{t('login.thirdParty')}</Divider>
          <div style={{ textAlign: 'center' }}>
            <Button href={oauthLoginUrl(redirect.legal ? redirect.target : '/item/index')}>
              {t('login.thirdPartyButton')}
            </Button>
            {oauth.oauth2_entrance_tips && (
              <Typography.Paragraph type="secondary" style={{ marginTop: 8 }}>
                {oauth.oauth2_entrance_tips}
              </Typography.Paragraph>
            )}
          </div>
        </>
      )}
    </AuthCard>
  );
}
