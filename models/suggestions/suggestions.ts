/**
 * Suggest mode (issue #41): proposals to change a page's text that wait for review instead of
 * changing it. Who may propose: anyone who may edit the page (the editor's Suggesting switch),
 * and — when the item's `suggest_only_readers` is on — its read-only members too (they may
 * propose, never change). Who may accept or reject: those who may edit the page. Accepting applies
 * the change to the page's saved text and saves a version through the one save path (savePage),
 * which replays only that change into the open live document, so what editors typed meanwhile
 * stays; a rejected suggestion just closes. Suggestions never enter `page_content` on their own:
 * saved versions hold only accepted text.
 *
 * Every change publishes `suggestion.changed` (realtime pushes it to the page's room; open editors
 * and readers reload the list); a proposal reminds the page's subscribers.
 */
import { type Actor, type ItemAccess, maySuggest, permits } from '../access';
import { createReminders, pageAudience, pageSubscriberUids } from '../notices';
import { requirePage, savePage, type PageWithAccess } from '../pages';
import { errors, events, nextIds, nowSeconds, perContext, ReadCache } from '../platform';
import { anchorAt, ANCHOR_CONTEXT, locateAnchor } from './anchor';
import {
  PageSuggestion,
  type PageSuggestionDoc,
  SUGGESTION_ACCEPTED,
  SUGGESTION_OPEN,
  SUGGESTION_REJECTED,
} from './schemas';

/** Changes one proposal may carry, and the text one change may hold. */
export const MAX_CHANGES_PER_PROPOSAL = 50;
export const MAX_SUGGESTION_TEXT = 100_000;
/** Open suggestions a page may hold (a runaway agent cannot bury it). */
export const MAX_OPEN_PER_PAGE = 500;

export interface ProposedChange {
  /** Offset of `old_text` in the text the proposer saw. */
  from: number;
  old_text: string;
  new_text: string;
  /** Up to ANCHOR_CONTEXT characters before and after, as the proposer saw them. */
  before: string;
  after: string;
}

/** An AI agent proposing through an MCP token. */
export interface SuggestionAgent {
  label: string;
  tokenId: number;
}

/**
 * Whether an AI agent's text change must arrive as suggestions: the item is in suggest mode and
 * the token was not allowed to write directly.
 */
export function agentMustSuggest(access: ItemAccess, writeDirectly: boolean): boolean {
  return access.item.suggest_only_readers === 1 && !writeDirectly;
}

function checkChanges(changes: ProposedChange[]): void {
  if (!changes.length) throw errors.failed('No change to suggest');
  if (changes.length > MAX_CHANGES_PER_PROPOSAL)
    throw errors.failed(`At most ${MAX_CHANGES_PER_PROPOSAL} changes per suggestion`);
  for (const change of changes) {
    if (!Number.isSafeInteger(change.from) || change.from < 0)
      throw errors.failed('Invalid suggestion position');
    if (change.old_text === change.new_text) throw errors.failed('The suggestion changes nothing');
    if (
      change.old_text.length > MAX_SUGGESTION_TEXT ||
      change.new_text.length > MAX_SUGGESTION_TEXT
    )
      throw errors.failed(`A suggestion may change at most ${MAX_SUGGESTION_TEXT} characters`);
    if (change.before.length > ANCHOR_CONTEXT * 4 || change.after.length > ANCHOR_CONTEXT * 4)
      throw errors.failed('The suggestion context is too long');
  }
}

/**
 * Records proposed changes to a page (each found in the saved text first: a change to text the
 * page no longer holds is refused). Returns the new suggestions' ids.
 */
export async function proposeSuggestions(
  actor: Actor,
  input: {
    pageId: number;
    changes: ProposedChange[];
    itemPassword?: string;
    agent?: SuggestionAgent;
  },
): Promise<number[]> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  checkChanges(input.changes);
  const { page, access } = await requirePage(actor, input.pageId, {
    action: 'page.read',
    itemPassword: input.itemPassword,
  });
  if (!maySuggest(access, actor))
    throw errors.noEditPermission('No permission to suggest changes to this page');
  const open = await PageSuggestion.countDocuments({
    page_id: page.page_id,
    status: SUGGESTION_OPEN,
  });
  if (open + input.changes.length > MAX_OPEN_PER_PAGE)
    throw errors.failed(`This page already has ${open} open suggestions: review them first`);
  const text = page.page_content;
  const anchored = input.changes.map((change) => {
    const at = locateAnchor(text, change);
    if (at < 0)
      throw errors.failed('The text this suggestion changes is no longer in the page: reload it');
    return { ...anchorAt(text, at, at + change.old_text.length), new_text: change.new_text };
  });
  const ids = await nextIds('page_suggestion_id', anchored.length);
  const now = nowSeconds();
  await PageSuggestion.insertMany(
    anchored.map((change, i) => ({
      suggestion_id: ids[i],
      page_id: page.page_id,
      item_id: page.item_id,
      uid: actor.uid,
      author_name: input.agent?.label ?? actor.username,
      token_id: input.agent?.tokenId ?? 0,
      ...change,
      status: SUGGESTION_OPEN,
      addtime: now,
    })),
  );
  events.publish('suggestion.changed', {
    itemId: page.item_id,
    pageId: page.page_id,
    change: 'proposed',
    byUid: actor.uid,
  });
  await remindSubscribers(page, actor, input.agent?.label ?? actor.username, anchored.length);
  return ids;
}

/** Pages whose open-suggestion count is kept (read model: a few bytes each). */
export const MAX_CACHED_SUGGESTION_COUNTS = 50_000;

/**
 * Open-suggestion counts by page, and the set of pages that have any, both dropped on
 * `suggestion.changed` (every proposal, acceptance and rejection publishes it): page/info, the
 * hottest read, asks on every call, and most pages have none — they are answered from the set
 * (one query after each change, not one per page).
 */
const openCounts = perContext((context) => {
  const counts = new ReadCache<number, number>({ maxEntries: MAX_CACHED_SUGGESTION_COUNTS });
  const pages = new ReadCache<'open', ReadonlySet<number>>({ maxEntries: 1 });
  context.bus.subscribe(
    'suggestion.changed',
    ({ pageId }) => {
      counts.drop(pageId);
      pages.drop('open');
    },
    { synchronous: true },
  );
  return { counts, pages };
});

/** How many open suggestions a page has (page/info: the reader loads the list only when some). */
export async function countOpenSuggestions(pageId: number): Promise<number> {
  const { counts, pages } = openCounts();
  const withSome = await pages.get('open', async () => {
    const ids: number[] = await PageSuggestion.distinct('page_id', { status: SUGGESTION_OPEN });
    return new Set(ids);
  });
  if (!withSome.has(pageId)) return 0;
  return counts.get(pageId, () =>
    PageSuggestion.countDocuments({ page_id: pageId, status: SUGGESTION_OPEN }),
  );
}

/**
 * Tells the page's subscribers (but the proposer) who may still see it: a reminder of its own kind
 * (`suggest`), which the web client words as "… suggested changes to the page".
 */
async function remindSubscribers(
  page: PageWithAccess['page'],
  actor: Actor,
  who: string,
  count: number,
): Promise<void> {
  const others = (await pageSubscriberUids(page.page_id)).filter((uid) => uid !== actor.uid);
  if (!others.length) return;
  const audience = await pageAudience(page, others);
  await createReminders({
    fromUid: actor.uid,
    fromName: who,
    actionType: 'suggest',
    objectType: 'page',
    objectId: page.page_id,
    text: `${who} 提出了 ${count} 条修改建议: ${page.page_title}`,
    toUids: others.filter((uid) => audience.has(uid)),
  });
}

export interface SuggestionList {
  suggestions: PageSuggestionDoc[];
  /** The caller may accept and reject. */
  canReview: boolean;
  /** The caller may propose. */
  canSuggest: boolean;
}

/** The page's open suggestions, oldest first (anyone who may read the page sees them). */
export async function listSuggestions(
  actor: Actor,
  input: { pageId: number; itemPassword?: string },
): Promise<SuggestionList> {
  const { page, access } = await requirePage(actor, input.pageId, {
    action: 'page.read',
    itemPassword: input.itemPassword,
    askPassword: true,
  });
  const suggestions = await PageSuggestion.find(
    { page_id: page.page_id, status: SUGGESTION_OPEN },
    { _id: 0 },
  )
    .sort({ suggestion_id: 1 })
    .lean<PageSuggestionDoc[]>();
  return {
    suggestions,
    canReview: permits(access, 'page.update') && actor.token?.permission !== 'read',
    canSuggest: actor.uid > 0 && maySuggest(access, actor),
  };
}

/** Whom a review picks: some suggestions by id, or every open one of an author. */
export interface ReviewInput {
  pageId: number;
  accept: boolean;
  ids?: number[];
  /** `user:<uid>` or `token:<id>` (SuggestionList rows' authorKey). */
  authorKey?: string;
}

export interface ReviewResult {
  accepted: number[];
  rejected: number[];
  /** Asked to accept but their text is gone from the page (left open). */
  stale: number[];
}

/** `user:<uid>` for a person, `token:<id>` for an agent. */
export function authorKeyOf(s: Pick<PageSuggestionDoc, 'uid' | 'token_id'>): string {
  return s.token_id > 0 ? `token:${s.token_id}` : `user:${s.uid}`;
}

async function reviewTarget(actor: Actor, pageId: number): Promise<PageWithAccess> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  return requirePage(actor, pageId, { action: 'suggestion.review' });
}

/**
 * Accepts or rejects suggestions of a page. Accepting applies them to the saved text (latest
 * position first, so earlier ones keep their place) and saves one version with them.
 */
export async function reviewSuggestions(actor: Actor, input: ReviewInput): Promise<ReviewResult> {
  const { page } = await reviewTarget(actor, input.pageId);
  const ids = (input.ids ?? []).filter((id) => Number.isSafeInteger(id) && id > 0);
  if (!ids.length && !input.authorKey) throw errors.failed('Name the suggestions to review');
  const open = await PageSuggestion.find(
    { page_id: page.page_id, status: SUGGESTION_OPEN },
    { _id: 0 },
  ).lean<PageSuggestionDoc[]>();
  const picked = open.filter((s) =>
    ids.length ? ids.includes(s.suggestion_id) : authorKeyOf(s) === input.authorKey,
  );
  if (!picked.length) throw errors.failed('No open suggestion matches');
  const result: ReviewResult = { accepted: [], rejected: [], stale: [] };
  if (!input.accept) result.rejected = picked.map((s) => s.suggestion_id);
  else {
    let text = page.page_content;
    const placed = picked
      .map((s) => ({ s, at: locateAnchor(text, s) }))
      .sort((a, b) => b.at - a.at);
    for (const { s, at } of placed) {
      // Found again in the text as it is now: an earlier (later-placed) one may have changed it.
      const where = at < 0 ? -1 : locateAnchor(text, { ...s, from: at });
      if (where < 0) {
        result.stale.push(s.suggestion_id);
        continue;
      }
      text = text.slice(0, where) + s.new_text + text.slice(where + s.old_text.length);
      result.accepted.push(s.suggestion_id);
    }
    if (!result.accepted.length)
      throw errors.failed('The text these suggestions change is no longer in the page');
    if (text !== page.page_content)
      await savePage(
        actor,
        { pageId: page.page_id, itemId: page.item_id, title: page.page_title, content: text },
        { origin: 'rest', rebase: true },
      );
  }
  const closed = [...result.accepted, ...result.rejected];
  await PageSuggestion.updateMany(
    { suggestion_id: { $in: closed }, status: SUGGESTION_OPEN },
    {
      $set: {
        status: input.accept ? SUGGESTION_ACCEPTED : SUGGESTION_REJECTED,
        resolved_uid: actor.uid,
        resolved_time: nowSeconds(),
      },
    },
  );
  events.publish('suggestion.changed', {
    itemId: page.item_id,
    pageId: page.page_id,
    change: input.accept ? 'accepted' : 'rejected',
    byUid: actor.uid,
  });
  return result;
}
