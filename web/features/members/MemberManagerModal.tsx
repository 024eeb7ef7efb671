/** The member manager of an item (spec 000 §2): personal members and bound teams. */
import { Modal, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ItemListEntry } from '../../api/types';
import { ItemTeams } from './ItemTeams';
import { PersonalMembers } from './PersonalMembers';

export default function MemberManagerModal({
  item,
  onClose,
}: {
  item: ItemListEntry;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const itemId = Number(item.item_id);
  return (
    <Modal
      open
      title={t('members.title', { name: item.item_name })}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      width={820}
    >
      <Tabs
        items={[
          {
            key: 'members',
            label: t('members.tabMembers'),
            children: <PersonalMembers itemId={itemId} />,
          },
          { key: 'teams', label: t('members.tabTeams'), children: <ItemTeams itemId={itemId} /> },
        ]}
      />
    </Modal>
  );
}
