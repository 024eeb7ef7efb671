/** Catalogs: the catalog tree of an item, its copies and the item menu. */
export { copyCatalog } from './catalogCopy';
export { parseTreeNodes, TreeError, type TreeNode } from './catalogTree';
export {
  catalogRow,
  type CatalogRow,
  deleteCatalog,
  itemCatalogs,
  listCatalogs,
  pagesOfCatalog,
  saveCatalog,
  saveCatalogTree,
} from './catalogs';
export {
  buildMenu,
  defaultCatalogs,
  flagMenuPages,
  type Menu,
  type MenuCatalog,
  type MenuPage,
  menuText,
  type MenuText,
} from './menu';
export { LAZY_MENU_MIN_ROWS, lazyMenuText, type LazyMenuCatalog, menuChildren } from './menuLevels';

// Collections other domains still read directly (eslint `quire/domain-faces` sends them here).
export { Catalog, TOP_LEVEL } from './schemas';
export type { CatalogDoc } from './schemas';
