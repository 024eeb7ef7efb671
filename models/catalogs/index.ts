/** Catalogs: the catalog tree of an item, its copies and the item menu. */
import { catalogSource } from '../access';
import { pageCatalogs } from '../pages';
import { catalogTreesForAccess } from './accessTrees';
import { catalogsForPages } from './pagePath';

// The access policy reads catalog trees, and pages a page's catalog path, through their ports
// (models/access/sources.ts, models/pages/ports.ts).
catalogSource.fill(catalogTreesForAccess);
pageCatalogs.fill(catalogsForPages);

export { copyCatalog } from './catalogCopy';
export { copyItem } from './itemCopy';
export { purgeItemCatalogs } from './itemPurge';
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
