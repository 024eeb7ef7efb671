/** `page`, `pageHistory`, `catalog` (reference pages §2–§4): reading and writing pages. */
import { z } from 'zod';
import { PageAttachment } from './attachment';
import { action, bool, id, int, maybeId, maybeInt, maybeStr, nothing, raw, str } from './coerce';

export const MenuPage = z.object({
  page_id: z.string(),
  author_uid: z.string(),
  cat_id: z.string(),
  page_title: z.string(),
  addtime: z.string(),
  ext_info: z.string().optional(),
  is_draft: z.string().optional(),
  /** 1: changed since the viewer last read it (Quire's read markers, logged-in viewers). */
  read_changed: z.number().optional(),
});

export interface MenuCatalogShape {
  cat_id: string;
  cat_name: string;
  parent_cat_id: string;
  level: string;
  pages: z.output<typeof MenuPage>[];
  /** Missing on old ShowDoc servers when empty. */
  catalogs?: MenuCatalogShape[];
  /** Quire's lazy menu: pages and sub-catalogs left out, ask catalog/menuChildren for them. */
  lazy?: 1;
}

export const MenuCatalog: z.ZodType<MenuCatalogShape> = z.object({
  cat_id: z.string(),
  cat_name: z.string(),
  parent_cat_id: z.string(),
  level: z.string(),
  pages: z.array(MenuPage),
  get catalogs() {
    return z.array(MenuCatalog).optional();
  },
  lazy: z.literal(1).optional(),
});

export const Menu = z.object({ pages: z.array(MenuPage), catalogs: z.array(MenuCatalog) });

export const PageInfo = z.object({
  page_id: z.string(),
  item_id: z.string(),
  cat_id: z.string(),
  page_title: z.string(),
  /** HTML-escaped: un-escape once before use. */
  page_content: z.string(),
  author_uid: z.string(),
  author_username: z.string(),
  addtime: z.string(),
  page_addtime: z.string(),
  page_comments: z.string(),
  attachment_count: z.number(),
  /** The active single-page share key, or ''. */
  unique_key: z.string(),
  /** `addtime` in Unix seconds (Quire: the version the reader reports as read). */
  addtime_unix: z.number().optional(),
  /** Open suggestions on the page (Quire's suggest mode). */
  suggestion_count: z.number().optional(),
});

/** `page/infoByKey`: a shared page, without its place in the item. */
export const SharedPage = z.object({
  page_id: z.string(),
  page_title: z.string(),
  page_content: z.string(),
  author_username: z.string(),
  addtime: z.string(),
  attachment_count: z.number(),
  expire_time: z.number(),
});

export const HistoryEntry = z.object({
  page_history_id: z.string(),
  page_id: z.string(),
  page_title: z.string(),
  page_content: z.string(),
  page_comments: z.string(),
  addtime: z.string(),
  author_username: z.string(),
});

export interface CatalogGroupShape {
  cat_id: string;
  cat_name: string;
  sub?: CatalogGroupShape[];
}

export const CatalogGroup: z.ZodType<CatalogGroupShape> = z.object({
  cat_id: z.string(),
  cat_name: z.string(),
  get sub() {
    return z.array(CatalogGroup).optional();
  },
});

/** A catalog row (catList; catListName with `cat_name` the slash path 'Top/Child'). */
export const CatalogRow = z.object({
  cat_id: z.string(),
  cat_name: z.string(),
  item_id: z.string(),
  s_number: z.string(),
  addtime: z.string(),
  parent_cat_id: z.string(),
  level: z.string(),
});

/** `getPagesBycat`: a catalog's pages in menu order. */
export const CatalogPage = z.object({
  page_id: z.string(),
  page_title: z.string(),
  s_number: z.string(),
});

export const pageContract = {
  info: action({ page_id: id(), with_path: bool() }, PageInfo),
  infoByKey: action({ unique_key: str() }, SharedPage),
  save: action(
    {
      page_id: id(),
      item_id: id(),
      page_title: str(),
      page_content: str(),
      page_comments: str(),
      is_urlencode: bool(),
      is_notify: bool(),
      notify_content: str(),
      // Absent: the page keeps its catalog, order, extra info and custom id.
      cat_id: maybeId(),
      s_number: maybeInt(),
      is_draft: int(-1),
      ext_info: maybeStr(),
      page_custom_id: maybeStr(),
    },
    z.looseObject({ page_id: z.union([z.number(), z.string()]) }),
  ),
  delete: action({ page_id: id() }, nothing),
  createSinglePage: action(
    { page_id: id(), isCreateSiglePage: str(), expire_days: int() },
    z.union([z.looseObject({ unique_key: z.string() }), nothing]),
  ),
  getPageID: action(
    { page_id: id(), item_id: id(), page_custom_id: str() },
    z.object({ page_id: z.string(), page_custom_id: z.string() }),
  ),
  sort: action({ item_id: id(), pages: raw() }, z.unknown()),
  sqlToMarkdownTable: action({ sql: str() }, z.object({ markdown: z.string() })),
  isLock: action(
    { page_id: id(), item_id: id() },
    z.object({
      /** 1 while someone holds the page's lock. */
      lock: z.number(),
      is_cur_user: z.number(),
      lock_uid: z.string(),
      lock_username: z.string(),
      /** The item's page quota is used up (a new page cannot be made). */
      exceed: z.number(),
    }),
  ),
  setLock: action({ page_id: id(), item_id: id(), lock_to: maybeInt() }, z.unknown()),
  uploadList: action({ page_id: id() }, z.array(PageAttachment)),
  deleteUploadFile: action({ file_id: id(), page_id: id() }, nothing),
};

export const pageHistoryContract = {
  history: action({ page_id: id() }, z.array(HistoryEntry)),
  updateHistoryComments: action(
    { page_id: id(), page_history_id: id(), page_comments: str() },
    z.object({ success: z.boolean() }),
  ),
  /** The page and one kept version, times as raw Unix seconds, contents escaped. */
  diff: action(
    { page_id: id(), page_history_id: id() },
    z.object({
      page: z.looseObject({
        page_id: z.string(),
        page_title: z.string(),
        page_content: z.string(),
        addtime: z.string(),
        author_username: z.string(),
      }),
      history_page: HistoryEntry,
    }),
  ),
};

export const catalogContract = {
  catList: action({ item_id: id() }, z.array(CatalogRow)),
  catListGroup: action({ item_id: id() }, z.array(CatalogGroup)),
  catListName: action({ item_id: id() }, z.array(CatalogRow)),
  getPagesBycat: action({ item_id: id(), cat_id: id() }, z.array(CatalogPage)),
  /** Quire's reader: one level of the lazy menu (cat_id 0 = the top level). */
  menuChildren: action({ item_id: id(), cat_id: id() }, Menu),
  save: action(
    { item_id: id(), cat_id: id(), cat_name: str(), parent_cat_id: maybeId(), s_number: int() },
    z.number(),
  ),
  delete: action({ cat_id: id() }, z.object({ success: z.boolean() })),
  batUpdate: action(
    {
      item_id: id(),
      cats: raw(),
      dragged_id: id(),
      dragged_title: str(),
      dragged_type: str(),
    },
    nothing,
  ),
  copy: action(
    { cat_id: id(), new_p_cat_id: id(), to_item_id: id(), is_del: bool() },
    z.looseObject({}),
  ),
};
