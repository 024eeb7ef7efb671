/**
 * ShowDoc's `template` (reference pages §1.6, §5): a user's page template. Quire stores the
 * Markdown exactly as written (ShowDoc's legacy server stored it HTML-escaped; `template/*`
 * answered it un-escaped, so clients see the same text either way). `addtime` is Unix seconds.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface TemplateDoc {
  id: number;
  uid: number;
  username: string;
  template_title: string;
  template_content: string;
  addtime: number;
}

const templateSchema = new Schema<TemplateDoc>(
  {
    id: { type: Number, required: true },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    template_title: { type: String, required: true },
    template_content: { type: String, default: '' },
    addtime: { type: Number, required: true },
  },
  { collection: 'template', versionKey: false },
);

templateSchema.index({ id: 1 }, { unique: true });
// "My templates", newest first.
templateSchema.index({ uid: 1, addtime: -1, id: -1 });

export const Template = defineModel<TemplateDoc>('Template', templateSchema);
