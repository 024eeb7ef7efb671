/**
 * What an export may contain: the item's catalogs and published pages (with their text) as the
 * exporting user may read them. ShowDoc lets editors export; a member limited to some catalogs
 * gets only those (no root pages), and drafts never leave the item. One catalog or one page can be
 * chosen instead of the whole item.
 */
import {
  catalogParents,
  catalogVisible,
  requireAction,
  type Actor,
  type ItemAccess,
} from '../access';
import { Catalog, type CatalogDoc } from '../catalogs';
import { Page, type PageDoc } from '../pages';
import { type ItemDoc, logChange } from '../items';
import { errors } from '../platform';

export interface ExportPage {
  page_id: number;
  item_id: number;
  cat_id: number;
  page_title: string;
  page_content: string;
  page_comments: string;
  s_number: number;
  addtime: number;
  author_uid: number;
  author_username: string;
}

export interface ExportCatalog {
  cat_id: number;
  cat_name: string;
  item_id: number;
  s_number: number;
  addtime: number;
  parent_cat_id: number;
  level: number;
  pages: ExportPage[];
  catalogs: ExportCatalog[];
}

export interface ExportTree {
  pages: ExportPage[];
  catalogs: ExportCatalog[];
}

export interface ExportScope {
  itemId: number;
  /** > 0: only this catalog (with its sub-catalogs). */
  catId?: number;
  /** > 0: only this page. */
  pageId?: number;
}

export interface ItemExport {
  access: ItemAccess;
  tree: ExportTree;
}

function byOrder<T extends { s_number: number }>(id: (row: T) => number) {
  return (a: T, b: T) => a.s_number - b.s_number || id(a) - id(b);
}

function pageOf(page: PageDoc): ExportPage {
  return {
    page_id: page.page_id,
    item_id: page.item_id,
    cat_id: page.cat_id,
    page_title: page.page_title,
    page_content: page.page_content,
    page_comments: page.page_comments ?? '',
    s_number: page.s_number,
    addtime: page.addtime,
    author_uid: page.author_uid,
    author_username: page.author_username,
  };
}

/** The export tree for `actor` (edit rights needed, as in ShowDoc). */
export async function exportTree(
  actor: Actor,
  scope: ExportScope,
  /** The named permission action the export checks (the HTML export answers its own codes). */
  action: 'item.export' | 'item.exportHtml' = 'item.export',
): Promise<ItemExport> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!(scope.itemId > 0)) throw errors.failed('Parameter error: item_id');
  // An archived item can still be taken out (editor role, not edit rights).
  const access = await requireAction(actor, action, scope.itemId);
  const itemId = access.item.item_id;
  const [catalogs, pages, parents] = await Promise.all([
    Catalog.find({ item_id: itemId }, { _id: 0 }).lean<CatalogDoc[]>(),
    Page.find({ item_id: itemId, is_del: 0, is_draft: { $ne: 1 } }, { _id: 0 }).lean<PageDoc[]>(),
    catalogParents(itemId),
  ]);
  const visible = (catId: number) => catalogVisible(access, catId, parents);

  if (scope.pageId && scope.pageId > 0) {
    const page = pages.find((p) => p.page_id === scope.pageId);
    if (!page) throw errors.failed('The page does not exist');
    if (!visible(page.cat_id)) throw errors.noVisitPermission('No permission');
    return { access, tree: { pages: [pageOf(page)], catalogs: [] } };
  }

  const pagesByCat = new Map<number, ExportPage[]>();
  for (const page of pages.sort(byOrder((p) => p.page_id))) {
    const list = pagesByCat.get(page.cat_id) ?? [];
    list.push(pageOf(page));
    pagesByCat.set(page.cat_id, list);
  }
  const children = new Map<number, CatalogDoc[]>();
  for (const cat of catalogs.sort(byOrder((c) => c.cat_id))) {
    const list = children.get(cat.parent_cat_id) ?? [];
    list.push(cat);
    children.set(cat.parent_cat_id, list);
  }
  const seen = new Set<number>();
  const build = (cat: CatalogDoc): ExportCatalog => {
    seen.add(cat.cat_id);
    return {
      cat_id: cat.cat_id,
      cat_name: cat.cat_name,
      item_id: cat.item_id,
      s_number: cat.s_number,
      addtime: cat.addtime,
      parent_cat_id: cat.parent_cat_id,
      level: cat.level,
      pages: pagesByCat.get(cat.cat_id) ?? [],
      catalogs: (children.get(cat.cat_id) ?? []).filter((c) => !seen.has(c.cat_id)).map(build),
    };
  };

  if (scope.catId && scope.catId > 0) {
    const cat = catalogs.find((c) => c.cat_id === scope.catId);
    if (!cat) throw errors.failed('The catalog does not exist');
    if (!visible(cat.cat_id)) throw errors.noVisitPermission('No permission');
    const node = build(cat);
    return { access, tree: { pages: [], catalogs: [node] } };
  }

  const tops = (children.get(0) ?? []).filter((c) => visible(c.cat_id));
  return {
    access,
    tree: {
      pages: access.catalogRestriction ? [] : (pagesByCat.get(0) ?? []),
      catalogs: tops.map(build),
    },
  };
}

/** Every page of a tree, depth first in menu order. */
export function treePages(tree: ExportTree): ExportPage[] {
  const out: ExportPage[] = [...tree.pages];
  const walk = (cat: ExportCatalog) => {
    out.push(...cat.pages);
    cat.catalogs.forEach(walk);
  };
  tree.catalogs.forEach(walk);
  return out;
}

/** Every export (Word, Markdown, offline HTML) leaves one entry in the item's change log. */
export async function logItemExport(
  actor: Actor,
  item: Pick<ItemDoc, 'item_id' | 'item_name'>,
): Promise<void> {
  await logChange({
    uid: actor.uid,
    itemId: item.item_id,
    action: 'export',
    object: 'item',
    objectId: item.item_id,
    objectName: item.item_name,
  });
}
