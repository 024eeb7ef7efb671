/**
 * The catalog manager as a dialog (the editor opens it over the page being edited). Pages it
 * opens go to a new tab, so the editor stays where it is.
 */
import { Modal } from 'antd';
import { useTranslation } from 'react-i18next';
import { CatalogManager } from './CatalogManager';
import { useCatalogTree } from './useCatalogTree';

function ManagerBody({ itemId }: { itemId: number }) {
  const loaded = useCatalogTree(itemId);
  return (
    <CatalogManager
      itemId={itemId}
      loaded={loaded}
      onNavigate={(path) => void window.open(path, '_blank', 'noopener')}
    />
  );
}

export function CatalogManagerModal({
  itemId,
  open,
  onClose,
}: {
  itemId: number;
  open: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      open={open}
      title={t('catalogManager.title')}
      onCancel={onClose}
      footer={null}
      width={760}
      destroyOnHidden
    >
      {/* Loaded each time it opens: the tree may have changed meanwhile. */}
      {open && <ManagerBody itemId={itemId} />}
    </Modal>
  );
}

export default CatalogManagerModal;
