/**
 * ShowDoc's `catalog`: a folder in an item's tree. `level` 2 is top level, 3 and 4 below it
 * (three levels at most); `parent_cat_id` 0 = top level. Order: `s_number`, then `cat_id`.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export const TOP_LEVEL = 2;
export const MAX_LEVEL = 4;

export interface CatalogDoc {
  cat_id: number;
  cat_name: string;
  item_id: number;
  s_number: number;
  addtime: number;
  parent_cat_id: number;
  level: number;
}

const catalogSchema = new Schema<CatalogDoc>(
  {
    cat_id: { type: Number, required: true },
    cat_name: { type: String, default: '' },
    item_id: { type: Number, required: true },
    s_number: { type: Number, default: 99 },
    addtime: { type: Number, required: true },
    parent_cat_id: { type: Number, default: 0 },
    level: { type: Number, default: TOP_LEVEL, min: TOP_LEVEL, max: MAX_LEVEL },
  },
  { collection: 'catalog', versionKey: false },
);

catalogSchema.index({ cat_id: 1 }, { unique: true });
catalogSchema.index({ item_id: 1, parent_cat_id: 1 });

export const Catalog = defineModel<CatalogDoc>('Catalog', catalogSchema);
