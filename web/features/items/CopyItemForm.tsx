/**
 * Copying an item (create dialog's second tab, and the item menu's "copy"): pick the source,
 * name the copy, open or private. Pages and catalogs come along; members do not.
 */
import { App, Button, Form, Input, Radio, Select } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { copyItem } from '../../api/items';
import type { ItemListEntry } from '../../api/types';

interface CopyValues {
  copy_item_id: string;
  item_name: string;
  item_description: string;
  visibility: 'open' | 'private';
  password: string;
}

export function CopyItemForm({
  items,
  source,
  onCopied,
}: {
  /** Items that may be copied (the user's list). */
  items: ItemListEntry[];
  /** Preselected source (item menu). */
  source?: ItemListEntry;
  onCopied: (itemId: number) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<CopyValues>();
  const [busy, setBusy] = useState(false);

  async function submit(values: CopyValues) {
    const password = values.visibility === 'private' ? (values.password ?? '') : '';
    if (values.visibility === 'private' && !password) {
      modal.warning({ content: t('items.form.privateNeedsPassword'), okText: t('common.ok') });
      return;
    }
    setBusy(true);
    try {
      onCopied(
        await copyItem({
          copy_item_id: Number(values.copy_item_id),
          item_name: values.item_name.trim(),
          item_description: values.item_description ?? '',
          password,
        }),
      );
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
      initialValues={{
        copy_item_id: source ? String(source.item_id) : undefined,
        item_name: source ? t('items.copy.defaultName', { name: source.item_name }) : '',
        item_description: source?.item_description ?? '',
        visibility: 'open',
      }}
      onValuesChange={(changed: Partial<CopyValues>) => {
        if (changed.copy_item_id) {
          const picked = items.find((i) => String(i.item_id) === changed.copy_item_id);
          if (picked)
            form.setFieldsValue({
              item_name: t('items.copy.defaultName', { name: picked.item_name }),
              item_description: picked.item_description,
            });
        }
      }}
    >
      <Form.Item
        name="copy_item_id"
        label={t('items.copy.source')}
        rules={[{ required: true, message: t('items.copy.sourceRequired') }]}
      >
        <Select
          showSearch={{ optionFilterProp: 'label' }}
          disabled={!!source}
          placeholder={t('items.copy.sourcePlaceholder')}
          options={items.map((i) => ({ value: String(i.item_id), label: i.item_name }))}
        />
      </Form.Item>
      <Form.Item
        name="item_name"
        label={t('items.form.name')}
        rules={[{ required: true, whitespace: true, message: t('items.form.nameRequired') }]}
      >
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="item_description" label={t('items.form.description')}>
        <Input.TextArea maxLength={500} autoSize={{ minRows: 2, maxRows: 4 }} />
      </Form.Item>
      <Form.Item name="visibility" label={t('items.form.visibility')}>
        <Radio.Group>
          <Radio value="open">{t('items.form.open')}</Radio>
          <Radio value="private">{t('items.form.private')}</Radio>
        </Radio.Group>
      </Form.Item>
      <Form.Item noStyle dependencies={['visibility']}>
        {({ getFieldValue }) =>
          getFieldValue('visibility') === 'private' && (
            <Form.Item name="password" label={t('items.form.password')}>
              <Input.Password maxLength={100} autoComplete="new-password" />
            </Form.Item>
          )
        }
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={busy} block>
        {t('items.copy.submit')}
      </Button>
    </Form>
  );
}
