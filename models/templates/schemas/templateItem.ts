/**
 * ShowDoc's `template_item` (reference pages §1.6, §5): a template shared to an item, by `uid`
 * (the sharer). `created_at` is a datetime string, as ShowDoc stores it. One row per
 * (template, item).
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface TemplateItemDoc {
  id: number;
  template_id: number;
  item_id: number;
  uid: number;
  username: string;
  created_at: string;
}

const templateItemSchema = new Schema<TemplateItemDoc>(
  {
    id: { type: Number, required: true },
    template_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    created_at: { type: String, default: '' },
  },
  { collection: 'template_item', versionKey: false },
);

templateItemSchema.index({ id: 1 }, { unique: true });
// A template's shares (getMyList, shareToItem, delete); one share per item.
templateItemSchema.index({ template_id: 1, item_id: 1 }, { unique: true });
// An item's templates (getItemList).
templateItemSchema.index({ item_id: 1, id: 1 });

export const TemplateItem = defineModel<TemplateItemDoc>('TemplateItem', templateItemSchema);
