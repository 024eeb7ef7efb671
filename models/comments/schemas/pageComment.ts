/**
 * ShowDoc's `page_comment`: a reader's comment on a page, or a reply to one (two levels only:
 * `parent_id` 0 = top level). Content is stored as written (ShowDoc stored it HTML-escaped; Quire
 * escapes on the way out, like page content). Deleting sets `is_deleted`, as ShowDoc does.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../../platform';

export interface PageCommentDoc {
  comment_id: number;
  page_id: number;
  item_id: number;
  parent_id: number;
  uid: number;
  username: string;
  content: string;
  is_deleted: number;
  addtime: number;
}

const pageCommentSchema = new Schema<PageCommentDoc>(
  {
    comment_id: { type: Number, required: true },
    page_id: { type: Number, required: true },
    item_id: { type: Number, required: true },
    parent_id: { type: Number, default: 0 },
    uid: { type: Number, required: true },
    username: { type: String, default: '' },
    content: { type: String, required: true },
    is_deleted: { type: Number, default: 0 },
    addtime: { type: Number, required: true },
  },
  { collection: 'page_comment', versionKey: false },
);

pageCommentSchema.index({ comment_id: 1 }, { unique: true });
// A page's top-level comments newest first, and each comment's replies.
pageCommentSchema.index({ page_id: 1, parent_id: 1, addtime: -1 });

export const PageComment = defineModel<PageCommentDoc>('PageComment', pageCommentSchema);
