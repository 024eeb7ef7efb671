/**
 * `/catalog/:item_id` (spec 001 §2, opened from the reader's "new catalog" and "sort pages" and
 * in a new tab from the editor): the catalog manager as a screen of its own, with the way back to
 * the item.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { ScreenCard } from '../layout/ScreenCard';
import { useDocumentTitle } from '../reader/useDocumentTitle';
import { readerPath } from '../reader/paths';
import { CatalogManager } from './CatalogManager';
import { useCatalogTree } from './useCatalogTree';

export default function CatalogManagerPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const itemId = Number(useParams().item_id) || 0;
  const loaded = useCatalogTree(itemId);
  const itemName = loaded.state.status === 'ready' ? loaded.state.item.itemName : '';
  const title = itemName
    ? t('catalogManager.titleOf', { name: itemName })
    : t('catalogManager.title');
  useDocumentTitle(title);
  const open = useCallback((path: string) => void navigate(path), [navigate]);

  return (
    <div style={{ minHeight: '100vh', background: '#f5f6f8', padding: 'clamp(12px, 3vw, 32px)' }}>
      <div style={{ maxWidth: 960, margin: '0 auto' }}>
        <ScreenCard title={title} back={readerPath(String(itemId))}>
          <CatalogManager itemId={itemId} loaded={loaded} onNavigate={open} />
        </ScreenCard>
      </div>
    </div>
  );
}
