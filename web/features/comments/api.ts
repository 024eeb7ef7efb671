/** page_comment/* and page_feedback/* as the reader calls them (answers as ShowDoc's). */
import type { CommentShape, Output } from '../../../api/contracts';
import { request } from '../../api/request';

/** `content` is HTML-escaped: un-escape once before showing as text. */
export type PageComment = CommentShape;
export type CommentPage = Output<'pagecomment', 'getList'>;
export type FeedbackStat = Output<'pagefeedback', 'getStat'>;

const QUIET = { alert: false, redirect: false, manager: false } as const;
export const COMMENTS_PER_PAGE = 20;

export const listComments = (pageId: number, page: number) =>
  request<CommentPage>(
    'page_comment/getList',
    { page_id: pageId, page, count: COMMENTS_PER_PAGE },
    QUIET,
  );

export const addComment = (pageId: number, content: string, parentId = 0) =>
  request<{ comment_id: number }>(
    'page_comment/add',
    { page_id: pageId, content, parent_id: parentId },
    QUIET,
  );

export const deleteComment = (commentId: number) =>
  request<unknown>('page_comment/delete', { comment_id: commentId }, QUIET);

const CLIENT_KEY = 'page_feedback_client_id';

/** The anonymous browser's feedback identity (ShowDoc's front end keeps one the same way). */
export function feedbackClientId(): string {
  try {
    let id = localStorage.getItem(CLIENT_KEY);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(CLIENT_KEY, id);
    }
    return id;
  } catch {
    return '';
  }
}

export const feedbackStat = (pageId: number) =>
  request<FeedbackStat>(
    'page_feedback/getStat',
    { page_id: pageId, client_id: feedbackClientId() },
    QUIET,
  );

export const submitFeedback = (pageId: number, type: number) =>
  request<FeedbackStat>(
    'page_feedback/submit',
    { page_id: pageId, feedback_type: type, client_id: feedbackClientId() },
    QUIET,
  );
