/** Add or edit one item group: its name and which of the user's items it holds. */
import { Form, Input, Select } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveGroup } from '../../api/groups';
import { myItems } from '../../api/items';
import type { ItemGroup, ItemListEntry } from '../../api/types';
import { FormModal } from '../../components/FormModal';

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
  const [items, setItems] = useState<ItemListEntry[]>([]);

  useEffect(() => {
    myItems(0).then(setItems, () => {});
  }, []);

  return (
    <FormModal<{ group_name: string; item_ids: string[] }>
      title={group ? t('groups.edit') : t('groups.add')}
      initialValues={{
        group_name: group?.group_name ?? '',
        item_ids: group?.item_ids ? group.item_ids.split(',').filter(Boolean) : [],
      }}
      save={(values) =>
        saveGroup({
          id: group ? Number(group.id) : 0,
          group_name: values.group_name ?? '',
          item_ids: (values.item_ids ?? []).join(','),
        })
      }
      onClose={onClose}
      onSaved={onSaved}
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
    </FormModal>
  );
}
