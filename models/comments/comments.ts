/**
 * Page comments (ShowDoc's `page_comment/*`): readers of an item whose `allow_comment` is on
 * comment on a page and reply to top-level comments (two levels, as ShowDoc). The author of a
 * comment or a manager of the item deletes it. A new comment reminds the page's author, the item's
 * creator and its managers; a reply reminds the author of the comment it answers — each only if
 * they may still see the page. Every change is published as `comment.changed`, which realtime
 * pushes to the page's room.
 *
 * Access goes through models/pageAccess.ts, so a page outside the reader's catalog restriction,
 * someone else's draft or a page of a private item answers as one that does not exist.
 */
import { permits, type Actor } from '../access';
import { errors, events, nextId, nowSeconds } from '../platform';
import { createReminders, pageAudience } from '../notices';
import { requirePage, type PageWithAccess } from '../pages';
import { ItemMember, TeamItemMember } from '../members';
import { PageComment, type PageCommentDoc } from './schemas/pageComment';
import { PageFeedback } from './schemas/pageFeedback';

/** ShowDoc's limit on a comment's length, in characters. */
export const MAX_COMMENT_LENGTH = 500;
const MAX_PAGE_SIZE = 100;
const REGULAR_ITEM = 1;
const KANBAN_ITEM = 6;
const MANAGER_GROUP = 2;

export interface CommentView {
  comment: PageCommentDoc;
  isOwner: boolean;
  canDelete: boolean;
  replies?: CommentView[];
}

export interface CommentList {
  total: number;
  page: number;
  comments: CommentView[];
}

async function pageFor(
  actor: Actor,
  pageId: number,
  itemPassword?: string,
): Promise<PageWithAccess> {
  if (!(pageId > 0)) throw errors.refused('Missing page_id parameter');
  return requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword,
    askPassword: true,
  });
}

function commentsOpen({ access }: PageWithAccess): boolean {
  const type = access.item.item_type || REGULAR_ITEM;
  return (type === REGULAR_ITEM || type === KANBAN_ITEM) && access.item.allow_comment === 1;
}

/** A page's live top-level comments, newest first, each with all its replies (oldest first). */
export async function listComments(
  actor: Actor,
  input: { pageId: number; page: number; count: number; itemPassword?: string },
): Promise<CommentList> {
  const found = await pageFor(actor, input.pageId, input.itemPassword);
  const page = input.page > 0 ? input.page : 1;
  if (!commentsOpen(found)) return { total: 0, page, comments: [] };
  const count = Math.min(input.count > 0 ? input.count : 20, MAX_PAGE_SIZE);
  const filter = { page_id: input.pageId, parent_id: 0, is_deleted: 0 };
  const [total, top] = await Promise.all([
    PageComment.countDocuments(filter),
    PageComment.find(filter, { _id: 0 })
      .sort({ addtime: -1, comment_id: -1 })
      .skip((page - 1) * count)
      .limit(count)
      .lean<PageCommentDoc[]>(),
  ]);
  const replies = await PageComment.find(
    { parent_id: { $in: top.map((c) => c.comment_id) }, is_deleted: 0 },
    { _id: 0 },
  )
    .sort({ addtime: 1, comment_id: 1 })
    .lean<PageCommentDoc[]>();
  const manager = permits(found.access, 'comment.moderate');
  const view = (comment: PageCommentDoc): CommentView => {
    const isOwner = actor.uid > 0 && comment.uid === actor.uid;
    return { comment, isOwner, canDelete: isOwner || manager };
  };
  return {
    total,
    page,
    comments: top.map((comment) => ({
      ...view(comment),
      replies: replies.filter((r) => r.parent_id === comment.comment_id).map(view),
    })),
  };
}

/** Adds a comment (or a reply when `parentId` > 0); returns its id. */
export async function addComment(
  actor: Actor,
  input: { pageId: number; content: string; parentId: number; itemPassword?: string },
): Promise<number> {
  if (actor.uid <= 0) throw errors.notLoggedIn();
  if (!(input.pageId > 0)) throw errors.refused('Missing page_id parameter');
  const content = input.content.trim();
  if (!content) throw errors.refused('Comment content cannot be empty');
  if ([...content].length > MAX_COMMENT_LENGTH)
    throw errors.refused(`Comment content must be 1-${MAX_COMMENT_LENGTH} characters`);
  const found = await pageFor(actor, input.pageId, input.itemPassword);
  const type = found.access.item.item_type || REGULAR_ITEM;
  if (type !== REGULAR_ITEM && type !== KANBAN_ITEM)
    throw errors.refused('This item type does not support comments');
  if (!commentsOpen(found)) throw errors.refused('Comments are not enabled for this item');
  let parent: PageCommentDoc | null = null;
  if (input.parentId > 0) {
    parent = await PageComment.findOne({
      comment_id: input.parentId,
      page_id: input.pageId,
      is_deleted: 0,
    }).lean<PageCommentDoc>();
    if (!parent) throw errors.refused('The comment replied to does not exist or was deleted');
    if (parent.parent_id > 0)
      throw errors.refused('Only two levels of comments: a reply cannot be replied to');
  }
  const { page, access } = found;
  const commentId = await nextId('page_comment_id');
  await PageComment.create({
    comment_id: commentId,
    page_id: page.page_id,
    item_id: page.item_id,
    parent_id: parent ? parent.comment_id : 0,
    uid: actor.uid,
    username: actor.username,
    content,
    is_deleted: 0,
    addtime: nowSeconds(),
  });
  events.publish('comment.changed', {
    itemId: page.item_id,
    pageId: page.page_id,
    commentId,
    change: 'added',
    byUid: actor.uid,
  });
  const recipients = parent
    ? [parent.uid]
    : [page.author_uid, access.item.uid, ...(await itemManagerUids(page.item_id))];
  const others = recipients.filter((uid) => uid > 0 && uid !== actor.uid);
  const audience = await pageAudience(page, others);
  await createReminders({
    fromUid: actor.uid,
    fromName: actor.username,
    actionType: 'comment',
    objectType: 'page',
    objectId: page.page_id,
    text: parent ? `${actor.username} 有新回复` : `${actor.username} 发表了新评论`,
    toUids: others.filter((uid) => audience.has(uid)),
  });
  return commentId;
}

async function itemManagerUids(itemId: number): Promise<number[]> {
  const [members, teamMembers] = await Promise.all([
    ItemMember.find({ item_id: itemId, member_group_id: MANAGER_GROUP }, { uid: 1, _id: 0 }).lean(),
    TeamItemMember.find(
      { item_id: itemId, member_group_id: MANAGER_GROUP },
      { member_uid: 1, _id: 0 },
    ).lean(),
  ]);
  return [...members.map((m) => m.uid), ...teamMembers.map((m) => m.member_uid)];
}

/**
 * Deletes a comment (its author, or a manager of the item who can still see the page). Replies
 * of a deleted comment disappear with it from the list.
 */
export async function deleteComment(actor: Actor, commentId: number): Promise<void> {
  if (actor.uid <= 0) throw errors.notLoggedIn();
  if (!(commentId > 0)) throw errors.refused('Missing comment_id parameter');
  const comment = await PageComment.findOne({
    comment_id: commentId,
    is_deleted: 0,
  }).lean<PageCommentDoc>();
  if (!comment) throw errors.failed('Comment does not exist');
  const found = await requirePage(actor, comment.page_id, { action: 'page.read' }).catch(
    () => null,
  );
  const allowed =
    comment.uid === actor.uid || (found ? permits(found.access, 'comment.moderate') : false);
  if (!allowed) throw errors.noEditPermission('No permission to delete this comment');
  await PageComment.updateOne({ comment_id: commentId }, { $set: { is_deleted: 1 } });
  events.publish('comment.changed', {
    itemId: comment.item_id,
    pageId: comment.page_id,
    commentId,
    change: 'deleted',
    byUid: actor.uid,
  });
}

/**
 * ShowDoc hard-deletes a page's comments and feedback when the page goes to the recycle bin;
 * so does Quire (a recovered page comes back without them, as in ShowDoc). Returns the stopper.
 */
export function startComments(options: { onError?: (error: unknown) => void } = {}): () => void {
  return events.subscribe(
    'page.deleted',
    async ({ pageId }) => {
      try {
        await Promise.all([
          PageComment.deleteMany({ page_id: pageId }),
          PageFeedback.deleteMany({ page_id: pageId }),
        ]);
      } catch (error) {
        options.onError?.(error);
      }
    },
    { localOnly: true },
  );
}
