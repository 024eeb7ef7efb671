/**
 * What can be done to a node of the catalog manager — shown as the node's buttons and in its
 * right-click menu, so both always offer the same. Editors get every action; others may only open
 * pages (spec 001 §6: editing catalogs and the context menu need item_edit).
 */
import {
  CopyOutlined,
  DeleteOutlined,
  EditOutlined,
  EyeOutlined,
  FolderAddOutlined,
  FormOutlined,
  OrderedListOutlined,
} from '@ant-design/icons';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { MAX_LEVEL, type ManagedNode } from './tree';

export type NodeAction = 'addSub' | 'edit' | 'sort' | 'copy' | 'delete' | 'open' | 'editPage';

export interface NodeActionEntry {
  key: NodeAction;
  label: string;
  icon: ReactNode;
  danger?: boolean;
}

export function nodeActions(
  node: ManagedNode,
  level: number,
  canEdit: boolean,
  t: TFunction,
): NodeActionEntry[] {
  if (node.kind === 'page')
    return [
      { key: 'open', label: t('catalogManager.openPage'), icon: <EyeOutlined /> },
      ...(canEdit
        ? [
            {
              key: 'editPage' as const,
              label: t('catalogManager.editPage'),
              icon: <FormOutlined />,
            },
          ]
        : []),
    ];
  if (!canEdit) return [];
  return [
    ...(level < MAX_LEVEL
      ? [{ key: 'addSub' as const, label: t('catalogManager.addSub'), icon: <FolderAddOutlined /> }]
      : []),
    { key: 'edit', label: t('catalogManager.edit'), icon: <EditOutlined /> },
    { key: 'sort', label: t('catalogManager.sortPages'), icon: <OrderedListOutlined /> },
    { key: 'copy', label: t('catalogManager.copyMove'), icon: <CopyOutlined /> },
    { key: 'delete', label: t('common.delete'), icon: <DeleteOutlined />, danger: true },
  ];
}
