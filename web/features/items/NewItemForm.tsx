/** Creating an item (the first tab of the create dialog). */
import { App, Button, Form } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { createItem } from '../../api/items';
import type { ItemGroup } from '../../api/types';
import { ItemFields, type ItemFormValues } from './ItemFields';

export function NewItemForm({
  groups,
  currentGroup,
  onCreated,
}: {
  groups: ItemGroup[];
  /** The group being viewed: a new item lands in it. */
  currentGroup: number;
  onCreated: (itemId: number) => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<ItemFormValues>();
  const [busy, setBusy] = useState(false);

  async function submit(values: ItemFormValues) {
    const password = values.visibility === 'private' ? (values.password ?? '') : '';
    if (values.visibility === 'private' && !password) {
      modal.warning({ content: t('items.form.privateNeedsPassword'), okText: t('common.ok') });
      return;
    }
    setBusy(true);
    try {
      const itemId = await createItem({
        item_type: values.item_type,
        item_name: values.item_name.trim(),
        item_description: values.item_description ?? '',
        item_domain: (values.item_domain ?? '').trim(),
        password,
        item_group_ids: values.group_ids,
      });
      onCreated(itemId);
    } catch {
      // alerted by the API client
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
        item_type: '1',
        visibility: 'open',
        group_ids: currentGroup > 0 ? [currentGroup] : [],
      }}
    >
      <ItemFields creating groups={groups} />
      <Button type="primary" htmlType="submit" loading={busy} block>
        {t('items.create.submit')}
      </Button>
    </Form>
  );
}
