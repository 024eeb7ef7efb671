/** The create button's dialog: a new item, a copy of one, or an import (spec 000 §2). */
import { Modal, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ItemGroup, ItemListEntry } from '../../api/types';
import { CopyItemForm } from './CopyItemForm';
import { ImportPanel } from './ImportPanel';
import { NewItemForm } from './NewItemForm';

export default function CreateItemModal({
  groups,
  items,
  currentGroup,
  onClose,
  onCreated,
}: {
  groups: ItemGroup[];
  items: ItemListEntry[];
  currentGroup: number;
  onClose: () => void;
  onCreated: () => void;
}) {
  const { t } = useTranslation();
  const done = () => {
    onCreated();
    onClose();
  };
  return (
    <Modal open title={t('items.create.title')} footer={null} onCancel={onClose} destroyOnHidden>
      <Tabs
        items={[
          {
            key: 'new',
            label: t('items.create.tabNew'),
            children: <NewItemForm groups={groups} currentGroup={currentGroup} onCreated={done} />,
          },
          {
            key: 'copy',
            label: t('items.create.tabCopy'),
            children: <CopyItemForm items={items.filter((i) => i.manage)} onCopied={done} />,
          },
          {
            key: 'import',
            label: t('items.create.tabImport'),
            children: <ImportPanel onImported={onCreated} />,
          },
        ]}
      />
    </Modal>
  );
}
