/**
 * The catalog manager's tree (antd Tree): catalogs and pages with their action buttons, expanded
 * unless the user folded them, draggable for editors while no search keyword is set (spec 001
 * §4). A drop that the tree rules allow is handed up as (dragged, target, where); nothing can be
 * dropped inside a page.
 */
import { FileTextOutlined, FolderOutlined, HolderOutlined } from '@ant-design/icons';
import { Button, Tooltip, Tree } from 'antd';
import type { DataNode, TreeProps } from 'antd/es/tree';
import { useMemo, useState, type Key, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { nodeActions, type NodeAction } from './nodeActions';
import { canDrop, catalogKeys, levelsByKey, walk, type DropWhere, type ManagedNode } from './tree';
import './catalogManager.css';

export interface ManagerTreeProps {
  /** What to show (the whole tree, or the search's result). */
  nodes: ManagedNode[];
  canEdit: boolean;
  draggable: boolean;
  /** Search mode: every catalog open. */
  expandAll: boolean;
  onDrop: (dragged: ManagedNode, target: ManagedNode, where: DropWhere) => void;
  onAction: (action: NodeAction, node: ManagedNode) => void;
  /** Absent: no context menu (and the browser's own stays). */
  onContextMenu?: (event: MouseEvent, node: ManagedNode) => void;
}

/**
 * antd Tree's drop props for a tree of ManagedNodes (also the reader's tree): nothing inside a
 * page, and rc-tree's drop reported as (dragged, target, before | after | inside).
 */
export function dropRules(
  nodeOf: (data: { key: Key }) => ManagedNode | undefined,
  onDrop: (dragged: ManagedNode, target: ManagedNode, where: DropWhere) => void,
): Pick<TreeProps, 'allowDrop' | 'onDrop'> {
  return {
    allowDrop: ({ dropNode, dropPosition }) => {
      const target = nodeOf(dropNode);
      return !!target && canDrop(target, dropPosition === 0 ? 'inside' : 'after');
    },
    onDrop: (info) => {
      const dragged = nodeOf(info.dragNode);
      const target = nodeOf(info.node);
      if (!dragged || !target) return;
      // rc-tree's dropPosition is absolute; relative to the target it is -1 before, 1 after.
      const position = info.node.pos.split('-');
      const relative = info.dropPosition - Number(position[position.length - 1]);
      const where: DropWhere = !info.dropToGap ? 'inside' : relative < 0 ? 'before' : 'after';
      onDrop(dragged, target, where);
    },
  };
}

export function ManagerTree({
  nodes,
  canEdit,
  draggable,
  expandAll,
  onDrop,
  onAction,
  onContextMenu,
}: ManagerTreeProps) {
  const { t } = useTranslation();
  // Folded rather than open keys: catalogs that appear later (added, moved in) start open.
  const [folded, setFolded] = useState<Set<string>>(new Set());

  const { treeData, byKey } = useMemo(() => {
    const byKey = new Map<string, ManagedNode>();
    walk(nodes, (node) => byKey.set(node.key, node));
    const levels = levelsByKey(nodes);
    const toData = (node: ManagedNode): DataNode => {
      const actions = nodeActions(node, levels.get(node.key)!, canEdit, t);
      return {
        key: node.key,
        // Empty catalogs get no expand arrow; pages never.
        isLeaf: node.kind === 'page' ? true : undefined,
        icon: node.kind === 'page' ? <FileTextOutlined /> : <FolderOutlined />,
        title: (
          <span
            className="quire-catalog-node"
            data-testid="catalog-node"
            data-key={node.key}
            data-kind={node.kind}
          >
            <span className="quire-catalog-node-name">{node.name}</span>
            {actions.length > 0 && (
              <span className="quire-catalog-node-actions">
                {actions.map((action) => (
                  <Tooltip key={action.key} title={action.label}>
                    <Button
                      size="small"
                      type="text"
                      danger={action.danger}
                      icon={action.icon}
                      aria-label={`${action.label}: ${node.name}`}
                      data-testid={`node-${action.key}`}
                      onClick={(event) => {
                        event.stopPropagation();
                        onAction(action.key, node);
                      }}
                    />
                  </Tooltip>
                ))}
              </span>
            )}
          </span>
        ),
        children: node.kind === 'catalog' ? node.children.map(toData) : undefined,
      };
    };
    return { treeData: nodes.map(toData), byKey };
  }, [nodes, canEdit, t, onAction]);

  const expandedKeys = useMemo(
    () => catalogKeys(nodes).filter((key) => expandAll || !folded.has(key)),
    [nodes, folded, expandAll],
  );

  const nodeOf = (data: { key: Key }) => byKey.get(String(data.key));

  const { allowDrop, onDrop: handleDrop } = dropRules(nodeOf, onDrop);

  return (
    <Tree
      className="quire-catalog-tree"
      data-testid="catalog-manager-tree"
      showIcon
      blockNode
      selectable={false}
      treeData={treeData}
      expandedKeys={expandedKeys}
      onExpand={(_keys, { node, expanded }) => {
        if (expandAll) return;
        setFolded((current) => {
          const next = new Set(current);
          if (expanded) next.delete(String(node.key));
          else next.add(String(node.key));
          return next;
        });
      }}
      draggable={draggable ? { icon: <HolderOutlined /> } : false}
      allowDrop={allowDrop}
      onDrop={handleDrop}
      onRightClick={
        onContextMenu &&
        (({ event, node }) => {
          const target = nodeOf(node);
          if (target) onContextMenu(event, target);
        })
      }
    />
  );
}
