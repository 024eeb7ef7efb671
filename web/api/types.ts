/**
 * The shapes the web app reads from the API (reference accounts §7, §9), as the declared REST
 * contract (api/contracts/) says they are: the server validates its answers against the same
 * schemas in test/api/contracts.test.ts. ShowDoc emits most row fields as strings and computed
 * fields as numbers; code that compares ids converts with Number()/String() explicitly.
 *
 * Type-only: zod and the schemas stay out of the bundle.
 */
import type { z } from 'zod';
import type * as contract from '../../api/contracts';

/** The login / registration answer: what is stored in localStorage `userinfo`. */
export type LoginData = z.output<typeof contract.LoginData>;
export type UserInfo = z.output<typeof contract.UserInfo>;
export type HomePageSetting = z.output<typeof contract.HomePageSetting>;
export type OauthInfo = z.output<typeof contract.OauthInfo>;
export type UserOption = z.output<typeof contract.UserOption>;

/** Item types the workspace creates: 1 regular, 2 single page, 4 table (spreadsheet), 6 kanban. */
export type ItemType = '1' | '2' | '4' | '6';

export type ItemListEntry = z.output<typeof contract.ItemListEntry>;
export type ItemDetail = z.output<typeof contract.ItemDetail>;
export type SearchPage = z.output<typeof contract.SearchPage>;
export type SearchAttachment = z.output<typeof contract.SearchAttachment>;
export type SearchResult = z.output<typeof contract.SearchResult>;
export type ItemKey = z.output<typeof contract.ItemKey>;
export type ItemGroup = z.output<typeof contract.ItemGroup>;
export type RecycleEntry = z.output<typeof contract.RecycleEntry>;
export type Team = z.output<typeof contract.Team>;
export type TeamMember = z.output<typeof contract.TeamMember>;
export type TeamItem = z.output<typeof contract.TeamItem>;
export type TeamItemMember = z.output<typeof contract.TeamItemMember>;
export type ItemMember = z.output<typeof contract.ItemMember>;
export type CatalogGroup = z.output<typeof contract.CatalogGroup>;
export type Attachment = z.output<typeof contract.Attachment>;
export type AttachmentList = z.output<typeof contract.AttachmentList>;
export type PageRef = z.output<typeof contract.PageRef>;
export type RemindMessage = z.output<typeof contract.RemindMessage>;
export type Announcement = z.output<typeof contract.Announcement>;

export interface Paged<T> {
  list: T[];
  total: number;
}

/** `getUnread`: each field is `[]` when there is nothing, else the newest unread notice. */
export type UnreadAnswer = z.output<typeof contract.UnreadAnswer>;
