/**
 * Copy or move a catalog with everything in it (spec 001 §5, `catalog/copy`): to one of the
 * user's items (`item/myList`) under one of its catalogs (`catalog/catListName`), '/' being the
 * top level. In its own item a catalog cannot go under itself, so its subtree is not offered.
 */
import { Form, Modal, Radio, Select } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_ITEMS, myItems } from '../../api/items';
import type { ItemListEntry } from '../../api/types';
import { catalogNames, copyCatalog, type CatalogName } from './api';
import { walk, type ManagedNode } from './tree';

/** Item types with a catalog tree (0 is read as regular, spec 001 §3). */
const TREE_ITEM_TYPES = new Set(['0', '1']);

interface FormValues {
  move: boolean;
  toItemId: number;
  parentCatId: number;
}

export function CopyCatalogModal({
  itemId,
  catalog,
  onClose,
  onDone,
}: {
  itemId: number;
  catalog: ManagedNode;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const toItemId = Form.useWatch('toItemId', form) ?? itemId;
  const [items, setItems] = useState<ItemListEntry[]>([]);
  const [targets, setTargets] = useState<CatalogName[]>([]);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    myItems(ALL_ITEMS).then(
      (list) => setItems((list ?? []).filter((item) => TREE_ITEM_TYPES.has(item.item_type))),
      () => setItems([]),
    );
  }, []);

  useEffect(() => {
    let current = true;
    setTargets([]);
    catalogNames(toItemId).then(
      (rows) => current && setTargets(rows),
      () => current && setTargets([]),
    );
    return () => {
      current = false;
    };
  }, [toItemId]);

  const ownSubtree = useMemo(() => {
    const ids = new Set<string>([String(catalog.id)]);
    walk(catalog.children, (node) => {
      if (node.kind === 'catalog') ids.add(String(node.id));
    });
    return ids;
  }, [catalog]);

  const parentOptions = [
    { value: 0, label: '/' },
    ...targets
      .filter((row) => toItemId !== itemId || !ownSubtree.has(row.cat_id))
      .map((row) => ({ value: Number(row.cat_id), label: row.cat_name })),
  ];

  async function submit(values: FormValues) {
    setSaving(true);
    try {
      await copyCatalog({
        catId: catalog.id,
        toItemId: values.toItemId,
        parentCatId: values.parentCatId,
        move: values.move,
      });
      onDone();
      onClose();
    } catch {
      // alerted by the API client
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={t('catalogManager.copy.title', { name: catalog.name })}
      okText={t('common.ok')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'copy-catalog-ok' }}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ move: false, toItemId: itemId, parentCatId: 0 }}
        onFinish={(values) => void submit(values)}
      >
        <Form.Item name="move" label={t('catalogManager.copy.action')}>
          <Radio.Group
            data-testid="copy-catalog-mode"
            options={[
              { value: false, label: t('catalogManager.copy.copy') },
              { value: true, label: t('catalogManager.copy.move') },
            ]}
          />
        </Form.Item>
        <Form.Item name="toItemId" label={t('catalogManager.copy.targetItem')}>
          <Select
            data-testid="copy-catalog-item"
            showSearch={{ optionFilterProp: 'label' }}
            options={items.map((item) => ({ value: Number(item.item_id), label: item.item_name }))}
            onChange={() => form.setFieldValue('parentCatId', 0)}
          />
        </Form.Item>
        <Form.Item name="parentCatId" label={t('catalogManager.copy.targetParent')}>
          <Select
            data-testid="copy-catalog-parent"
            showSearch={{ optionFilterProp: 'label' }}
            options={parentOptions}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
