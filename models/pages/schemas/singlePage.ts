/**
 * ShowDoc's `single_page` (reference pages §1.6, §3.2–3.3): a public share link `/p/<unique_key>`
 * to one page. `unique_key` is 32 lowercase hex chars (16 random bytes); `expire_time` Unix
 * seconds, 0 = never. One link per page: switching it on again replaces the old key.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface SinglePageDoc {
  id: number;
  unique_key: string;
  page_id: number;
  expire_time: number;
}

const singlePageSchema = new Schema<SinglePageDoc>(
  {
    id: { type: Number, required: true },
    unique_key: { type: String, required: true },
    page_id: { type: Number, required: true },
    expire_time: { type: Number, default: 0 },
  },
  { collection: 'single_page', versionKey: false },
);

singlePageSchema.index({ unique_key: 1 }, { unique: true });
singlePageSchema.index({ page_id: 1 }, { unique: true });

export const SinglePage = defineModel<SinglePageDoc>('SinglePage', singlePageSchema);
