/** Walking an item's menu (catalogs nest to any depth; ShowDoc shows three levels). */
import type { Menu, MenuCatalog, MenuPage } from './types';

export interface PageLocation {
  page: MenuPage;
  /** Catalog ids from the top-level catalog down to the page's own ('' ids never). */
  catalogPath: string[];
}

const subCatalogs = (cat: MenuCatalog): MenuCatalog[] => cat.catalogs ?? [];

/** The first page in reading order: root pages first, then each catalog depth-first. */
export function firstPage(menu: Menu): MenuPage | null {
  if (menu.pages.length) return menu.pages[0];
  const visit = (cats: MenuCatalog[]): MenuPage | null => {
    for (const cat of cats) {
      if (cat.pages.length) return cat.pages[0];
      const inner = visit(subCatalogs(cat));
      if (inner) return inner;
    }
    return null;
  };
  return visit(menu.catalogs);
}

export function findPage(menu: Menu, pageId: string | number): PageLocation | null {
  const id = String(pageId);
  const root = menu.pages.find((p) => p.page_id === id);
  if (root) return { page: root, catalogPath: [] };
  const visit = (cats: MenuCatalog[], path: string[]): PageLocation | null => {
    for (const cat of cats) {
      const here = [...path, cat.cat_id];
      const page = cat.pages.find((p) => p.page_id === id);
      if (page) return { page, catalogPath: here };
      const inner = visit(subCatalogs(cat), here);
      if (inner) return inner;
    }
    return null;
  };
  return visit(menu.catalogs, []);
}

export function isEmptyMenu(menu: Menu): boolean {
  return menu.pages.length === 0 && menu.catalogs.length === 0;
}

/** Every catalog id of the menu (to expand all, e.g. while showing search results). */
export function allCatalogIds(menu: Menu): string[] {
  const out: string[] = [];
  const visit = (cats: MenuCatalog[]) => {
    for (const cat of cats) {
      out.push(cat.cat_id);
      visit(subCatalogs(cat));
    }
  };
  visit(menu.catalogs);
  return out;
}

/** Whether some catalog of the menu is lazy (its level still to be fetched): a big item's menu. */
export function hasLazyCatalogs(menu: Menu): boolean {
  const visit = (cats: MenuCatalog[]): boolean =>
    cats.some((cat) => cat.lazy === 1 || visit(subCatalogs(cat)));
  return visit(menu.catalogs);
}
