/** `page_comment`, `page_feedback` (ShowDoc 3.x) and `mock` (reference pages §7). */
import { z } from 'zod';
import { action, id, int, str } from './coerce';

export interface CommentShape {
  comment_id: number;
  parent_id: number;
  uid: number;
  username: string;
  content: string;
  addtime: number;
  addtime_text: string;
  is_owner: boolean;
  can_delete: boolean;
  replies?: CommentShape[];
}

export const Comment: z.ZodType<CommentShape> = z.object({
  comment_id: z.number(),
  parent_id: z.number(),
  uid: z.number(),
  username: z.string(),
  content: z.string(),
  addtime: z.number(),
  addtime_text: z.string(),
  is_owner: z.boolean(),
  can_delete: z.boolean(),
  get replies() {
    return z.array(Comment).optional();
  },
});

export const FeedbackStat = z.object({
  helpful_count: z.number(),
  unhelpful_count: z.number(),
  /** The caller's own vote: 0 none, 1 helpful, 2 not helpful. */
  user_feedback: z.number(),
});

export const pageCommentContract = {
  getList: action(
    { page_id: id(), page: int(1), count: int(20) },
    z.object({ total: z.number(), page: z.number(), comments: z.array(Comment) }),
  ),
  add: action(
    { page_id: id(), content: str(), parent_id: id() },
    z.object({ comment_id: z.number(), message: z.string() }),
  ),
  delete: action({ comment_id: id() }, z.object({ message: z.string() })),
};

export const pageFeedbackContract = {
  getStat: action({ page_id: id(), client_id: str() }, FeedbackStat),
  submit: action(
    { page_id: id(), feedback_type: int(), client_id: str() },
    FeedbackStat.extend({ message: z.string() }),
  ),
};

export const Mock = z.object({
  id: z.string(),
  unique_key: z.string(),
  uid: z.string(),
  page_id: z.string(),
  item_id: z.string(),
  view_times: z.string(),
  template: z.string(),
  path: z.string(),
  addtime: z.union([z.string(), z.number()]),
  last_update_time: z.union([z.string(), z.number()]),
});

export const mockContract = {
  add: action(
    { page_id: id(), template: str(), path: str('/') },
    z.looseObject({ unique_key: z.string(), path: z.string() }),
  ),
  /** `[]` when the page has no mock. */
  infoByPageId: action({ page_id: id() }, z.union([Mock, z.array(z.never())])),
};
