/**
 * What the reader reads from the API (reference pages §2, §3.1–§3.3, §3.6): ShowDoc's shapes,
 * row columns as strings and computed values as numbers/booleans.
 */
export interface MenuPage {
  page_id: string;
  author_uid: string;
  cat_id: string;
  page_title: string;
  addtime: string;
  ext_info?: string;
  is_draft?: string;
}

export interface MenuCatalog {
  cat_id: string;
  cat_name: string;
  parent_cat_id: string;
  level: string;
  pages: MenuPage[];
  /** Missing on old ShowDoc servers when empty. */
  catalogs?: MenuCatalog[];
}

export interface Menu {
  pages: MenuPage[];
  catalogs: MenuCatalog[];
}

export interface ItemInfo {
  item_id: string;
  item_domain: string;
  item_name: string;
  /** 0/1 regular, 2 single page, 3 RunApi (read-only here), 4 spreadsheet */
  item_type: string;
  is_archived: string;
  default_page_id: string;
  menu: Menu;
  is_login: boolean;
  item_edit: boolean;
  item_manage: boolean;
  unread_count: number;
  global_param: { query?: unknown; body?: unknown; header?: unknown } | unknown[];
  show_watermark: number;
  /** '1' when readers may comment on pages / give feedback. */
  allow_comment?: string;
  allow_feedback?: string;
}

export interface PageInfo {
  page_id: string;
  item_id: string;
  cat_id: string;
  page_title: string;
  /** HTML-escaped: un-escape once before use. */
  page_content: string;
  author_uid: string;
  author_username: string;
  addtime: string;
  page_addtime: string;
  page_comments: string;
  attachment_count: number;
  /** The active single-page share key, or ''. */
  unique_key: string;
}

/** `page/infoByKey`: a shared page, without its place in the item. */
export interface SharedPage {
  page_id: string;
  page_title: string;
  page_content: string;
  author_username: string;
  addtime: string;
  attachment_count: number;
  expire_time: number;
}

export interface HistoryEntry {
  page_history_id: string;
  page_id: string;
  page_title: string;
  page_content: string;
  page_comments: string;
  addtime: string;
  author_username: string;
}

export interface PageAttachment {
  file_id: number | string;
  display_name: string;
  url: string;
  addtime: string;
  file_type: string;
}

export interface ChangeLogEntry {
  id: string;
  optime: string;
  oper: string;
  op_action_type: string;
  op_action_type_desc?: string;
  op_object_type: string;
  op_object_type_desc?: string;
  op_object_name: string;
  op_object_id: string;
}
