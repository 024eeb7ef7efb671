/**
 * `/user/register`: username, password twice and captcha (spec 000 §2, §5). Registration logs the
 * new user in (the server answers with a token), then on to the `redirect` or the item list.
 */
import { Alert, App, Button, Form, Input } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { homePageSetting } from '../../api/common';
import { register } from '../../api/user';
import { rememberLogin } from '../../auth/session';
import { AuthCard } from './AuthCard';
import { CaptchaInput } from './CaptchaInput';
import { useCaptchaForm } from './useCaptchaForm';
import { useRedirectTarget } from './useRedirectTarget';

interface RegisterForm {
  username: string;
  password: string;
  confirm_password: string;
  captcha: string;
}

export default function RegisterPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const redirect = useRedirectTarget();
  const { form, captcha, busy, attempt } = useCaptchaForm<RegisterForm>();
  const [closed, setClosed] = useState(false);

  useEffect(() => {
    homePageSetting().then(
      (s) => setClosed(Number(s.register_open) === 0),
      () => {},
    );
  }, []);

  async function submit(values: RegisterForm) {
    if (!redirect.legal) {
      modal.warning({ content: t('auth.illegalRedirect'), okText: t('common.ok') });
      return;
    }
    await attempt(async () => {
      const data = await register({
        username: values.username.trim(),
        password: values.password,
        confirm_password: values.confirm_password,
        captcha: values.captcha.trim(),
        captcha_id: captcha.captchaId,
      });
      rememberLogin(data);
      void navigate(redirect.target, { replace: true });
    });
  }

  return (
    <AuthCard title={t('register.title')}>
      {closed && (
        <Alert type="info" showIcon title={t('register.closed')} style={{ marginBottom: 16 }} />
      )}
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="username"
          extra={t('register.usernameRule')}
          rules={[{ required: true, message: t('auth.usernameRequired') }]}
        >
          <Input
            size="large"
            autoComplete="username"
            placeholder={t('auth.username')}
            aria-label={t('auth.username')}
          />
        </Form.Item>
        <Form.Item
          name="password"
          rules={[{ required: true, message: t('auth.passwordRequired') }]}
        >
          <Input.Password
            size="large"
            autoComplete="new-password"
            placeholder={t('auth.password')}
            aria-label={t('auth.password')}
          />
        </Form.Item>
        <Form.Item
          name="confirm_password"
          dependencies={['password']}
          rules={[
            { required: true, message: t('register.confirmRequired') },
            ({ getFieldValue }) => ({
              validator: (_rule, value) =>
                !value || getFieldValue('password') === value
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('register.mismatch'))),
            }),
          ]}
        >
          <Input.Password
            size="large"
            autoComplete="new-password"
            placeholder={t('register.confirmPassword')}
            aria-label={t('register.confirmPassword')}
          />
        </Form.Item>
        <Form.Item name="captcha" rules={[{ required: true, message: t('auth.captchaRequired') }]}>
          <CaptchaInput captcha={captcha} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          {t('register.submit')}
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'center' }}>
        <Link to="/user/login">{t('register.toLogin')}</Link>
      </div>
    </AuthCard>
  );
}
