/**
 * The catalog manager (spec 001 §2 "Catalog manager: tree with drag, edit, add, sort pages, copy
 * or move, delete"), shared by the `/catalog/:item_id` screen and the editor's dialog.
 *
 * The actions, drops and dialogs are `useTreeEditing`'s (the reader's tree uses the same).
 * Searching filters by name and turns dragging off, as does a missing edit right (then the tree
 * is read-only and has no context menu).
 */
import { FolderAddOutlined } from '@ant-design/icons';
import { Alert, Button, Empty, Input, Result, Space, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ManagerTree } from './ManagerTree';
import { filterTree } from './tree';
import type { useCatalogTree } from './useCatalogTree';
import { useTreeEditing } from './useTreeEditing';

export function CatalogManager({
  itemId,
  loaded,
  onNavigate,
}: {
  itemId: number;
  loaded: ReturnType<typeof useCatalogTree>;
  /** Opens a reader or editor address (the dialog opens them in a new tab). */
  onNavigate: (path: string) => void;
}) {
  const { t } = useTranslation();
  const { state, reload, showTree } = loaded;
  const [keyword, setKeyword] = useState('');

  const item = state.status === 'ready' ? state.item : null;
  const tree = useMemo(() => item?.tree ?? [], [item]);
  const canEdit = !!item?.canEdit;
  const searching = keyword.trim() !== '';
  const visible = useMemo(() => filterTree(tree, keyword), [tree, keyword]);
  const editing = useTreeEditing({ itemId, tree, canEdit, reload, showTree, onNavigate });
  const { busy } = editing;

  if (state.status === 'loading') return <Spin style={{ display: 'block', margin: '48px auto' }} />;
  if (state.status === 'error')
    return (
      <Result
        status="warning"
        title={t('catalogManager.loadFailed')}
        subTitle={state.message}
        data-testid="catalog-manager-error"
      />
    );

  const hint = !canEdit
    ? null
    : searching
      ? t('catalogManager.dragOffWhileSearching')
      : t('catalogManager.dragHint');

  return (
    <div data-testid="catalog-manager" data-busy={busy ? 'true' : 'false'}>
      {!canEdit && (
        <Alert
          type="info"
          showIcon
          title={t('catalogManager.readOnly')}
          style={{ marginBottom: 12 }}
          data-testid="catalog-read-only"
        />
      )}
      <Space wrap style={{ width: '100%', justifyContent: 'space-between', marginBottom: 8 }}>
        <Input.Search
          allowClear
          value={keyword}
          onChange={(event) => setKeyword(event.target.value)}
          placeholder={t('catalogManager.searchPlaceholder')}
          aria-label={t('catalogManager.searchPlaceholder')}
          style={{ width: 280, maxWidth: '100%' }}
          data-testid="catalog-search"
        />
        {canEdit && (
          <Button
            type="primary"
            icon={<FolderAddOutlined />}
            onClick={() => editing.addCatalog(0)}
            data-testid="catalog-add"
          >
            {t('catalogManager.add')}
          </Button>
        )}
      </Space>
      {hint && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 13 }}>
          {hint}
        </Typography.Paragraph>
      )}
      <Spin spinning={busy}>
        {visible.length === 0 ? (
          <Empty
            image={Empty.PRESENTED_IMAGE_SIMPLE}
            description={searching ? t('catalogManager.noMatch') : t('catalogManager.empty')}
          />
        ) : (
          <ManagerTree
            nodes={visible}
            canEdit={canEdit}
            draggable={canEdit && !searching}
            expandAll={searching}
            onDrop={editing.drop}
            onAction={editing.act}
            // spec 001 §6: the context menu is an editor's tool
            onContextMenu={canEdit ? editing.openMenu : undefined}
          />
        )}
      </Spin>

      {editing.overlays}
    </div>
  );
}
