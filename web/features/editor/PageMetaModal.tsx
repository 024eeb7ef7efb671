/**
 * The popup that asks a page's title and page ID (spec 001 §2/§5): its heading says new page,
 * copy page or edit page. Both fields are required — each empty one gets its own alert — and the
 * popup closes only when both are filled. A page ID the server reports as taken comes back here
 * with the field cleared.
 */
import { App, Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

/** The server's rule for custom page ids (models/pages CUSTOM_ID_RULE). */
export const PAGE_ID_RULE = /^[A-Za-z0-9_-]{1,64}$/;

export type PageMetaMode = 'new' | 'copy' | 'edit';

export interface PageMeta {
  title: string;
  customId: string;
}

export function PageMetaModal({
  open,
  mode,
  value,
  error,
  onSubmit,
  onCancel,
}: {
  open: boolean;
  mode: PageMetaMode;
  value: PageMeta;
  /** A server message about the page ID (shown under the field). */
  error?: string;
  onSubmit(meta: PageMeta): void;
  onCancel(): void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<PageMeta>();

  useEffect(() => {
    if (open) form.setFieldsValue(value);
  }, [open, value, form]);

  function submit() {
    const title = String(form.getFieldValue('title') ?? '').trim();
    const customId = String(form.getFieldValue('customId') ?? '').trim();
    if (!customId) return void message.warning(t('editor.meta.needId'));
    if (!title) return void message.warning(t('editor.meta.needTitle'));
    if (!PAGE_ID_RULE.test(customId)) return void message.warning(t('editor.meta.badId'));
    onSubmit({ title, customId });
  }

  return (
    <Modal
      open={open}
      title={t(`editor.meta.heading.${mode}`)}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      onOk={submit}
      onCancel={onCancel}
      destroyOnHidden
      forceRender
      data-testid="page-meta-modal"
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item name="title" label={t('editor.meta.title')}>
          <Input autoFocus maxLength={200} data-testid="page-meta-title" onPressEnter={submit} />
        </Form.Item>
        <Form.Item
          name="customId"
          label={t('editor.meta.pageId')}
          extra={t('editor.meta.pageIdHint')}
          validateStatus={error ? 'error' : undefined}
          help={error || undefined}
        >
          <Input maxLength={64} data-testid="page-meta-id" onPressEnter={submit} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
