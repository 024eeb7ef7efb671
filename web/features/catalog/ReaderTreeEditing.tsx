/**
 * The editors' layer of the reader's left tree (spec 001 §2 "right-click context menu", §4 drag
 * re-ordering, §6 item_edit): the catalog manager's drop, node actions, context menu and dialogs
 * (`useTreeEditing`) on the reader's own tree. Its own lazy chunk, loaded only for users who may
 * edit: anonymous readers never download it.
 *
 * The reader draws the tree (`render`); this layer decides what it shows — the dropped tree while
 * its save is on the way, the server's menu otherwise — and adds the drag and right-click props.
 */
import type { DataNode, TreeProps } from 'antd/es/tree';
import { useCallback, useEffect, useMemo, useState, type Key, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import type { Menu, MenuCatalog, MenuPage } from '../reader/types';
import { dropRules } from './ManagerTree';
import { treeFromMenu, walk, type ManagedNode } from './tree';
import { useTreeEditing } from './useTreeEditing';

/** The menu in the order of `nodes`, made of the menu's own entries (every field kept). */
function menuFromTree(nodes: ManagedNode[], menu: Menu): Menu {
  const pages = new Map<string, MenuPage>();
  const catalogs = new Map<string, MenuCatalog>();
  const collect = (cats: MenuCatalog[], list: MenuPage[]) => {
    for (const page of list) pages.set(String(page.page_id), page);
    for (const cat of cats) {
      catalogs.set(String(cat.cat_id), cat);
      collect(cat.catalogs ?? [], cat.pages);
    }
  };
  collect(menu.catalogs, menu.pages);
  const build = (list: ManagedNode[]): Menu => ({
    pages: list.flatMap((n) => (n.kind === 'page' ? [pages.get(String(n.id))!] : [])),
    catalogs: list.flatMap((n) => {
      if (n.kind !== 'catalog') return [];
      const inner = build(n.children);
      return [{ ...catalogs.get(String(n.id))!, catalogs: inner.catalogs, pages: inner.pages }];
    }),
  });
  return build(nodes);
}

export interface ReaderTreeEditingProps {
  itemId: string;
  menu: Menu;
  /** Off while a search keyword is set (spec 001 §4). */
  draggable: boolean;
  /** The reader's nodes for a menu. */
  toTreeData: (menu: Menu) => DataNode[];
  /** Draws the reader's tree with these nodes and extra props. */
  render: (treeData: DataNode[], extra: Partial<TreeProps>) => ReactNode;
  /** Re-reads the item (its menu) after a change. */
  onChanged: () => Promise<unknown> | void;
}

export default function ReaderTreeEditing({
  itemId,
  menu,
  draggable,
  toTreeData,
  render,
  onChanged,
}: ReaderTreeEditingProps) {
  const navigate = useNavigate();
  const serverTree = useMemo(() => treeFromMenu(menu), [menu]);
  const [dropped, setDropped] = useState<ManagedNode[] | null>(null);
  // A new menu from the server (the reload, or a live change) replaces the dropped tree.
  useEffect(() => setDropped(null), [menu]);
  const tree = dropped ?? serverTree;

  const reload = useCallback(async () => {
    await onChanged();
    setDropped(null);
  }, [onChanged]);
  const editing = useTreeEditing({
    itemId: Number(itemId),
    tree,
    canEdit: true,
    reload,
    showTree: setDropped,
    onNavigate: (path) => void navigate(path),
  });

  const byKey = useMemo(() => {
    const map = new Map<string, ManagedNode>();
    walk(tree, (node) => map.set(node.key, node));
    return map;
  }, [tree]);
  const treeData = useMemo(
    () => toTreeData(dropped ? menuFromTree(dropped, menu) : menu),
    [toTreeData, dropped, menu],
  );

  const nodeOf = (data: { key: Key }) => byKey.get(String(data.key));
  const extra: Partial<TreeProps> = {
    draggable: draggable && !editing.busy ? { icon: false } : false,
    ...dropRules(nodeOf, editing.drop),
    onRightClick: ({ event, node }) => {
      const target = nodeOf(node);
      if (target) editing.openMenu(event, target);
    },
  };
  return (
    <div data-testid="reader-tree-editing" data-busy={editing.busy ? 'true' : 'false'}>
      {render(treeData, extra)}
      {editing.overlays}
    </div>
  );
}
