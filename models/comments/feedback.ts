/**
 * Page feedback (ShowDoc's `page_feedback/*`): "was this page helpful?" on items whose
 * `allow_feedback` is on (regular items only, as ShowDoc). One vote per page per user, or per
 * anonymous browser identified by the `client_id` it keeps; voting the same way again, or type 0,
 * takes the vote back. Anyone who may read the page sees the counts.
 */
import type { Actor } from '../access';
import { errors, nextId } from '../platform';
import { requirePage, type PageWithAccess } from '../pages';
import { PageFeedback } from './schemas/pageFeedback';
import { nowSeconds } from '../platform';

const REGULAR_ITEM = 1;
const HELPFUL = 1;
const UNHELPFUL = 2;
/** Longest client id kept (ShowDoc's front end sends a short random string). */
const MAX_CLIENT_ID = 64;

export interface FeedbackStat {
  helpful_count: number;
  unhelpful_count: number;
  /** The caller's own vote: 0 none, 1 helpful, 2 not helpful. */
  user_feedback: number;
}

async function pageFor(actor: Actor, pageId: number, itemPassword?: string) {
  if (!(pageId > 0)) throw errors.refused('Missing page_id parameter');
  return requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword,
    askPassword: true,
  });
}

function feedbackOpen({ access }: PageWithAccess): boolean {
  return (
    (access.item.item_type || REGULAR_ITEM) === REGULAR_ITEM && access.item.allow_feedback === 1
  );
}

function voterOf(actor: Actor, clientId: string): string | null {
  if (actor.uid > 0) return `u:${actor.uid}`;
  const id = clientId.trim().slice(0, MAX_CLIENT_ID);
  return id ? `c:${id}` : null;
}

async function counts(pageId: number): Promise<Omit<FeedbackStat, 'user_feedback'>> {
  const [helpful, unhelpful] = await Promise.all([
    PageFeedback.countDocuments({ page_id: pageId, feedback_type: HELPFUL }),
    PageFeedback.countDocuments({ page_id: pageId, feedback_type: UNHELPFUL }),
  ]);
  return { helpful_count: helpful, unhelpful_count: unhelpful };
}

/** page_feedback/getStat: zeros when feedback is off for the item. */
export async function feedbackStat(
  actor: Actor,
  input: { pageId: number; clientId: string; itemPassword?: string },
): Promise<FeedbackStat> {
  const found = await pageFor(actor, input.pageId, input.itemPassword);
  if (!feedbackOpen(found)) return { helpful_count: 0, unhelpful_count: 0, user_feedback: 0 };
  const voter = voterOf(actor, input.clientId);
  const mine = voter
    ? await PageFeedback.findOne({ page_id: input.pageId, voter }, { feedback_type: 1 }).lean()
    : null;
  return { ...(await counts(input.pageId)), user_feedback: mine?.feedback_type ?? 0 };
}

/** page_feedback/submit: casts, changes or takes back the caller's vote; answers the new counts. */
export async function submitFeedback(
  actor: Actor,
  input: { pageId: number; feedbackType: number; clientId: string; itemPassword?: string },
): Promise<FeedbackStat> {
  if (!(input.pageId > 0)) throw errors.refused('Missing page_id parameter');
  if (![0, HELPFUL, UNHELPFUL].includes(input.feedbackType))
    throw errors.refused('feedback_type must be 0, 1 or 2');
  const found = await pageFor(actor, input.pageId, input.itemPassword);
  if ((found.access.item.item_type || REGULAR_ITEM) !== REGULAR_ITEM)
    throw errors.refused('This item type does not support feedback');
  if (!feedbackOpen(found)) throw errors.refused('Feedback is not enabled for this item');
  const voter = voterOf(actor, input.clientId);
  if (!voter) throw errors.refused('Guests must send a client_id');
  const { page } = found;
  let type = input.feedbackType;
  const existing = await PageFeedback.findOne({ page_id: page.page_id, voter }).lean();
  if (existing && (type === 0 || existing.feedback_type === type)) {
    await PageFeedback.deleteOne({ feedback_id: existing.feedback_id });
    type = 0;
  } else if (existing) {
    await PageFeedback.updateOne(
      { feedback_id: existing.feedback_id },
      { $set: { feedback_type: type, addtime: nowSeconds() } },
    );
  } else if (type !== 0) {
    // The unique (page, voter) index turns a racing second submit into an update.
    await PageFeedback.updateOne(
      { page_id: page.page_id, voter },
      {
        $set: { feedback_type: type, addtime: nowSeconds() },
        $setOnInsert: {
          feedback_id: await nextId('page_feedback_id'),
          item_id: page.item_id,
          uid: Math.max(actor.uid, 0),
          client_id: actor.uid > 0 ? null : voter.slice(2),
        },
      },
      { upsert: true },
    );
  }
  return { ...(await counts(page.page_id)), user_feedback: type };
}
