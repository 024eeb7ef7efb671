/**
 * `page_comment/*` and `page_feedback/*` (ShowDoc's PageCommentController and
 * PageFeedbackController): comments and "was this helpful?" votes on pages. Rules in
 * models/comments.ts and models/feedback.ts; answers shaped as ShowDoc's (numbers and booleans,
 * comment text HTML-escaped as ShowDoc stored it).
 */
import {
  addComment,
  type CommentView,
  deleteComment,
  feedbackStat,
  listComments,
  submitFeedback,
} from '../../models/comments';
import { escapeForClient } from '../../models/pages';
import { formatUnix } from '../../models/platform';
import { itemPassword, optionalLogin, requireLogin } from '../auth';
import { type CommentShape, pageCommentContract, pageFeedbackContract } from '../contracts';
import { defineController } from '../registry';

function commentRow(view: CommentView): CommentShape {
  const c = view.comment;
  return {
    comment_id: c.comment_id,
    parent_id: c.parent_id,
    uid: c.uid,
    username: c.username,
    content: escapeForClient(c.content),
    addtime: c.addtime,
    addtime_text: formatUnix(c.addtime).slice(0, 16),
    is_owner: view.isOwner,
    can_delete: view.canDelete,
    ...(view.replies ? { replies: view.replies.map(commentRow) } : {}),
  };
}

export const pageCommentController = defineController('page_comment', pageCommentContract, {
  async getList(ctx) {
    const { actor } = await optionalLogin(ctx);
    const list = await listComments(actor, {
      pageId: ctx.input.page_id,
      page: ctx.input.page,
      count: ctx.input.count,
      itemPassword: itemPassword(ctx),
    });
    return { total: list.total, page: list.page, comments: list.comments.map(commentRow) };
  },

  async add(ctx) {
    const { actor } = await requireLogin(ctx);
    const commentId = await addComment(actor, {
      pageId: ctx.input.page_id,
      content: ctx.input.content,
      parentId: ctx.input.parent_id,
      itemPassword: itemPassword(ctx),
    });
    return { comment_id: commentId, message: '评论发表成功' };
  },

  async delete(ctx) {
    const { actor } = await requireLogin(ctx);
    await deleteComment(actor, ctx.input.comment_id);
    return { message: '删除成功' };
  },
});

export const pageFeedbackController = defineController('page_feedback', pageFeedbackContract, {
  async getStat(ctx) {
    const { actor } = await optionalLogin(ctx);
    return feedbackStat(actor, {
      pageId: ctx.input.page_id,
      clientId: ctx.input.client_id,
      itemPassword: itemPassword(ctx),
    });
  },

  async submit(ctx) {
    const { actor } = await optionalLogin(ctx);
    const stat = await submitFeedback(actor, {
      pageId: ctx.input.page_id,
      feedbackType: ctx.input.feedback_type,
      clientId: ctx.input.client_id,
      itemPassword: itemPassword(ctx),
    });
    return { message: '感谢您的反馈', ...stat };
  },
});
