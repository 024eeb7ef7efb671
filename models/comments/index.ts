/** Comments: readers' comments on pages (with replies and reminders) and "was this helpful?" feedback. */
export {
  addComment,
  type CommentList,
  type CommentView,
  deleteComment,
  listComments,
  MAX_COMMENT_LENGTH,
  startComments,
} from './comments';
export { purgeItemComments } from './itemPurge';
export { type FeedbackStat, feedbackStat, submitFeedback } from './feedback';
