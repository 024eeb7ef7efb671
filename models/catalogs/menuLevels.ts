/**
 * The lazy menu of Quire's reader, for items too big to send whole: `item/info` with `lazy_menu`
 * answers the top level (root pages, top-level catalogs) and the catalogs on the way to the page
 * being opened; every other catalog comes with `lazy: 1` and empty lists, and its level is
 * fetched when the reader expands it (`catalog/menuChildren`). ShowDoc's clients never ask for
 * it and keep getting the whole menu (menu.ts).
 *
 * Both are cut from the same cached snapshot as the whole menu, with the same rules: drafts only
 * for their author, and a catalog-restricted member sees only their top-level catalogs (and what
 * lies inside them) and no root pages — asking for any other catalog answers as if it did not
 * exist. Items below LAZY_MENU_MIN_ROWS get the whole menu anyway: one answer is then cheaper
 * than a request per expanded catalog.
 */
import { type Actor, type ItemAccess, requireAction } from '../access';
import { errors } from '../platform';
import { getSiteSettings } from '../settings';
import { catalogRow, insideRestriction } from './catalogs';
import {
  draftVisible,
  type Menu,
  type MenuCatalog,
  type MenuIndex,
  menuPage,
  type MenuSnapshot,
  menuText,
  type MenuText,
  serialiseMenu,
  snapshotOf,
} from './menu';
import type { CatalogDoc } from './schemas/catalog';

/** Catalogs + pages from which the reader gets the lazy menu. */
export const LAZY_MENU_MIN_ROWS = 2000;

/** A catalog whose pages and sub-catalogs are left out: the reader asks for them on expand. */
export type LazyMenuCatalog = MenuCatalog & { lazy?: 1 };

function indexOf(snapshot: MenuSnapshot): MenuIndex {
  if (snapshot.index) return snapshot.index;
  const pagesByCat: MenuIndex['pagesByCat'] = new Map();
  for (const page of snapshot.pages) {
    const list = pagesByCat.get(page.cat_id);
    if (list) list.push(page);
    else pagesByCat.set(page.cat_id, [page]);
  }
  const children: MenuIndex['children'] = new Map();
  for (const cat of snapshot.catalogs) {
    if (cat.parent_cat_id === cat.cat_id) continue;
    const list = children.get(cat.parent_cat_id);
    if (list) list.push(cat);
    else children.set(cat.parent_cat_id, [cat]);
  }
  snapshot.index = { pagesByCat, children };
  return snapshot.index;
}

/**
 * One level of the tree: `catId`'s visible pages and sub-catalogs, the sub-catalogs on `open`
 * filled in (recursively), the others lazy.
 */
function level(
  index: MenuIndex,
  access: ItemAccess,
  actor: Actor,
  catId: number,
  open: ReadonlySet<number>,
): Menu & { catalogs: LazyMenuCatalog[] } {
  const restriction = access.catalogRestriction;
  const hidesRoot = catId === 0 && restriction;
  const pages = hidesRoot
    ? []
    : (index.pagesByCat.get(catId) ?? []).filter((p) => draftVisible(actor, p)).map(menuPage);
  let cats: CatalogDoc[] = index.children.get(catId) ?? [];
  if (hidesRoot) cats = cats.filter((c) => restriction.includes(c.cat_id));
  const catalogs = cats.map((cat): LazyMenuCatalog => {
    if (open.has(cat.cat_id)) {
      const inner = level(index, access, actor, cat.cat_id, open);
      return {
        ...catalogRow(cat),
        pages: inner.pages as MenuCatalog['pages'],
        catalogs: inner.catalogs,
      };
    }
    const hasContent = index.pagesByCat.has(cat.cat_id) || index.children.has(cat.cat_id);
    return {
      ...catalogRow(cat),
      pages: [],
      catalogs: [],
      ...(hasContent ? { lazy: 1 as const } : {}),
    };
  });
  return { pages, catalogs };
}

/** The catalogs from the top down to `pageId`'s own, when the viewer may see that page. */
function pathTo(
  snapshot: MenuSnapshot,
  access: ItemAccess,
  actor: Actor,
  pageId: number,
): Set<number> {
  const open = new Set<number>();
  if (!(pageId > 0)) return open;
  const page = snapshot.pages.find((p) => p.page_id === pageId);
  if (!page || !page.cat_id || !draftVisible(actor, page)) return open;
  if (!insideRestriction(access, page.cat_id, snapshot.parents)) return open;
  for (let id = page.cat_id; id > 0 && !open.has(id); id = snapshot.parents.get(id) ?? 0)
    open.add(id);
  return open;
}

/**
 * The page the reader opens when the address names none: the first one in reading order (root
 * pages, then each catalog depth-first), as the whole menu would give it.
 */
function firstVisiblePage(index: MenuIndex, access: ItemAccess, actor: Actor): number {
  const restriction = access.catalogRestriction;
  const seen = new Set<number>();
  const visit = (catId: number): number => {
    if (seen.has(catId)) return 0;
    seen.add(catId);
    const hidden = catId === 0 && restriction;
    const page = hidden
      ? undefined
      : index.pagesByCat.get(catId)?.find((p) => draftVisible(actor, p));
    if (page) return page.page_id;
    let cats = index.children.get(catId) ?? [];
    if (hidden) cats = cats.filter((c) => restriction.includes(c.cat_id));
    for (const cat of cats) {
      const found = visit(cat.cat_id);
      if (found) return found;
    }
    return 0;
  };
  return visit(0);
}

/**
 * The reader's menu as JSON text: the whole menu for a small item, else the top level plus the
 * way to `focusPageId`. Kept with the snapshot per viewer shape and open path.
 */
export async function lazyMenuText(
  access: ItemAccess,
  actor: Actor,
  focusPageId: number,
): Promise<MenuText> {
  const snapshot = await snapshotOf(access.item.item_id);
  if (snapshot.catalogs.length + snapshot.pages.length < LAZY_MENU_MIN_ROWS)
    return menuText(access, actor);
  // No page asked for: the way to the first page is opened, so the reader finds it in the menu.
  const focus = focusPageId > 0 ? focusPageId : firstVisiblePage(indexOf(snapshot), access, actor);
  const open = pathTo(snapshot, access, actor, focus);
  const ownDrafts = actor.uid > 0 && snapshot.draftAuthors.has(actor.uid) ? actor.uid : 0;
  const shape = `lazy|${access.catalogRestriction?.join(',') ?? '*'}|${ownDrafts}|${[...open].join(',')}`;
  let text = snapshot.texts.get(shape);
  if (!text) {
    if (snapshot.texts.size >= 16) snapshot.texts.clear();
    text = serialiseMenu(level(indexOf(snapshot), access, actor, 0, open));
    snapshot.texts.set(shape, text);
  }
  return text;
}

/**
 * `catalog/menuChildren`: one catalog's level (`catId` 0 = the top level) as the viewer may see
 * it, its sub-catalogs lazy. Visit rights as item/info checks them.
 */
export async function menuChildren(
  actor: Actor,
  itemId: number,
  catId: number,
  options: { itemPassword?: string } = {},
): Promise<Menu & { catalogs: LazyMenuCatalog[] }> {
  if (!(itemId > 0)) throw errors.failed('Parameter error: item_id is required');
  if (!(catId >= 0)) throw errors.failed('Parameter error: cat_id');
  const access = await requireAction(actor, 'item.read', itemId, {
    itemPassword: options.itemPassword,
  });
  const settings = await getSiteSettings();
  if (settings.forceLogin && actor.uid <= 0) throw errors.logInFirst('Please log in first');
  const snapshot = await snapshotOf(itemId);
  // A catalog outside the viewer's restriction answers exactly like one that does not exist.
  if (
    catId > 0 &&
    (!snapshot.parents.has(catId) || !insideRestriction(access, catId, snapshot.parents))
  )
    throw errors.failed('Catalog does not exist');
  return level(indexOf(snapshot), access, actor, catId, new Set());
}
