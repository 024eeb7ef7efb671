/**
 * Page subscriptions (reference pages §6): who is reminded when a page is saved with "save and
 * notify". A page's creator is subscribed when the page is created; its editors manage the list
 * from the notify dialog.
 *
 * Who may be on the list — and who is reminded — is the page's audience: the item's owner, its
 * members (personal or through a team) and site admins, provided they can still see the page
 * (catalog restriction, drafts). ShowDoc accepted any user id here (§15.15), which let an editor
 * push reminders — with page titles — to strangers; Quire refuses such ids, and checks again at
 * notify time so that people who lost access since are not told about the page.
 */
import { findLiveItem, itemAccessOfMany, permits, type Actor } from '../access';
import { errors, events, formatNow, nextId, perContext, ReadCache } from '../platform';
import { type PageDoc, pageVisibleToMany, requirePage } from '../pages';
import {
  PAGE_OBJECT,
  Subscription,
  UPDATE_ACTION,
  type SubscriptionDoc,
} from './schemas/subscription';
import { actorRowsOf, User } from '../accounts';

/** User ids one savePage/deletePage call may name. */
export const MAX_SUBSCRIBERS_PER_CALL = 500;

const PAGE_UPDATES = { object_type: PAGE_OBJECT, action_type: UPDATE_ACTION } as const;

/** Pages whose subscriber list is kept (read model; dropped on `subscriptions.changed`). */
export const MAX_CACHED_SUBSCRIBER_LISTS = 5_000;

/**
 * Each page's subscriber ids, read on every "save and notify" (before any reminder can go out):
 * kept, and dropped when a subscription of the page is written or the page is purged.
 */
const subscriberLists = perContext((context) => {
  const cache = new ReadCache<number, readonly number[]>({
    maxEntries: MAX_CACHED_SUBSCRIBER_LISTS,
  });
  const drop = ({ pageIds }: { pageIds: number[] }) => {
    for (const pageId of pageIds) cache.drop(pageId);
  };
  context.bus.subscribe('subscriptions.changed', drop, { synchronous: true });
  context.bus.subscribe('page.purged', drop, { synchronous: true });
  return cache;
});

function subscriptionsChanged(pageIds: number[]): void {
  events.publish('subscriptions.changed', { pageIds });
}

function requireUser(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

/** The page, if the actor may edit it (the notify dialog is an editor's tool). */
async function editablePage(actor: Actor, pageId: number): Promise<PageDoc> {
  const { page } = await requirePage(actor, pageId, {
    action: 'subscription.manage',
  });
  return page;
}

/** Those of `uids` who may be told about the page (see the header), as a set. */
export async function pageAudience(
  page: Pick<PageDoc, 'item_id' | 'cat_id' | 'is_draft' | 'author_uid'>,
  uids: number[],
): Promise<Set<number>> {
  if (!uids.length) return new Set();
  const item = await findLiveItem(page.item_id);
  if (!item) return new Set();
  const users = await actorRowsOf(uids);
  const actors: Actor[] = users.map((u) => ({
    uid: u.uid,
    username: u.username,
    groupid: u.groupid,
  }));
  // Everyone's membership at once (a page with hundreds of subscribers must not wait for
  // hundreds of lookups), then the page check for all of them, with one catalog tree.
  const accessOf = await itemAccessOfMany(actors, item);
  const connected = actors.flatMap((actor) => {
    const access = accessOf.get(actor.uid);
    if (!access || !permits(access, 'item.read') || !permits(access, 'item.belong')) return [];
    return [{ actor, access }];
  });
  return pageVisibleToMany(connected, page);
}

export interface SubscriberRow {
  subscription: SubscriptionDoc;
  username: string;
  name: string;
}

/** subscription/getPageList: the page's subscribers with their names (page_id ≤ 0: none). */
export async function listPageSubscribers(actor: Actor, pageId: number): Promise<SubscriberRow[]> {
  requireUser(actor);
  if (!(pageId > 0)) return [];
  const page = await editablePage(actor, pageId);
  const rows = await Subscription.find({ object_id: page.page_id, ...PAGE_UPDATES }, { _id: 0 })
    .sort({ id: 1 })
    .lean<SubscriptionDoc[]>();
  const users = await User.find(
    { uid: { $in: rows.map((r) => r.uid) } },
    { uid: 1, username: 1, name: 1, _id: 0 },
  ).lean();
  const byUid = new Map(users.map((u) => [u.uid, u]));
  return rows.map((subscription) => {
    const user = byUid.get(subscription.uid);
    return { subscription, username: user?.username ?? '', name: user?.name ?? '' };
  });
}

function checkUids(uids: number[]): number[] {
  const unique = [...new Set(uids)];
  if (unique.length > MAX_SUBSCRIBERS_PER_CALL)
    throw errors.failed(`At most ${MAX_SUBSCRIBERS_PER_CALL} users per call`);
  if (unique.some((uid) => !(uid > 0))) throw errors.failed('Invalid user id');
  return unique;
}

function requirePageId(pageId: number): void {
  if (!(pageId > 0)) throw errors.refused('page_id is required');
}

/** Subscribes one user to a page's updates (idempotent; no access check: callers made it). */
export async function subscribeToPage(uid: number, pageId: number): Promise<void> {
  if (!(uid > 0) || !(pageId > 0)) return;
  const filter = { uid, object_id: pageId, ...PAGE_UPDATES };
  if (await Subscription.exists(filter)) return;
  try {
    await Subscription.create({
      ...filter,
      id: await nextId('subscription_id'),
      sub_time: formatNow(),
    });
  } catch (error) {
    // Subscribed concurrently: the row exists, which is what was asked.
    if ((error as { code?: unknown }).code !== 11000) throw error;
  }
  subscriptionsChanged([pageId]);
}

/**
 * subscription/savePage: subscribes these users to the page. Every one must belong to the page's
 * audience, else nothing is written.
 */
export async function subscribeUsers(actor: Actor, pageId: number, uids: number[]): Promise<void> {
  requireUser(actor);
  requirePageId(pageId);
  const page = await editablePage(actor, pageId);
  const wanted = checkUids(uids);
  const audience = await pageAudience(page, wanted);
  const outsider = wanted.find((uid) => !audience.has(uid));
  if (outsider !== undefined)
    throw errors.failed(`User ${outsider} is not a member of this item or cannot see this page`);
  for (const uid of wanted) await subscribeToPage(uid, page.page_id);
}

/** subscription/deletePage: removes these users' subscriptions to the page. */
export async function unsubscribeUsers(
  actor: Actor,
  pageId: number,
  uids: number[],
): Promise<void> {
  requireUser(actor);
  requirePageId(pageId);
  const page = await editablePage(actor, pageId);
  const unwanted = checkUids(uids);
  if (!unwanted.length) return;
  await Subscription.deleteMany({
    object_id: page.page_id,
    ...PAGE_UPDATES,
    uid: { $in: unwanted },
  });
  subscriptionsChanged([page.page_id]);
}

/** Everyone subscribed to a page's updates (through the read model). */
export async function pageSubscriberUids(pageId: number): Promise<readonly number[]> {
  return subscriberLists().get(pageId, async () => {
    const rows = await Subscription.find(
      { object_id: pageId, ...PAGE_UPDATES },
      { uid: 1, _id: 0 },
    ).lean();
    return rows.map((r) => r.uid);
  });
}

/** Pages removed for good take their subscriptions with them. */
export async function dropPageSubscriptions(pageIds: number[]): Promise<void> {
  if (!pageIds.length) return;
  await Subscription.deleteMany({ object_id: { $in: pageIds }, object_type: PAGE_OBJECT });
  subscriptionsChanged(pageIds);
}

/**
 * The rows only, inside models/backOffice's purge transaction (its `page.purged`, published after
 * the commit, reaches `dropPageSubscriptions` for the caches).
 */
export async function purgePageSubscriptions(pageIds: number[]): Promise<void> {
  await Subscription.deleteMany({ object_type: PAGE_OBJECT, object_id: { $in: pageIds } });
}
