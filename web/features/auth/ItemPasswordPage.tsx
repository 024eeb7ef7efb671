/**
 * `/item/password/:item_id?page_id=&redirect=`: the visit password of a private item, with a
 * captcha (spec 000 §2, reference accounts §4). The password is kept in sessionStorage and sent
 * as `_item_pwd` with later calls; then on to `redirect` or the item (or page).
 */
import { App, Button, Form, Input } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams, useSearchParams } from 'react-router';
import { itemVisitPassword } from '../../api/items';
import { isSafeRedirect } from '../../auth/redirect';
import { setItemPassword } from '../../auth/storage';
import { AuthCard } from './AuthCard';
import { CaptchaInput } from './CaptchaInput';
import { useCaptchaForm } from './useCaptchaForm';

export default function ItemPasswordPage() {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const navigate = useNavigate();
  const { item_id: itemId = '' } = useParams();
  const [search] = useSearchParams();
  const pageId = search.get('page_id') ?? '';
  const redirect = search.get('redirect') ?? '';
  const { form, captcha, busy, attempt } = useCaptchaForm<{ password: string; captcha: string }>();

  async function submit(values: { password: string; captcha: string }) {
    if (redirect && !isSafeRedirect(redirect)) {
      modal.warning({ content: t('auth.illegalRedirect'), okText: t('common.ok') });
      return;
    }
    await attempt(async () => {
      await itemVisitPassword({
        item_id: itemId,
        page_id: pageId,
        password: values.password,
        captcha: values.captcha.trim(),
        captcha_id: captcha.captchaId,
      });
      setItemPassword(values.password);
      const fallback = `/${encodeURIComponent(itemId)}${pageId && pageId !== '0' ? `/${encodeURIComponent(pageId)}` : ''}`;
      void navigate(redirect || fallback, { replace: true });
    });
  }

  return (
    <AuthCard title={t('itemPassword.title')}>
      <Form form={form} layout="vertical" onFinish={submit} requiredMark={false}>
        <Form.Item
          name="password"
          rules={[{ required: true, message: t('itemPassword.required') }]}
        >
          <Input.Password
            size="large"
            placeholder={t('itemPassword.password')}
            aria-label={t('itemPassword.password')}
          />
        </Form.Item>
        <Form.Item name="captcha" rules={[{ required: true, message: t('auth.captchaRequired') }]}>
          <CaptchaInput captcha={captcha} />
        </Form.Item>
        <Button type="primary" htmlType="submit" size="large" block loading={busy}>
          {t('itemPassword.submit')}
        </Button>
      </Form>
    </AuthCard>
  );
}
