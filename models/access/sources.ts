/**
 * What the access read model (cache.ts) reads of the domains above it: live items (filled by
 * models/items), member rows (models/members) and catalog trees (models/catalogs). Every domain
 * imports access, so access cannot import them; each owner fills its port from its index.ts
 * with functions over its own collections.
 */
import type { ItemDoc } from '../items/schemas';
import { definePort } from '../platform';

export type { ItemDoc };

/**
 * ShowDoc's `member_group_id` authorities (the members domain stores them): what a member row
 * grants is the policy's question, so the policy names the numbers it compares.
 */
export const MEMBER_EDIT = 1;
export const MEMBER_ADMIN = 2;
/** ShowDoc's level of a top-level catalog (the catalogs domain stores it). */
export const TOP_LEVEL = 2;

export interface LiveItemSource {
  /** The item with this id or custom domain, unless deleted (null then, or when missing). */
  findLiveItem(by: { item_id: number } | { item_domain: string }): Promise<ItemDoc | null>;
}

/** What a member row grants: its authority and the top-level catalogs it is limited to. */
export interface MemberGrant {
  member_group_id: number;
  cat_id?: number;
  cat_ids?: number[];
}

export interface MembershipSource {
  /** One user's personal row (or null) and team rows of one item. */
  rowsOf(
    itemId: number,
    uid: number,
  ): Promise<{ personal: MemberGrant | null; teams: MemberGrant[] }>;
  /** The personal rows and team rows of these users of one item, each with its user. */
  rowsOfMany(
    itemId: number,
    uids: number[],
  ): Promise<{
    personal: Array<MemberGrant & { uid: number }>;
    teams: Array<MemberGrant & { member_uid: number }>;
  }>;
  /** Every item the user is a member of, personally or through a team, with that row's authority. */
  itemsOf(uid: number): Promise<{
    personal: Array<{ item_id: number; member_group_id: number }>;
    teams: Array<{ item_id: number; member_group_id: number }>;
  }>;
}

export interface CatalogSource {
  /** Every catalog of the item with its parent and level. */
  parentRows(
    itemId: number,
  ): Promise<Array<{ cat_id: number; parent_cat_id: number; level: number }>>;
}

export const liveItemSource = definePort<LiveItemSource>('access: live items', 'items');
export const membershipSource = definePort<MembershipSource>('access: member rows', 'members');
export const catalogSource = definePort<CatalogSource>('access: catalog trees', 'catalogs');

/**
 * The items a user is a member of (personal rows, team rows), each row's authority with it:
 * the item list and search start from these. Not kept in the read model (one query per table).
 */
export function memberItemRows(uid: number): ReturnType<MembershipSource['itemsOf']> {
  return membershipSource.use().itemsOf(uid);
}
