/** An item's personal members and catalogs (reference accounts §9.17, pages §4). */
import type { Output } from '../../api/contracts';
import type { CatalogGroup, ItemMember } from './types';
import { request } from './request';

export const listMembers = (itemId: number) =>
  request<ItemMember[]>('member/getList', { item_id: itemId });

/** Adds several users at once; `cat_id` 0 = all catalogs. */
export const addMembers = (input: {
  item_id: number;
  usernames: string[];
  member_group_id: number;
  cat_id: number;
}) =>
  request<Output<'member', 'save'>>('member/save', {
    item_id: input.item_id,
    username: input.usernames.join(','),
    member_group_id: input.member_group_id,
    cat_id: input.cat_id,
    cat_ids: input.cat_id > 0 ? String(input.cat_id) : '',
  });

export const removeMember = (itemId: number, itemMemberId: number) =>
  request<unknown>('member/delete', { item_id: itemId, item_member_id: itemMemberId });

/** Top-level catalogs of an item, for the catalog restriction. */
export const catalogGroups = (itemId: number) =>
  request<CatalogGroup[]>('catalog/catListGroup', { item_id: itemId });
