/**
 * Importing a file into this item (spec 001 §7 `import/auto` with `item_id`; managers): a ShowDoc
 * export, Markdown file or zip, Swagger/OpenAPI or Postman file, with a live progress bar; or
 * following an OpenAPI URL, whose new versions update the API pages (live API contracts).
 */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { FollowContract } from '../../transfer/FollowContract';
import { ImportDropzone } from '../../transfer/ImportDropzone';

export default function ImportDialog({
  itemId,
  onClose,
  onImported,
}: {
  itemId: number;
  onClose: () => void;
  onImported: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('dataTransfer.import.titleInto')}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
    >
      <ImportDropzone itemId={itemId} onImported={onImported} />
      <FollowContract itemId={itemId} onSynced={onImported} />
    </Modal>
  );
}
