/**
 * The project menu of `item/info` (reference pages §2): top-level catalogs with their pages and
 * sub-catalogs (three levels), plus the pages at the item root — titles only, no content.
 *
 * Built from two indexed queries (the item's catalogs, its live pages without content) and kept
 * per item until something changes it: `menu.changed`, `page.deleted` and `item.changed` on the
 * event bus drop the item's entry (with REDIS_URL the bus relays those events from other
 * processes too). A `page.saved` alone (a text edit: title, place and order unchanged, else
 * `menu.changed` follows) only marks that page stale: the next read re-reads that one row, so a
 * save in a 100,000-page item does not cost the next reader a reload of every page. What is cached is the unfiltered tree; each viewer's copy is
 * cut from it — drafts only for their author, and a catalog-restricted member gets only their
 * top-level catalogs and no root pages — so no viewer ever sees another's view.
 *
 * With a keyword the menu becomes a search result: matching pages in full (content escaped for
 * ShowDoc's clients), no catalogs; no match answers 999 "No search results", which the client
 * turns into an alert (spec 002 §8).
 */
import type { Actor, ItemAccess } from '../access';
import { byOrder, parentMap, insideRestriction, type CatalogRow, catalogRow } from './catalogs';
import {
  deepFreeze,
  errors,
  noteRead,
  perContext,
  ReadCache,
  type TracedSource,
} from '../platform';
import { escapeForClient, Page, type PageDoc } from '../pages';
import { Catalog, type CatalogDoc } from './schemas/catalog';
import { findMatchingPages } from '../search';

/** Items whose menus are kept (least recently used ones are dropped beyond this). */
const MAX_CACHED_ITEMS = 500;
/**
 * Menu rows (catalogs + pages) kept over all items, so the bound holds in bytes too: a row is
 * about 300 bytes of tree plus about 180 bytes of JSON per viewer shape kept. An item above a
 * quarter of this (125,000 rows) is rebuilt on every request instead of being kept — rebuilding
 * the menu of a 100,000-page item takes seconds of the process's time, so such an item must fit.
 */
const MAX_CACHED_MENU_ROWS = 500_000;

export type MenuPageDoc = Pick<
  PageDoc,
  | 'page_id'
  | 'author_uid'
  | 'cat_id'
  | 'page_title'
  | 'addtime'
  | 'ext_info'
  | 'is_draft'
  | 's_number'
>;

/**
 * An item's unfiltered menu rows. A class, so the cache keeps it as it is (ReadCache freezes
 * plain objects): the rows are frozen here, while the stale marks, the re-read under way and the
 * derived texts and index change in place.
 */
export class MenuSnapshot {
  /** Serialised menus by viewer shape (see `menuText`), dropped with the snapshot. */
  readonly texts = new Map<string, MenuText>();
  /** Pages saved since the rows were read: re-read (one indexed query) before the next use. */
  stale = new Set<number>();
  /** The re-read under way, shared by concurrent readers. */
  patching?: Promise<void>;
  /** Rows by catalog, built on first use by the lazy menu (menuLevels.ts), dropped on change. */
  index?: MenuIndex;
  readonly parents: Map<number, number>;
  /** Authors with drafts in the item: only their menus differ from the draft-free one. */
  readonly draftAuthors: Set<number>;
  /**
   * Bumped at each change made in place (a save marking its page stale, the re-read putting the
   * rows in): what a read trace compares, since the kept snapshot stays the same object.
   */
  version = 0;

  constructor(
    readonly catalogs: readonly CatalogDoc[],
    public pages: readonly MenuPageDoc[],
  ) {
    deepFreeze(catalogs);
    deepFreeze(pages);
    this.parents = parentMap([...catalogs]);
    this.draftAuthors = new Set(pages.filter((p) => p.is_draft).map((p) => p.author_uid));
  }
}

export interface MenuIndex {
  /** Live pages by catalog id (0 = the item's root), in menu order. */
  pagesByCat: Map<number, MenuPageDoc[]>;
  /** Catalogs by parent id (0 = top level), in menu order. */
  children: Map<number, CatalogDoc[]>;
}

/** Menu texts kept per item (one per viewer shape: restriction, own drafts); beyond, start over. */
const MAX_TEXTS_PER_ITEM = 16;

/**
 * A viewer's menu as JSON text (what `item/info` sends), with where each page object ends in it,
 * so per-viewer flags can be spliced in without serialising the menu again.
 */
export interface MenuText {
  /** UTF-8 JSON. */
  bytes: Buffer;
  /** Each page object's closing brace, as a byte offset into `bytes`. */
  pages: Array<{ page_id: number; addtime: number; author_uid: number; end: number }>;
}

const menuCache = perContext((context) => {
  const cache = new ReadCache<number, MenuSnapshot>({
    maxEntries: MAX_CACHED_ITEMS,
    maxWeight: MAX_CACHED_MENU_ROWS,
    weigh: (snapshot) => 1 + snapshot.catalogs.length + snapshot.pages.length,
  });
  const drop = ({ itemId }: { itemId: number }) => cache.drop(itemId);
  context.bus.subscribe('menu.changed', drop, { synchronous: true });
  context.bus.subscribe(
    'page.saved',
    ({ itemId, pageId }) => {
      const snapshot = cache.peek(itemId);
      // No snapshot kept: drop anyway, which voids a load that may have read the page before.
      if (!snapshot) return cache.drop(itemId);
      snapshot.stale.add(pageId);
      snapshot.version++;
      snapshot.texts.clear();
      snapshot.index = undefined;
    },
    { synchronous: true },
  );
  context.bus.subscribe('page.deleted', drop, { synchronous: true });
  context.bus.subscribe('item.changed', drop, { synchronous: true });
  return cache;
});

/** Drops an item's cached menu (the next request rebuilds it). */
export function invalidateMenu(itemId: number): void {
  menuCache().drop(itemId);
}

const MENU_PAGE_FIELDS = {
  page_id: 1,
  author_uid: 1,
  cat_id: 1,
  page_title: 1,
  addtime: 1,
  ext_info: 1,
  is_draft: 1,
  s_number: 1,
  _id: 0,
} as const;

async function loadSnapshot(itemId: number): Promise<MenuSnapshot> {
  const [catalogs, pages] = await Promise.all([
    Catalog.find({ item_id: itemId }, { _id: 0 }).lean<CatalogDoc[]>(),
    Page.find({ item_id: itemId, is_del: 0 }, MENU_PAGE_FIELDS).lean<MenuPageDoc[]>(),
  ]);
  catalogs.sort(byOrder((c) => c.cat_id));
  pages.sort(byOrder((p) => p.page_id));
  return new MenuSnapshot(catalogs, pages);
}

/** Re-reads the pages saved since the snapshot was read and puts them in place. */
async function patchSnapshot(snapshot: MenuSnapshot, itemId: number): Promise<void> {
  const ids = [...snapshot.stale];
  // Saves arriving during the read mark the new set: the caller's loop patches them next.
  snapshot.stale = new Set();
  let rows: MenuPageDoc[];
  try {
    rows = await Page.find(
      { page_id: { $in: ids }, item_id: itemId, is_del: 0 },
      MENU_PAGE_FIELDS,
    ).lean<MenuPageDoc[]>();
  } catch (error) {
    for (const id of ids) snapshot.stale.add(id);
    throw error;
  }
  const replaced = new Set(ids);
  const pages = snapshot.pages.filter((p) => !replaced.has(p.page_id));
  pages.push(...deepFreeze(rows));
  pages.sort(byOrder((p) => p.page_id));
  snapshot.pages = Object.freeze(pages);
  for (const row of rows) if (row.is_draft) snapshot.draftAuthors.add(row.author_uid);
  snapshot.version++;
  snapshot.texts.clear();
  snapshot.index = undefined;
}

/** For read traces: a snapshot's in-place changes (the cache notes which snapshot is kept). */
const SNAPSHOT_VERSIONS: TracedSource = {
  currentValue: (snapshot) => (snapshot as MenuSnapshot).version,
};

/** The item's unfiltered menu data, from the cache when fresh. Concurrent callers share one build. */
export async function snapshotOf(itemId: number): Promise<MenuSnapshot> {
  const snapshot = await menuCache().get(itemId, () => loadSnapshot(itemId));
  while (snapshot.stale.size || snapshot.patching) {
    snapshot.patching ??= patchSnapshot(snapshot, itemId).finally(() => {
      snapshot.patching = undefined;
    });
    await snapshot.patching;
  }
  noteRead(SNAPSHOT_VERSIONS, snapshot, snapshot.version);
  return snapshot;
}

/** For tests and diagnostics: whether an item's menu is cached right now. */
export function isMenuCached(itemId: number): boolean {
  return menuCache().peek(itemId) !== undefined;
}

export interface MenuPage {
  page_id: string;
  author_uid: string;
  cat_id: string;
  page_title: string;
  addtime: string;
  ext_info: string;
  is_draft: string;
}

export type MenuCatalog = CatalogRow & { pages: MenuPage[]; catalogs: MenuCatalog[] };

/** A full page row (keyword mode), every column a string, content escaped as ShowDoc served it. */
export interface MenuSearchPage extends MenuPage {
  author_username: string;
  item_id: string;
  page_content: string;
  page_comments: string;
  s_number: string;
  page_addtime: string;
  is_del: string;
}

export interface Menu {
  pages: MenuPage[] | MenuSearchPage[];
  catalogs: MenuCatalog[];
}

export function menuPage(p: MenuPageDoc): MenuPage {
  return {
    page_id: String(p.page_id),
    author_uid: String(p.author_uid),
    cat_id: String(p.cat_id),
    page_title: p.page_title,
    addtime: String(p.addtime),
    ext_info: p.ext_info ?? '',
    is_draft: String(p.is_draft ?? 0),
  };
}

export function draftVisible(
  actor: Actor,
  page: Pick<PageDoc, 'is_draft' | 'author_uid'>,
): boolean {
  return !page.is_draft || (actor.uid > 0 && page.author_uid === actor.uid);
}

export interface MenuOptions {
  /** Search mode: pages whose title or content contains this (case-insensitive). */
  keyword?: string;
}

/**
 * The menu as this viewer may see it. `access` is the viewer's access to the item (from
 * models/access.ts itemAccess/requireItem, visit already checked by the caller).
 */
export async function buildMenu(
  access: ItemAccess,
  actor: Actor,
  options: MenuOptions = {},
): Promise<Menu> {
  const itemId = access.item.item_id;
  const keyword = options.keyword?.trim() ?? '';
  if (keyword) return searchMenu(access, actor, keyword);

  return viewerMenu(await snapshotOf(itemId), access, actor);
}

/** The viewer's cut of the unfiltered tree (drafts only for their author, the restriction). */
function viewerMenu(snapshot: MenuSnapshot, access: ItemAccess, actor: Actor): Menu {
  const pagesByCat = new Map<number, MenuPage[]>();
  for (const page of snapshot.pages) {
    if (!draftVisible(actor, page)) continue;
    const list = pagesByCat.get(page.cat_id);
    if (list) list.push(menuPage(page));
    else pagesByCat.set(page.cat_id, [menuPage(page)]);
  }
  const children = new Map<number, CatalogDoc[]>();
  for (const cat of snapshot.catalogs) {
    const list = children.get(cat.parent_cat_id);
    if (list) list.push(cat);
    else children.set(cat.parent_cat_id, [cat]);
  }
  const seen = new Set<number>();
  const subtree = (cat: CatalogDoc): MenuCatalog => {
    seen.add(cat.cat_id);
    return {
      ...catalogRow(cat),
      pages: pagesByCat.get(cat.cat_id) ?? [],
      catalogs: (children.get(cat.cat_id) ?? []).filter((c) => !seen.has(c.cat_id)).map(subtree),
    };
  };
  const restriction = access.catalogRestriction;
  const tops = (children.get(0) ?? []).filter(
    (c) => !restriction || restriction.includes(c.cat_id),
  );
  return {
    pages: restriction ? [] : (pagesByCat.get(0) ?? []),
    catalogs: tops.map(subtree),
  };
}

/**
 * The menu as this viewer may see it, as JSON text (the same text JSON.stringify gives for
 * `buildMenu`), built once per item and viewer shape and kept until the item's menu changes.
 */
export async function menuText(access: ItemAccess, actor: Actor): Promise<MenuText> {
  const snapshot = await snapshotOf(access.item.item_id);
  const ownDrafts = actor.uid > 0 && snapshot.draftAuthors.has(actor.uid) ? actor.uid : 0;
  const shape = `${access.catalogRestriction?.join(',') ?? '*'}|${ownDrafts}`;
  let text = snapshot.texts.get(shape);
  if (!text) {
    if (snapshot.texts.size >= MAX_TEXTS_PER_ITEM) snapshot.texts.clear();
    text = serialiseMenu(viewerMenu(snapshot, access, actor));
    snapshot.texts.set(shape, text);
  }
  return text;
}

export function serialiseMenu(menu: Menu): MenuText {
  const pages: MenuText['pages'] = [];
  const parts: string[] = [];
  let length = 0; // bytes written so far
  const write = (piece: string) => {
    parts.push(piece);
    length += Buffer.byteLength(piece, 'utf8');
  };
  const writePages = (list: MenuPage[]) => {
    write('[');
    list.forEach((page, i) => {
      if (i) write(',');
      write(JSON.stringify(page));
      pages.push({
        page_id: Number(page.page_id),
        addtime: Number(page.addtime),
        author_uid: Number(page.author_uid),
        end: length - 1,
      });
    });
    write(']');
  };
  const writeCatalogs = (list: MenuCatalog[]) => {
    write('[');
    list.forEach((catalog, i) => {
      if (i) write(',');
      const { pages: own, catalogs: children, ...row } = catalog;
      const head = JSON.stringify(row);
      write(`${head.slice(0, -1)}${head.length > 2 ? ',' : ''}"pages":`);
      writePages(own);
      write(',"catalogs":');
      writeCatalogs(children);
      write('}');
    });
    write(']');
  };
  write('{"pages":');
  writePages(menu.pages as MenuPage[]);
  write(',"catalogs":');
  writeCatalogs(menu.catalogs);
  write('}');
  return { bytes: Buffer.from(parts.join(''), 'utf8'), pages };
}

const READ_CHANGED = Buffer.from(',"read_changed":1', 'utf8');

/** The menu with `"read_changed":1` added to the given pages (as ReadFlagged rows carry it). */
export function flagMenuPages(menu: MenuText, flagged: Set<number>): Buffer {
  if (!flagged.size) return menu.bytes;
  const ends = menu.pages
    .filter((p) => flagged.has(p.page_id))
    .map((p) => p.end)
    .sort((a, b) => a - b);
  const chunks: Buffer[] = [];
  let from = 0;
  for (const end of ends) {
    chunks.push(menu.bytes.subarray(from, end), READ_CHANGED);
    from = end;
  }
  chunks.push(menu.bytes.subarray(from));
  return Buffer.concat(chunks);
}

async function searchMenu(access: ItemAccess, actor: Actor, keyword: string): Promise<Menu> {
  const itemId = access.item.item_id;
  const [snapshot, found] = await Promise.all([
    snapshotOf(itemId),
    findMatchingPages([itemId], keyword),
  ]);
  const pages = found
    .filter((p) => draftVisible(actor, p) && insideRestriction(access, p.cat_id, snapshot.parents))
    .sort(byOrder((p) => p.page_id))
    .map((p) => ({
      ...menuPage(p),
      author_username: p.author_username,
      item_id: String(p.item_id),
      page_content: escapeForClient(p.page_content),
      page_comments: p.page_comments ?? '',
      s_number: String(p.s_number),
      page_addtime: String(p.page_addtime ?? 0),
      is_del: String(p.is_del),
    }));
  if (!pages.length) throw errors.noSearchResults('No search results');
  return { pages, catalogs: [] };
}

export interface DefaultCatalogs {
  default_cat_id2: number;
  default_cat_id3: number;
  default_cat_id4: number;
}

/**
 * The catalogs to expand for `default_page_id`, slotted exactly as ShowDoc 3.9's item/info does:
 * it walks up at most two parents from the page's catalog and shifts a short chain left, so a
 * top-level catalog lands in `default_cat_id3`, a two-level chain in 2 and 4 (3 left 0), and a
 * deeper one gives the last three catalogs. All 0 for a root page, an unknown page, or one the
 * viewer may not see.
 */
export async function defaultCatalogs(
  access: ItemAccess,
  actor: Actor,
  pageId: number,
): Promise<DefaultCatalogs> {
  const none = { default_cat_id2: 0, default_cat_id3: 0, default_cat_id4: 0 };
  if (!(pageId > 0)) return none;
  const snapshot = await snapshotOf(access.item.item_id);
  const page = snapshot.pages.find((p) => p.page_id === pageId);
  if (
    !page ||
    !page.cat_id ||
    !draftVisible(actor, page) ||
    !insideRestriction(access, page.cat_id, snapshot.parents)
  )
    return none;
  const chain: number[] = [];
  for (
    let id = page.cat_id;
    id > 0 && chain.length < 8 && !chain.includes(id);
    id = snapshot.parents.get(id) ?? 0
  )
    chain.unshift(id);
  const [a = 0, b = 0, c = 0] = chain.slice(-3);
  if (chain.length === 1) return { default_cat_id2: 0, default_cat_id3: a, default_cat_id4: 0 };
  if (chain.length === 2) return { default_cat_id2: a, default_cat_id3: 0, default_cat_id4: b };
  return { default_cat_id2: a, default_cat_id3: b, default_cat_id4: c };
}
