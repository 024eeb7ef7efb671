/**
 * ShowDoc's `page_feedback`: one "helpful" (1) / "not helpful" (2) vote per page per user, or per
 * anonymous browser (`client_id`, uid 0). `voter` (`u:<uid>` or `c:<client_id>`) is Quire's own
 * column: its unique index keeps one vote per voter even when two submits race.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageFeedbackDoc {
  feedback_id: number;
  page_id: number;
  item_id: number;
  uid: number;
  client_id: string | null;
  voter: string;
  feedback_type: number;
  addtime: number;
}

const pageFeedbackSchema = new Schema<PageFeedbackDoc>(
  {
    feedback_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    uid: { type: Number, default: 0 },
    client_id: { type: String, default: null },
    voter: { type: String, required: true },
    feedback_type: { type: Number, required: true },
    addtime: { type: Number, required: true },
  },
  { collection: 'page_feedback', versionKey: false },
);

pageFeedbackSchema.index({ feedback_id: 1 }, { unique: true });
pageFeedbackSchema.index({ page_id: 1, voter: 1 }, { unique: true });

export const PageFeedback = defineModel<PageFeedbackDoc>('PageFeedback', pageFeedbackSchema);
