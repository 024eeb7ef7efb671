/** Add or edit one item group: its name and which of the user's items it holds. */
import { Form, Input, Modal, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveGroup } from '../../api/groups';
import { myItems } from '../../api/items';
import type { ItemGroup, ItemListEntry } from '../../api/types';

export function GroupFormModal({
  group,
  onClose,
  onSaved,
}: {
  /** null = a new group. */
  group: ItemGroup | null;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ group_name: string; item_ids: string[] }>();
  const [items, setItems] = useState<ItemListEntry[]>([]);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    myItems(0).then(setItems, () => {});
  }, []);

  async function submit(values: { group_name: string; item_ids: string[] }) {
    setBusy(true);
    try {
      await saveGroup({
        id: group ? Number(group.id) : 0,
        group_name: values.group_name ?? '',
        item_ids: (values.item_ids ?? []).join(','),
      });
      onSaved();
      onClose();
    } catch {
      // alerted by the API client
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={group ? t('groups.edit') : t('groups.add')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={busy}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form
        form={form}
        layout="vertical"
        onFinish={submit}
        initialValues={{
          group_name: group?.group_name ?? '',
          item_ids: group?.item_ids ? group.item_ids.split(',').filter(Boolean) : [],
        }}
      >
        <Form.Item name="group_name" label={t('groups.name')} extra={t('groups.nameDefault')}>
          <Input maxLength={100} autoFocus />
        </Form.Item>
        <Form.Item name="item_ids" label={t('groups.items')}>
          <Select
            mode="multiple"
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            placeholder={t('groups.itemsPlaceholder')}
            options={items.map((item) => ({ value: String(item.item_id), label: item.item_name }))}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
