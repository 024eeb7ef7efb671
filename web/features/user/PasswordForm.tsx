/**
 * Changing the login password. The server ends every session of the user on success, so the
 * user is sent to log in again with the new password.
 */
import { App, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { resetPassword } from '../../api/user';
import { clearLogin } from '../../auth/storage';

interface Values {
  password: string;
  new_password: string;
  confirm: string;
}

export function PasswordForm() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<Values>();
  const [busy, setBusy] = useState(false);

  async function submit(values: Values) {
    setBusy(true);
    try {
      await resetPassword(values.password, values.new_password);
      modal.success({
        content: t('user.passwordChanged'),
        okText: t('common.ok'),
        onOk: () => {
          clearLogin();
          void navigate('/user/login');
        },
      });
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Form
      form={form}
      layout="vertical"
      onFinish={submit}
      style={{ maxWidth: 360 }}
      requiredMark={false}
    >
      <Form.Item
        name="password"
        label={t('user.currentPassword')}
        rules={[{ required: true, message: t('auth.passwordRequired') }]}
      >
        <Input.Password autoComplete="current-password" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('user.newPassword')}
        rules={[{ required: true, message: t('auth.passwordRequired') }]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={t('register.confirmPassword')}
        dependencies={['new_password']}
        rules={[
          { required: true, message: t('register.confirmRequired') },
          ({ getFieldValue }) => ({
            validator: (_rule, value) =>
              !value || getFieldValue('new_password') === value
                ? Promise.resolve()
                : Promise.reject(new Error(t('register.mismatch'))),
          }),
        ]}
      >
        <Input.Password autoComplete="new-password" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy}>
        {t('user.changePassword')}
      </Button>
    </Form>
  );
}
