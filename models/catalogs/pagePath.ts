/**
 * The catalogs above a page (`page/info` with `with_path`): models/pages asks through its port
 * `pageCatalogs`; the index plugs this in.
 */
import type { PageCatalogs } from '../pages';
import { Catalog } from './schemas';

export const catalogsForPages: PageCatalogs = {
  async chainOf(itemId, catId) {
    const catalogs = await Catalog.find(
      { item_id: itemId },
      { cat_id: 1, cat_name: 1, parent_cat_id: 1, _id: 0 },
    ).lean();
    const byId = new Map(catalogs.map((c) => [c.cat_id, c]));
    const chain: Array<{ cat_id: number; cat_name: string }> = [];
    const seen = new Set<number>();
    for (let id = catId; id > 0 && !seen.has(id);) {
      seen.add(id);
      const cat = byId.get(id);
      if (!cat) break;
      chain.unshift({ cat_id: cat.cat_id, cat_name: cat.cat_name });
      id = cat.parent_cat_id;
    }
    return chain;
  },
};
