/** Item groups (reference accounts §9.1): the user's own groups of the item list. */
import type { ItemGroup } from './types';
import { request } from './request';

export const listGroups = () => request<ItemGroup[]>('itemGroup/getList');

/** An empty name is saved as 'default' (spec 000 §5). */
export const saveGroup = (input: { id?: number; group_name: string; item_ids: string }) =>
  request<ItemGroup>('itemGroup/save', {
    id: input.id ?? 0,
    group_name: input.group_name.trim() || 'default',
    item_ids: input.item_ids,
  });

export const deleteGroup = (id: number) => request<unknown>('itemGroup/delete', { id });

export const saveGroupOrder = (groups: { id: number; s_number: number }[]) =>
  request<unknown>('itemGroup/saveSort', { groups: JSON.stringify(groups) });
