/**
 * An editor's actions on an item's tree — drop, the node actions (add, edit, sort, copy or move,
 * delete, open), the right-click menu and their dialogs — shared by the catalog manager and the
 * reader's left tree (spec 001 §2, §6), so both behave the same.
 *
 * A drop is saved as one `catalog/batUpdate` of the whole tree; the dropped tree shows at once
 * (`showTree`) and every change ends with `reload`, so the screen always settles on the server's
 * state (a refused drop, its message alerted, snaps back).
 */
import { App } from 'antd';
import { useCallback, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { editPagePath, readerPath } from '../reader/paths';
import { deleteCatalog, saveTree } from './api';
import { CatalogFormModal } from './CatalogFormModal';
import { ContextMenu } from './ContextMenu';
import { CopyCatalogModal } from './CopyCatalogModal';
import { nodeActions, type NodeAction } from './nodeActions';
import { SortPagesModal } from './SortPagesModal';
import { flattenForSave, levelsByKey, moveNode, parentCatalogOf } from './tree';
import type { DropWhere, ManagedNode } from './tree';

type Dialog =
  | { kind: 'form'; editing: ManagedNode | null; parentCatId: number }
  | { kind: 'copy'; catalog: ManagedNode }
  | { kind: 'sort'; catId: number };

export interface TreeEditing {
  busy: boolean;
  drop: (dragged: ManagedNode, target: ManagedNode, where: DropWhere) => void;
  act: (action: NodeAction, node: ManagedNode) => void;
  openMenu: (event: MouseEvent, node: ManagedNode) => void;
  /** Opens the new-catalog form under `parentCatId` (0 = top level). */
  addCatalog: (parentCatId: number) => void;
  /** The context menu and the dialogs: render them once, anywhere. */
  overlays: ReactNode;
}

export function useTreeEditing({
  itemId,
  tree,
  canEdit,
  reload,
  showTree,
  onNavigate,
}: {
  itemId: number;
  tree: ManagedNode[];
  canEdit: boolean;
  /** Re-reads the server's tree (after every change, whatever happened). */
  reload: () => Promise<unknown> | void;
  /** Shows a dropped tree until the reload replaces it. */
  showTree: (tree: ManagedNode[]) => void;
  /** Opens a reader or editor address. */
  onNavigate: (path: string) => void;
}): TreeEditing {
  const { t } = useTranslation();
  const { modal, message } = App.useApp();
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const [menu, setMenu] = useState<{ at: { x: number; y: number }; node: ManagedNode } | null>(
    null,
  );
  const [busy, setBusy] = useState(false);
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

  const drop = useCallback(
    (dragged: ManagedNode, target: ManagedNode, where: DropWhere) => {
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
    },
    [tree, itemId, showTree, change],
  );

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

  const openMenu = useCallback((event: MouseEvent, node: ManagedNode) => {
    event.preventDefault();
    setMenu({ at: { x: event.clientX, y: event.clientY }, node });
  }, []);

  const addCatalog = useCallback(
    (parentCatId: number) => setDialog({ kind: 'form', editing: null, parentCatId }),
    [],
  );

  const overlays = (
    <>
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
    </>
  );

  return { busy, drop, act, openMenu, addCatalog, overlays };
}
