/**
 * A form checked with a captcha (login, registration, an item's visit password): its form, its
 * captcha, and `attempt(request)`, which is busy while the request runs; when it fails the
 * captcha field is cleared, a fresh captcha shown (the server spends one on any check) and the
 * server's refusal explained (a network failure has already been alerted).
 */
import { App, Form, type FormInstance } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError } from '../../api/request';
import { useCaptcha } from './useCaptcha';

export function useCaptchaForm<T extends { captcha: string }>() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const captcha = useCaptcha();
  const [form] = Form.useForm<T>();
  const [busy, setBusy] = useState(false);

  async function attempt(request: () => Promise<void>): Promise<void> {
    setBusy(true);
    try {
      await request();
    } catch (error) {
      (form as FormInstance).setFieldValue('captcha', '');
      void captcha.refresh();
      if (error instanceof ApiRequestError && error.code !== -1)
        modal.warning({ content: error.message, okText: t('common.ok') });
    } finally {
      setBusy(false);
    }
  }

  return { form, captcha, busy, attempt };
}
