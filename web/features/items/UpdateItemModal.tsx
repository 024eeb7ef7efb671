/**
 * "Update base info": name, description, open/private and groups of an item the user manages.
 * The type and custom id are fixed after creation (shown, not editable).
 */
import { App, Descriptions, Form, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { itemDetail, updateItem } from '../../api/items';
import type { ItemDetail, ItemGroup } from '../../api/types';
import { ItemFields, type ItemFormValues } from './ItemFields';
import { itemTypeOf } from './itemTypes';

export default function UpdateItemModal({
  itemId,
  groups,
  onClose,
  onSaved,
}: {
  itemId: number;
  groups: ItemGroup[];
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const { modal } = App.useApp();
  const [form] = Form.useForm<ItemFormValues>();
  const [detail, setDetail] = useState<ItemDetail | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    itemDetail(itemId).then(setDetail, onClose);
  }, [itemId, onClose]);

  async function submit(values: ItemFormValues) {
    if (!detail) return;
    const isPrivate = values.visibility === 'private';
    const password = isPrivate ? (values.password ?? '') : '';
    if (isPrivate && !password && !Number(detail.is_private)) {
      modal.warning({ content: t('items.form.privateNeedsPassword'), okText: t('common.ok') });
      return;
    }
    setBusy(true);
    try {
      await updateItem({
        item_id: itemId,
        item_name: values.item_name.trim(),
        item_description: values.item_description ?? '',
        password,
        is_private: isPrivate ? 1 : 0,
        item_group_ids: values.group_ids,
      });
      onSaved();
      onClose();
    } catch {
      // alerted
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal
      open
      title={t('items.update.title')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      onOk={() => form.submit()}
      okButtonProps={{ disabled: !detail }}
      confirmLoading={busy}
      onCancel={onClose}
      destroyOnHidden
    >
      {!detail ? (
        <Spin />
      ) : (
        <>
          <Descriptions
            size="small"
            column={1}
            style={{ marginBottom: 16 }}
            items={[
              {
                key: 'type',
                label: t('items.form.type'),
                children: t(itemTypeOf(detail.item_type).label),
              },
              {
                key: 'address',
                label: t('items.form.address'),
                children: `${window.location.host}/${detail.item_domain || detail.item_id}`,
              },
            ]}
          />
          <Link to={`/item/setting/${itemId}`} onClick={onClose}>
            {t('itemSetting.open')}
          </Link>
          <Form
            form={form}
            layout="vertical"
            onFinish={submit}
            initialValues={{
              item_name: detail.item_name,
              item_description: detail.item_description,
              visibility: Number(detail.is_private) ? 'private' : 'open',
              password: '',
              group_ids: (detail.group_ids ?? []).map(Number),
            }}
          >
            <ItemFields
              creating={false}
              groups={groups}
              hasPassword={!!Number(detail.is_private)}
            />
          </Form>
        </>
      )}
    </Modal>
  );
}
