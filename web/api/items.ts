/** Item calls of the workspace (reference accounts §9.2–§9.16). */
import type { Output } from '../../api/contracts';
import type { ItemDetail, ItemKey, ItemListEntry, ItemType, SearchResult } from './types';
import { request } from './request';

/** 0 all, -1 starred, >0 one of the user's groups. */
export const ALL_ITEMS = 0;
export const STARRED = -1;

export const myItems = (itemGroupId: number) =>
  request<ItemListEntry[]>('item/myList', { item_group_id: itemGroupId });

/** Items the user owns or manages (team binding picker). */
export const myOwnItems = () => request<ItemListEntry[]>('item/myList', { original: 1 });

export interface NewItem {
  item_type: ItemType;
  item_name: string;
  item_description: string;
  /** The custom id: the item's address (`/<custom id>`), given only at creation. */
  item_domain: string;
  password: string;
  item_group_ids?: number[];
}

export async function createItem(input: NewItem): Promise<number> {
  const data = await request<Output<'item', 'add'>>('item/add', {
    ...input,
    item_custom_id: input.item_domain,
    item_group_ids: input.item_group_ids?.length ? input.item_group_ids.join(',') : undefined,
  });
  return Number(data.item_id);
}

export interface CopyInput {
  copy_item_id: number;
  item_name: string;
  item_description: string;
  password: string;
}

export async function copyItem(input: CopyInput): Promise<number> {
  const data = await request<Output<'item', 'add'>>('item/add', { ...input });
  return Number(data.item_id);
}

export interface ItemUpdate {
  item_id: number;
  item_name: string;
  item_description: string;
  /** The custom id; leave out to keep it ('' removes it). */
  item_domain?: string;
  /** '' with is_private 1 keeps the current password. */
  password: string;
  is_private: 0 | 1;
  item_group_ids?: number[];
}

export const updateItem = (input: ItemUpdate) =>
  request<unknown>('item/update', {
    ...input,
    item_group_ids: input.item_group_ids?.length ? input.item_group_ids.join(',') : undefined,
  });

export const itemDetail = (itemId: number) =>
  request<ItemDetail>('item/detail', { item_id: itemId });

/** Search in every item the user can read (no item_id) or in one item. */
export const searchItems = (keyword: string, itemId = 0) =>
  request<SearchResult>('item/search', { keyword, item_id: itemId || undefined }, { alert: false });

export const starItem = (itemId: number) => request<unknown>('item/star', { item_id: itemId });
export const unstarItem = (itemId: number) => request<unknown>('item/unstar', { item_id: itemId });

/** The caller handles failure (alert, then reload: spec 000 §4). */
export const sortItems = (order: Record<string, number>, itemGroupId: number) =>
  request<unknown>(
    'item/sort',
    { data: JSON.stringify(order), item_group_id: itemGroupId },
    { alert: false },
  );

export const getItemKey = (itemId: number) => request<ItemKey>('item/getKey', { item_id: itemId });
export const resetItemKey = (itemId: number) =>
  request<ItemKey>('item/resetKey', { item_id: itemId });

export const archiveItem = (itemId: number, password: string) =>
  request<unknown>('item/archive', { item_id: itemId, password });

export const attornItem = (itemId: number, username: string, password: string) =>
  request<unknown>('item/attorn', { item_id: itemId, username, password });

/** SSO users confirm with the item's name instead of a password. */
export const deleteItem = (itemId: number, confirm: { password?: string; project_name?: string }) =>
  request<unknown>('item/delete', { item_id: itemId, ...confirm });

export const itemVisitPassword = (input: {
  item_id: string;
  page_id: string;
  password: string;
  captcha: string;
  captcha_id: number;
}) => request<Output<'item', 'pwd'>>('item/pwd', input, { alert: false });
