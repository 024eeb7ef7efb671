/** The attachment manager as the header's dialog. */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { AttachmentManager } from './AttachmentManager';

export default function AttachmentModal({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal
      open
      title={t('attachments.title')}
      footer={null}
      onCancel={onClose}
      width={860}
      destroyOnHidden
    >
      <AttachmentManager />
    </Modal>
  );
}
