/**
 * The catalog trees the access policy reads (models/access fills its read model through this port;
 * the index plugs it in), so access never names the catalogs collection.
 */
import type { CatalogSource } from '../access';
import { Catalog } from './schemas';

export const catalogTreesForAccess: CatalogSource = {
  parentRows: async (itemId) =>
    Catalog.find({ item_id: itemId }, { cat_id: 1, parent_cat_id: 1, level: 1, _id: 0 }).lean(),
};
