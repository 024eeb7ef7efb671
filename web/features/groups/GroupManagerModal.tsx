/** The group manager as a dialog over the item list. */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { GroupManager } from './GroupManager';

export default function GroupManagerModal({
  onClose,
  onChanged,
}: {
  onClose: () => void;
  onChanged: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal open title={t('groups.manage')} footer={null} onCancel={onClose} destroyOnHidden>
      <GroupManager onChanged={onChanged} />
    </Modal>
  );
}
