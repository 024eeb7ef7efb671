/**
 * Shares one of the user's templates to items (reference pages §5: the chosen set replaces the
 * current shares). Members of those items find it under "project templates".
 */
import { App, Checkbox, Empty, Modal, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ALL_ITEMS, myItems } from '../../../api/items';
import type { ItemListEntry } from '../../../api/types';
import { shareTemplate, type MyTemplate } from './api';

export function ShareTemplateDialog({
  template,
  onClose,
  onShared,
}: {
  template: MyTemplate;
  onClose: () => void;
  onShared: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [items, setItems] = useState<ItemListEntry[] | null>(null);
  const [chosen, setChosen] = useState<string[]>(() =>
    template.share_item.map((share) => String(share.item_id)),
  );
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    myItems(ALL_ITEMS).then(
      (rows) => setItems(Array.isArray(rows) ? rows : []),
      () => setItems([]),
    );
  }, []);

  async function save() {
    setSaving(true);
    try {
      await shareTemplate(Number(template.id), chosen.map(Number));
      message.success(t('editAssets.templates.shared'));
      onShared();
      onClose();
    } catch {
      // alerted (an item without edit right is named by the server)
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open
      title={t('editAssets.templates.shareTitle', { title: template.template_title })}
      okText={t('common.save')}
      cancelText={t('common.cancel')}
      confirmLoading={saving}
      onOk={save}
      onCancel={onClose}
      destroyOnHidden
      okButtonProps={{ 'data-testid': 'share-template-ok' }}
    >
      <p>{t('editAssets.templates.shareHelp')}</p>
      {items === null ? (
        <Spin />
      ) : items.length === 0 ? (
        <Empty description={t('editAssets.templates.noItems')} />
      ) : (
        <Checkbox.Group
          value={chosen}
          onChange={(values) => setChosen(values.map(String))}
          style={{
            display: 'flex',
            flexDirection: 'column',
            gap: 6,
            maxHeight: 320,
            overflow: 'auto',
          }}
          data-testid="share-template-items"
          options={items.map((item) => ({
            value: String(item.item_id),
            label: item.item_name,
          }))}
        />
      )}
    </Modal>
  );
}
