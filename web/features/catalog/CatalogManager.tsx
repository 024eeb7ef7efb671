/**
 * The catalog manager (spec 001 §2 "Catalog manager: tree with drag, edit, add, sort pages, copy
 * or move, delete"), shared by the `/catalog/:item_id` screen and the editor's dialog.
 *
 * A drop is saved as one `catalog/batUpdate` of the whole tree; the dropped tree shows at once and
 * is then replaced by the server's state, so a refused drop (its message alerted) snaps back.
 * Every other change reloads the tree too. Searching filters by name and turns dragging off, as
 * does a missing edit right (then the tree is read-only and has no context menu).
 */
import { FolderAddOutlined } from '@ant-design/icons';
import { Alert, App, Button, Empty, Input, Result, Space, Spin, Typography } from 'antd';
import { useCallback, useMemo, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { editPagePath, readerPath } from '../reader/paths';
import { deleteCatalog, saveTree } from './api';
import { CatalogFormModal } from './CatalogFormModal';
import { ContextMenu } from './ContextMenu';
import { CopyCatalogModal } from './CopyCatalogModal';
import { ManagerTree } from './ManagerTree';
import { nodeActions, type NodeAction } from './nodeActions';
import { SortPagesModal } from './SortPagesModal';
import {
  filterTree,
  flattenForSave,
  levelsByKey,
  moveNode,
  parentCatalogOf,
  type DropWhere,
  type ManagedNode,
} from './tree';
import type { useCatalogTree } from './useCatalogTree';

type Dialog =
  | { kind: 'form'; editing: ManagedNode | null; parentCatId: number }
  | { kind: 'copy'; catalog: ManagedNode }
  | { kind: 'sort'; catId: number };

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
  const { modal, message } = App.useApp();
  const { state, reload, showTree } = loaded;
  const [keyword, setKeyword] = useState('');
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [menu, setMenu] = useState<{ at: { x: number; y: number }; node: ManagedNode } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);

  const item = state.status === 'ready' ? state.item : null;
  const tree = useMemo(() => item?.tree ?? [], [item]);
  const canEdit = !!item?.canEdit;
  const searching = keyword.trim() !== '';
  const visible = useMemo(() => filterTree(tree, keyword), [tree, keyword]);
  const closeMenu = useCallback(() => setMenu(null), []);

  /** Runs a change, then shows the server's tree whatever happened (errors are alerted). */
  const change = useCallback(
    async (run: () => Promise<unknown>, done?: string) => {
      setBusy(true);
      try {
        await run();
        if (done) message.success(done);
      } catch {
        // alerted by the API client
      } finally {
        await reload();
        setBusy(false);
      }
    },
    [reload, message],
  );

  function drop(dragged: ManagedNode, target: ManagedNode, where: DropWhere) {
    const next = moveNode(tree, dragged.key, target.key, where);
    if (!next) return;
    showTree(next);
    void change(() =>
      saveTree(itemId, flattenForSave(next), {
        id: dragged.id,
        title: dragged.name,
        type: dragged.kind,
      }),
    );
  }

  const act = useCallback(
    (action: NodeAction, node: ManagedNode) => {
      switch (action) {
        case 'addSub':
          return setDialog({ kind: 'form', editing: null, parentCatId: node.id });
        case 'edit':
          return setDialog({
            kind: 'form',
            editing: node,
            parentCatId: parentCatalogOf(tree, node.key),
          });
        case 'sort':
          return setDialog({ kind: 'sort', catId: node.id });
        case 'copy':
          return setDialog({ kind: 'copy', catalog: node });
        case 'open':
          return onNavigate(readerPath(String(itemId), node.id));
        case 'editPage':
          return onNavigate(editPagePath(itemId, node.id));
        case 'delete':
          modal.confirm({
            title: t('catalogManager.deleteConfirm', { name: node.name }),
            content: t('catalogManager.deleteHint'),
            okText: t('common.delete'),
            okButtonProps: { danger: true },
            cancelText: t('common.cancel'),
            onOk: () => change(() => deleteCatalog(itemId, node.id), t('common.deleted')),
          });
      }
    },
    [tree, itemId, onNavigate, modal, t, change],
  );

  function openMenu(event: MouseEvent, node: ManagedNode) {
    event.preventDefault();
    setMenu({ at: { x: event.clientX, y: event.clientY }, node });
  }

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
            onClick={() => setDialog({ kind: 'form', editing: null, parentCatId: 0 })}
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
            onDrop={drop}
            onAction={act}
            // spec 001 §6: the context menu is an editor's tool
            onContextMenu={canEdit ? openMenu : undefined}
          />
        )}
      </Spin>

      {menu && (
        <ContextMenu
          at={menu.at}
          label={t('catalogManager.actionsFor', { name: menu.node.name })}
          items={nodeActions(menu.node, levelsByKey(tree).get(menu.node.key) ?? 0, canEdit, t).map(
            (entry) => ({
              key: entry.key,
              label: entry.label,
              icon: entry.icon,
              danger: entry.danger,
            }),
          )}
          onSelect={(key) => act(key as NodeAction, menu.node)}
          onClose={closeMenu}
        />
      )}
      {dialog?.kind === 'form' && (
        <CatalogFormModal
          itemId={itemId}
          tree={tree}
          editing={dialog.editing}
          parentCatId={dialog.parentCatId}
          onClose={() => setDialog(null)}
          onSaved={() => {
            message.success(t('common.saved'));
            void reload();
          }}
        />
      )}
      {dialog?.kind === 'copy' && (
        <CopyCatalogModal
          itemId={itemId}
          catalog={dialog.catalog}
          onClose={() => setDialog(null)}
          onDone={() => {
            message.success(t('catalogManager.copy.done'));
            void reload();
          }}
        />
      )}
      <SortPagesModal
        itemId={itemId}
        catId={dialog?.kind === 'sort' ? dialog.catId : 0}
        open={dialog?.kind === 'sort'}
        onClose={() => setDialog(null)}
        onSorted={() => void reload()}
      />
    </div>
  );
}
