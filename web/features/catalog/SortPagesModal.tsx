/**
 * "Sort pages" (spec 001 §2): the pages of one catalog as a drag list. Every drop is saved at
 * once with `page/sort` (page id → position); when the server refuses, its message is alerted and
 * the list is reloaded to show the order it kept (spec 001 §8).
 */
import { FileTextOutlined } from '@ant-design/icons';
import { App, Button, Empty, Modal, Spin, Typography } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SortableCard, SortableList } from '../../components/SortableList';
import { pagesOfCatalog, sortPages, type CatalogPage } from './api';

export function SortPagesModal({
  itemId,
  catId,
  open,
  onClose,
  onSorted,
}: {
  itemId: number;
  catId: number;
  open: boolean;
  onClose: () => void;
  /** Called after each saved order (the caller may refresh its tree). */
  onSorted?: () => void;
}) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pages, setPages] = useState<CatalogPage[] | null>(null);
  const [saving, setSaving] = useState(false);

  const load = useCallback(async () => {
    try {
      setPages(await pagesOfCatalog(itemId, catId));
    } catch {
      setPages([]); // alerted by the API client
    }
  }, [itemId, catId]);

  useEffect(() => {
    if (!open) return;
    setPages(null);
    void load();
  }, [open, load]);

  async function reorder(next: CatalogPage[]) {
    setPages(next);
    setSaving(true);
    try {
      await sortPages(
        itemId,
        Object.fromEntries(next.map((page, index) => [page.page_id, index + 1])),
      );
      message.success(t('catalogManager.sort.saved'));
      onSorted?.();
    } catch {
      await load(); // alerted; show the order the server kept
    } finally {
      setSaving(false);
    }
  }

  return (
    <Modal
      open={open}
      title={t('catalogManager.sortPages')}
      onCancel={onClose}
      destroyOnHidden
      footer={
        <Button type="primary" onClick={onClose} data-testid="sort-pages-close">
          {t('catalogManager.sort.done')}
        </Button>
      }
    >
      <div data-testid="sort-pages" data-saving={saving ? 'true' : 'false'}>
        {pages === null ? (
          <Spin style={{ display: 'block', margin: '24px auto' }} />
        ) : pages.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={t('catalogManager.sort.empty')}
          />
        ) : (
          <>
            <Typography.Paragraph type="secondary">
              {t('catalogManager.sort.hint')}
            </Typography.Paragraph>
            <div role="list">
              <SortableList
                items={pages}
                getId={(page) => page.page_id}
                getLabel={(page) => page.page_title}
                onReorder={(next) => void reorder(next)}
                disabled={saving}
              >
                {(page, drag) => (
                  <SortableCard
                    drag={drag}
                    handleLabel={t('sort.handle', { name: page.page_title })}
                    attributes={{
                      'data-testid': 'sort-page-row',
                      'data-page-title': page.page_title,
                    }}
                  >
                    <FileTextOutlined style={{ color: '#98a2b3' }} />
                    <Typography.Text ellipsis style={{ flex: 1 }}>
                      {page.page_title}
                    </Typography.Text>
                  </SortableCard>
                )}
              </SortableList>
            </div>
          </>
        )}
      </div>
    </Modal>
  );
}

export default SortPagesModal;
