/** "Save to template" of the editor's split Save menu: the current text under a title of its own. */
import { App, Form, Input, Modal } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveTemplate } from './api';

export function SaveTemplateModal({
  open,
  content,
  onClose,
}: {
  open: boolean;
  /** The Markdown to keep (the editor's text when the menu entry was chosen). */
  content: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<{ title: string }>();
  const [saving, setSaving] = useState(false);

  async function submit({ title }: { title: string }) {
    setSaving(true);
    try {
      await saveTemplate(title.trim(), content);
      message.success(t('editAssets.templates.saved'));
      onClose();
    } catch {
      // alerted by the API client; the dialog stays for another try
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={open}
      title={t('editAssets.templates.saveTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'save-template-ok' }}
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item
          name="title"
          label={t('editAssets.templates.name')}
          rules={[
            { required: true, whitespace: true, message: t('editAssets.templates.nameRequired') },
          ]}
        >
          <Input maxLength={200} autoFocus data-testid="save-template-title" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
