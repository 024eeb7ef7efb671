/** The item types the workspace offers (spec 000 §1), with their icon and label keys. */
import { FileOutlined, FileTextOutlined, ProjectOutlined, TableOutlined } from '@ant-design/icons';
import type { ReactNode } from 'react';
import type { ItemType } from '../../api/types';

export const ITEM_TYPES: { value: ItemType; label: string; hint: string; icon: ReactNode }[] = [
  {
    value: '1',
    label: 'items.type.regular',
    hint: 'items.type.regularHint',
    icon: <FileTextOutlined />,
  },
  { value: '2', label: 'items.type.single', hint: 'items.type.singleHint', icon: <FileOutlined /> },
  { value: '4', label: 'items.type.table', hint: 'items.type.tableHint', icon: <TableOutlined /> },
  { value: '6', label: 'kanban.type', hint: 'kanban.typeHint', icon: <ProjectOutlined /> },
];

/** Types other than 2, 4 and 6 (0, 3, 5 from other clients) show as regular items. */
export function itemTypeOf(raw: string): (typeof ITEM_TYPES)[number] {
  return ITEM_TYPES.find((t) => t.value === raw) ?? ITEM_TYPES[0];
}

/** The address of an item: its custom id (domain) when it has one. */
export function itemPath(item: { item_id: string | number; item_domain?: string }): string {
  return `/${encodeURIComponent(item.item_domain || String(item.item_id))}`;
}
