/** The item menu's "copy": the copy form with this item as the source. */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ItemListEntry } from '../../api/types';
import { CopyItemForm } from './CopyItemForm';

export default function CopyItemModal({
  item,
  onClose,
  onCopied,
}: {
  item: ItemListEntry;
  onClose: () => void;
  onCopied: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('items.copy.title', { name: item.item_name })}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <CopyItemForm
        items={[item]}
        source={item}
        onCopied={() => {
          onCopied();
          onClose();
        }}
      />
    </Modal>
  );
}
