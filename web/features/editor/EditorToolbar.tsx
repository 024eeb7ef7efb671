/**
 * The editor's toolbar (spec 001 §2): document tools (history, JSON and SQL tools), sort pages,
 * the catalog manager (a new tab, as the spec opens it), and the asset tools (attachments,
 * templates, notify, and the Chinese-only tools). Each tool brings its own dialog.
 */
import { ApartmentOutlined, OrderedListOutlined } from '@ant-design/icons';
import { Divider } from 'antd';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { catalogManagerPath } from '../reader/paths';
import { AssetTools } from './assets/AssetTools';
import type { EditorToolProps } from './contract';
import { ToolButton } from './ToolButton';
import { DocumentTools } from './tools/DocumentTools';

const SortPagesModal = lazy(() =>
  import('../catalog/SortPagesModal').then((m) => ({ default: m.SortPagesModal })),
);

export function EditorToolbar({ editor, page, catId }: EditorToolProps & { catId: number }) {
  const { t } = useTranslation();
  const [sorting, setSorting] = useState(false);
  return (
    <>
      <DocumentTools editor={editor} page={page} />
      <ToolButton
        testId="tool-sort-pages"
        icon={<OrderedListOutlined />}
        tip={t('editor.sortPages')}
        onClick={() => setSorting(true)}
      />
      <ToolButton
        testId="tool-catalog-manager"
        icon={<ApartmentOutlined />}
        tip={t('editor.catalogManager')}
        onClick={() => window.open(catalogManagerPath(page.itemId), '_blank', 'noopener')}
      />
      <Divider type="vertical" />
      <AssetTools editor={editor} page={page} />
      {sorting && (
        <Suspense fallback={null}>
          <SortPagesModal
            itemId={page.itemId}
            catId={catId}
            open={sorting}
            onClose={() => setSorting(false)}
          />
        </Suspense>
      )}
    </>
  );
}
