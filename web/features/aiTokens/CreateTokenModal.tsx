/**
 * Making an AI token: name, read or write, all items or selected ones (picked from
 * `ai_token/availableItems`), an optional expiry date. Resolves with the raw token, which the
 * card shows once.
 */
import { Checkbox, Form, Input, Modal, Radio, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { aiTokenItems, createAiToken, type AiTokenInput } from './api';

interface Values {
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  allowed_items: number[];
  expires_at: string;
  write_directly: boolean;
}

export function CreateTokenModal({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(token: string): void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Values>();
  const [items, setItems] = useState<Array<{ value: number; label: string }>>([]);
  const [busy, setBusy] = useState(false);
  const scope = Form.useWatch('scope', form);

  useEffect(() => {
    if (!open) return;
    form.resetFields();
    aiTokenItems()
      .then(({ items: list }) =>
        setItems(list.map((item) => ({ value: item.item_id, label: item.item_name }))),
      )
      .catch(() => setItems([]));
  }, [open, form]);

  async function submit() {
    const values = await form.validateFields();
    setBusy(true);
    try {
      const input: AiTokenInput = {
        name: values.name.trim(),
        permission: values.permission,
        scope: values.scope,
        allowed_items: values.scope === 'selected' ? values.allowed_items : [],
        expires_at: values.expires_at ?? '',
        write_directly: values.write_directly ? 1 : 0,
      };
      const { token } = await createAiToken(input);
      onCreated(token);
    } catch {
      // alerted by the API client
    } finally {
      setBusy(false);
    }
  }

  const today = new Date().toISOString().slice(0, 10);
  return (
    <Modal
      open={open}
      title={t('aiTokens.create')}
      okText={t('aiTokens.createOk')}
      cancelText={t('common.cancel')}
      onOk={() => void submit()}
      onCancel={onClose}
      confirmLoading={busy}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'ai-token-create-ok' } as never}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={false}
        initialValues={{
          name: '',
          permission: 'write',
          scope: 'all',
          allowed_items: [],
          write_directly: false,
        }}
      >
        <Form.Item
          name="name"
          label={t('aiTokens.name')}
          rules={[{ required: true, whitespace: true, message: t('aiTokens.nameRequired') }]}
        >
          <Input maxLength={100} placeholder="docs-bot" data-testid="ai-token-name" />
        </Form.Item>
        <Form.Item name="permission" label={t('aiTokens.permission')}>
          <Radio.Group data-testid="ai-token-permission">
            <Radio value="read">{t('aiTokens.read')}</Radio>
            <Radio value="write">{t('aiTokens.write')}</Radio>
          </Radio.Group>
        </Form.Item>
        <Form.Item
          name="write_directly"
          valuePropName="checked"
          extra={t('suggest.writeDirectlyHelp')}
        >
          <Checkbox data-testid="ai-token-write-directly">{t('suggest.writeDirectly')}</Checkbox>
        </Form.Item>
        <Form.Item name="scope" label={t('aiTokens.scope')}>
          <Radio.Group>
            <Radio value="all">{t('aiTokens.allItems')}</Radio>
            <Radio value="selected">{t('aiTokens.selectedItems')}</Radio>
          </Radio.Group>
        </Form.Item>
        {scope === 'selected' && (
          <Form.Item
            name="allowed_items"
            label={t('aiTokens.items')}
            rules={[
              { required: true, type: 'array', min: 1, message: t('aiTokens.itemsRequired') },
            ]}
          >
            <Select
              mode="multiple"
              options={items}
              optionFilterProp="label"
              placeholder={t('aiTokens.pickItems')}
              data-testid="ai-token-items"
            />
          </Form.Item>
        )}
        <Form.Item
          name="expires_at"
          label={t('aiTokens.expiresAt')}
          extra={t('aiTokens.expiresHint')}
        >
          <Input type="date" min={today} data-testid="ai-token-expiry" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
