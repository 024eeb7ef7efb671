/** `item`, `itemGroup`, `recycle` (reference accounts §9): the item list, an item's settings. */
import { z } from 'zod';
import {
  action,
  bool,
  ID_SELECTORS,
  id,
  int,
  list,
  maybeBool,
  maybeInt,
  maybeStr,
  nothing,
  raw,
  str,
} from './coerce';
import { Menu } from './page';

export const success = z.object({ success: z.boolean() });

export const ItemListEntry = z.object({
  item_id: z.string(),
  uid: z.string(),
  item_name: z.string(),
  item_domain: z.string(),
  item_type: z.string(),
  item_description: z.string(),
  last_update_time: z.string(),
  creator: z.number(),
  manage: z.number(),
  is_private: z.number(),
  is_star: z.number(),
  is_archived: z.string().optional(),
  top: z.number().optional(),
});

export const ItemDetail = z.object({
  item_id: z.string(),
  item_name: z.string(),
  item_description: z.string(),
  item_domain: z.string(),
  item_type: z.string(),
  is_private: z.number(),
  is_archived: z.string().optional(),
  group_ids: z.array(z.number()),
  /** '1': suggest mode (read-only members propose; agents' edits become suggestions). */
  suggest_only_readers: z.string().optional(),
});

export const ItemInfo = z.object({
  item_id: z.string(),
  item_domain: z.string(),
  item_name: z.string(),
  /** 0/1 regular, 2 single page, 3 RunApi (read-only here), 4 spreadsheet */
  item_type: z.string(),
  is_archived: z.string(),
  default_page_id: z.string(),
  menu: Menu,
  is_login: z.boolean(),
  item_edit: z.boolean(),
  item_manage: z.boolean(),
  /** Quire: may propose changes to pages (suggest mode). */
  item_suggest: z.boolean().optional(),
  unread_count: z.number(),
  global_param: z.union([
    z.object({ query: z.unknown(), body: z.unknown(), header: z.unknown() }).partial(),
    z.array(z.unknown()),
  ]),
  show_watermark: z.number(),
  /** '1' when readers may comment on pages / give feedback. */
  allow_comment: z.string().optional(),
  allow_feedback: z.string().optional(),
  /** Pages changed since the viewer last read them (logged-in viewers; Quire's read markers). */
  changed_pages: z.number().optional(),
  /** The item's "Ask the docs" settings (the reader shows its Ask button by them). */
  ai_config: z
    .object({ enabled: z.number(), guest_enabled: z.number(), welcome_message: z.string() })
    .partial()
    .optional(),
  /** 1 when some page carries an API contract change mark: the reader then asks for marks. */
  api_contract_marks: z.number().optional(),
});

export const ItemKey = z.object({ api_key: z.string(), api_token: z.string() });

export const ItemGroup = z.object({
  id: z.string(),
  group_name: z.string(),
  item_ids: z.string(),
  s_number: z.string(),
});

const Ranges = z.array(z.tuple([z.number(), z.number()]));

export const SearchPage = z.object({
  page_id: z.string(),
  item_id: z.number(),
  item_name: z.string(),
  page_title: z.string(),
  search_content: z.string(),
  /** Quire's ranked search: plain-text snippet around the best match, ranges to highlight. */
  snippet: z.string().optional(),
  highlights: Ranges.optional(),
  title_highlights: Ranges.optional(),
  score: z.number().optional(),
});

export const SearchAttachment = z.object({
  type: z.literal('attachment'),
  file_id: z.number(),
  display_name: z.string(),
  url: z.string(),
  item_id: z.number(),
  item_name: z.string(),
  page_id: z.number(),
  page_title: z.string(),
  score: z.number(),
  snippet: z.string(),
  highlights: Ranges,
  addtime: z.number(),
});

export const SearchResult = z.object({
  item_id: z.number(),
  item_name: z.string(),
  pages: z.array(SearchPage),
  attachments: z.array(SearchAttachment).optional(),
});

export const RecycleEntry = z.object({
  page_id: z.string(),
  page_title: z.string(),
  del_by_username: z.string(),
  del_time: z.string(),
});

export const ChangeLogEntry = z.object({
  id: z.string(),
  optime: z.string(),
  oper: z.string(),
  op_action_type: z.string(),
  op_action_type_desc: z.string().optional(),
  op_object_type: z.string(),
  op_object_type_desc: z.string().optional(),
  op_object_name: z.string(),
  op_object_id: z.union([z.string(), z.number()]),
});

const itemId = { item_id: id() };
const itemFields = {
  item_name: str(),
  item_description: str(),
  item_domain: str(),
  item_custom_id: str(),
  password: str(),
  item_group_ids: list(),
  item_group_id: id(0, ID_SELECTORS.item_group_id),
};

export const itemContract = {
  add: action(
    {
      ...itemFields,
      copy_item_id: id(),
      item_type: int(1),
      allow_comment: bool(),
      allow_feedback: bool(),
    },
    z.object({ item_id: z.union([z.number(), z.string()]) }),
  ),
  /** Only the fields sent change (absent: `undefined`), the groups when some are given. */
  update: action(
    {
      ...itemId,
      ...itemFields,
      item_name: maybeStr(),
      item_description: maybeStr(),
      item_domain: maybeStr(),
      password: maybeStr(),
      is_private: maybeBool(),
      allow_comment: maybeBool(),
      allow_feedback: maybeBool(),
      co_edit: maybeBool(),
      suggest_only_readers: maybeBool(),
    },
    success,
  ),
  detail: action(itemId, ItemDetail),
  info: action(
    {
      item_id: str(),
      item_domain: str(),
      // The reader's route part: a page id or a custom page id (api/routes/item.ts routePageId).
      page_id: str(),
      default_page_id: str(),
      keyword: str(),
      // Quire's reader: the lazy menu of a big item (models/catalogs/menuLevels.ts).
      lazy_menu: str(),
    },
    ItemInfo,
  ),
  /** The visit-password screen; the captcha comes from common/showCaptcha. */
  pwd: action(
    {
      item_id: str(),
      page_id: str(),
      password: str(),
      captcha_id: id(),
      captcha: str(),
      refer_url: str(),
    },
    z.object({ refer_url: z.string() }),
  ),
  getItemId: action(
    { item_id: str(), item_domain: str(), item_custom_id: str() },
    z.object({ item_id: z.union([z.number(), z.string()]) }),
  ),
  getKey: action(itemId, ItemKey),
  resetKey: action(itemId, ItemKey),
  archive: action({ ...itemId, password: str() }, success),
  attorn: action({ ...itemId, username: str(), password: str() }, z.unknown()),
  delete: action({ ...itemId, password: str(), project_name: str() }, success),
  /** The item's "Ask the docs" settings (ShowDoc's item_ai_config row). */
  getAiConfig: action(
    itemId,
    z.object({
      enabled: z.number(),
      dialog_collapsed: z.number(),
      guest_enabled: z.number(),
      welcome_message: z.string(),
      system_prompt: z.string(),
    }),
  ),
  /** Only the settings sent change (ShowDoc: `getParam(…, null) !== null`). */
  setAiConfig: action(
    {
      ...itemId,
      enabled: maybeInt(),
      dialog_collapsed: maybeInt(),
      welcome_message: maybeStr(),
      system_prompt: maybeStr(),
      guest_enabled: maybeInt(),
    },
    z.object({ success: z.literal(true) }),
  ),
  getChangeLog: action(
    { ...itemId, page: int(1), count: int(15) },
    z.object({ list: z.array(ChangeLogEntry), total: z.number() }),
  ),
  myList: action(
    { item_group_id: id(0, ID_SELECTORS.item_group_id), original: int() },
    z.array(ItemListEntry),
  ),
  star: action(itemId, z.unknown()),
  unstar: action(itemId, nothing),
  sort: action({ item_group_id: id(0, ID_SELECTORS.item_group_id), data: raw() }, nothing),
  top: action({ ...itemId, action: str() }, nothing),
  exitItem: action(itemId, nothing),
  itemList: action({}, z.array(z.object({ item_id: z.string(), item_name: z.string() }))),
  search: action({ keyword: str(), item_id: str(), skip_code: bool() }, SearchResult),
};

export const itemGroupContract = {
  getList: action({}, z.array(ItemGroup)),
  save: action({ id: id(), group_name: str(), item_ids: str() }, z.unknown()),
  delete: action({ id: id() }, success),
  saveSort: action({ groups: raw() }, nothing),
};

export const recycleContract = {
  getList: action(itemId, z.array(RecycleEntry)),
  recover: action({ ...itemId, page_id: id() }, nothing),
};

/** Template ids and item lists travel as comma lists or arrays. */
export const templateContract = {
  save: action({ template_title: str(), template_content: str() }, z.object({ id: z.number() })),
  getMyList: action({}, z.array(z.looseObject({ id: z.string(), template_title: z.string() }))),
  getList: action({}, z.array(z.looseObject({ id: z.string(), template_title: z.string() }))),
  getItemList: action(
    itemId,
    z.array(z.looseObject({ id: z.string(), template_title: z.string() })),
  ),
  delete: action({ id: id() }, z.unknown()),
  shareToItem: action({ template_id: id(), item_id: raw() }, z.unknown()),
  getShareItemList: action({ template_id: id() }, z.array(z.looseObject({}))),
};
