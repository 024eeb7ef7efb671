/**
 * Exporting the item (spec 001 §7): Word or Markdown, the whole item or one catalog.
 */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { ExportChooser } from '../../transfer/ExportChooser';

export default function ExportDialog({
  itemId,
  itemType,
  onClose,
}: {
  itemId: number;
  itemType: number;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('dataTransfer.export.title')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <ExportChooser itemId={itemId} itemType={itemType} />
    </Modal>
  );
}
