/**
 * The shapes the web app reads from the API (reference accounts §7, §9). ShowDoc emits most row
 * fields as strings and computed fields as numbers; the types say which, and code that compares
 * ids converts with Number()/String() explicitly.
 */

/** The login / registration answer: what is stored in localStorage `userinfo`. */
export interface LoginData {
  uid: string;
  username: string;
  name: string;
  groupid: string;
  avatar?: string;
  email?: string;
  user_token: string;
}

export interface UserInfo {
  uid: string;
  username: string;
  name: string;
  groupid: string;
  email?: string;
  reg_time?: string;
  is_sso?: string;
}

export interface HomePageSetting {
  home_page: string;
  home_item: string;
  beian: string;
  register_open: number;
  is_show_ai?: number;
}

export interface OauthInfo {
  oauth2_open: string | number | null;
  oauth2_entrance_tips: string;
}

export interface UserOption {
  username: string;
  uid: string;
  name: string | null;
}

/** Item types the workspace creates: 1 regular, 2 single page, 4 table (spreadsheet). */
export type ItemType = '1' | '2' | '4';

export interface ItemListEntry {
  item_id: string;
  uid: string;
  item_name: string;
  item_domain: string;
  item_type: string;
  item_description: string;
  last_update_time: string;
  creator: number;
  manage: number;
  is_private: number;
  is_star: number;
  is_archived?: string;
  top?: number;
}

export interface ItemDetail {
  item_id: string;
  item_name: string;
  item_description: string;
  item_domain: string;
  item_type: string;
  is_private: number;
  is_archived?: string;
  group_ids: number[];
}

export interface SearchPage {
  page_id: string;
  item_id: number;
  item_name: string;
  page_title: string;
  search_content: string;
}

export interface SearchResult {
  item_id: number;
  item_name: string;
  pages: SearchPage[];
}

export interface ItemKey {
  api_key: string;
  api_token: string;
}

export interface ItemGroup {
  id: string;
  group_name: string;
  item_ids: string;
  s_number: string;
}

export interface RecycleEntry {
  page_id: string;
  page_title: string;
  del_by_username: string;
  del_time: string;
}

export interface Team {
  id: string;
  team_name: string;
  memberCount: number;
  itemCount: number;
  team_manage: number;
  addtime: string;
  username?: string;
}

export interface TeamMember {
  id: string;
  team_id: string;
  member_username: string;
  team_member_group_id: string;
  name: string | null;
  addtime: string;
}

export interface TeamItem {
  id: string;
  team_id: string;
  item_id: string;
  item_name: string;
  team_name?: string;
  addtime: string;
}

export interface TeamItemMember {
  id: string;
  member_username: string;
  member_group_id: string;
  cat_id: string;
  cat_ids?: number[];
  cat_name?: string;
  name?: string | null;
  item_id: string;
  addtime: string;
}

export interface ItemMember {
  item_member_id: string;
  username: string;
  name: string | null;
  member_group_id: string;
  cat_id: string;
  cat_name?: string;
  addtime: string;
}

export interface CatalogGroup {
  cat_id: string;
  cat_name: string;
  sub?: CatalogGroup[];
}

export interface Attachment {
  file_id: number | string;
  display_name: string;
  file_type: string;
  file_size_m: number | string;
  /** Bytes (Quire and ShowDoc send it; older servers may not). */
  file_size?: number | string;
  visit_times: number | string;
  addtime: string;
  url: string;
}

export interface AttachmentList {
  list: Attachment[];
  total: number | string;
  used_m: number | string;
  used_flow_m: number | string;
}

export interface PageRef {
  item_id: string | number;
  page_id: string | number;
  page_title: string;
}

export interface RemindMessage {
  id?: string;
  from_uid: string;
  from_name?: string;
  message_content_id: string;
  message_content?: string;
  addtime: string;
  status: string | number;
  action_type?: string;
  object_type?: string;
  page_data?: PageRef;
}

export interface Announcement {
  message_content_id: string;
  from_uid?: string;
  from_name?: string;
  message_content: string;
  addtime: string;
  status: string | number;
}

export interface Paged<T> {
  list: T[];
  total: number;
}

/** `getUnread`: each field is `[]` when there is nothing, else the newest unread notice. */
export interface UnreadAnswer {
  remind: RemindMessage | unknown[];
  announce: Announcement | unknown[];
}
