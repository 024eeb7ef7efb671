/**
 * New catalog, or rename / change the parent of one (`catalog/save`). The parent list offers the
 * top level and the catalogs under which the catalog still fits within three levels (never the
 * catalog itself or its own subtree).
 */
import { Form, Input, Modal, Select } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { saveCatalog } from './api';
import { MAX_LEVEL, parentChoices, TOP_LEVEL, type ManagedNode } from './tree';

interface FormValues {
  name: string;
  parentCatId: number;
}

export function CatalogFormModal({
  itemId,
  tree,
  editing,
  parentCatId,
  onClose,
  onSaved,
}: {
  itemId: number;
  tree: ManagedNode[];
  /** The catalog being edited; null for a new one. */
  editing: ManagedNode | null;
  /** The parent to start with (0 = top level). */
  parentCatId: number;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const [form] = Form.useForm<FormValues>();
  const [saving, setSaving] = useState(false);
  const options = useMemo(
    () => [
      { value: 0, label: t('catalogManager.topLevel') },
      ...parentChoices(tree, editing).map((c) => ({ value: c.catId, label: c.path })),
    ],
    [tree, editing, t],
  );

  async function submit(values: FormValues) {
    setSaving(true);
    try {
      await saveCatalog({
        itemId,
        catId: editing?.id ?? 0,
        name: values.name.trim(),
        parentCatId: values.parentCatId,
      });
      onSaved();
      onClose();
    } catch {
      // alerted by the API client; the form stays open to correct it
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={editing ? t('catalogManager.editTitle') : t('catalogManager.newTitle')}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={() => form.submit()}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'catalog-form-save' }}
    >
      <Form<FormValues>
        form={form}
        layout="vertical"
        initialValues={{ name: editing?.name ?? '', parentCatId }}
        onFinish={(values) => void submit(values)}
        data-testid="catalog-form"
      >
        <Form.Item
          name="name"
          label={t('catalogManager.name')}
          rules={[{ required: true, whitespace: true, message: t('catalogManager.nameRequired') }]}
        >
          <Input autoFocus maxLength={200} data-testid="catalog-form-name" />
        </Form.Item>
        <Form.Item
          name="parentCatId"
          label={t('catalogManager.parent')}
          extra={
            <span data-testid="catalog-levels-tip">
              {t('catalogManager.levelsTip', { levels: MAX_LEVEL - TOP_LEVEL + 1 })}
            </span>
          }
        >
          <Select
            options={options}
            showSearch={{ optionFilterProp: 'label' }}
            data-testid="catalog-form-parent"
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
