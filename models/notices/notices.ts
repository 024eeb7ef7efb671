/**
 * The notice centre (reference accounts §9.20, spec 000 §4 "Messages"): reminders delivered to
 * users, read state, unread counts — and the wiring that turns page saves into reminders.
 *
 * Reminders come from "save and notify" (savePage calls the notifier this module plugs into pages):
 * every subscriber of the page who can still see it is reminded, except the person who saved
 * (ShowDoc reminded them too). Who that is, the reminders' ids and their text are found and
 * written while the page is written, and the deliveries beside the save's other writes, so the
 * notice leaves with the save rather than a chain of round trips after it. A page's creator is subscribed
 * when the page is created (on `page.saved`). A user marking or deleting a notice
 * publishes `unread.changed` for them; a new reminder batch publishes one `notice.created`, which
 * also stands for its recipients' new unread counts. The realtime service turns both into live
 * pushes and badge updates.
 *
 * Announcements live in models/announcements.ts; marking one read is handled here because the
 * client marks both kinds through one call (`message/setRead`).
 */
import {
  firstUnreadAnnouncement,
  isVisibleAnnouncement,
  unreadAnnouncementCounts,
} from './announcements';
import { findLiveItem, itemAccess, permits, type Actor } from '../access';
import {
  type DomainEvents,
  errors,
  type EventName,
  events,
  formatNow,
  nextId,
  nextIds,
  perContext,
  reservedId,
  ReadCache,
} from '../platform';
import {
  connectPageNotifier,
  findLivePage,
  Page,
  type PageDoc,
  type PageNotifier,
  pageVisible,
} from '../pages';
import { DELETED, Message, READ, UNREAD, type MessageDoc } from './schemas/message';
import { MessageContent, REMIND, type MessageContentDoc } from './schemas/messageContent';
import { PAGE_OBJECT, UPDATE_ACTION } from './schemas/subscription';
import { actorRowsOf, User } from '../accounts';
import {
  dropPageSubscriptions,
  pageAudience,
  pageSubscriberUids,
  subscribeToPage,
} from './subscriptions';

/** Characters kept of a reminder's text ("update remark"). */
export const MAX_REMINDER_TEXT = 1000;
/** Largest page of `message/getRemindList`. */
export const MAX_LIST_COUNT = 100;

// ---------------------------------------------------------------------------------------------
// Creating reminders

export interface NewReminder {
  fromUid: number;
  fromName: string;
  /** What happened: 'update' (page saved with notify); comments would add 'comment'… */
  actionType: string;
  objectType: string;
  objectId: number;
  text: string;
  /** Recipients, already checked by the caller. */
  toUids: number[];
}

/** The recipients once each, without anonymous or invalid ids. */
const recipientsOf = (uids: number[]) => [...new Set(uids.filter((uid) => uid > 0))];

/**
 * Content ids a process takes for its reminders at a time (models/platform/counters.ts
 * `reservedId`): the text is written with its id in hand, no counter round trip before it.
 * Nothing orders reminders by their content id (lists go by delivery id), and announcements
 * take theirs one by one, so a block only leaves gaps.
 */
export const REMINDER_CONTENT_ID_BLOCK = 16;

/**
 * One content row, one unread delivery per recipient (their ids taken as one range beside the
 * content row, the rows written by one insertMany), then one `notice.created` for all of them,
 * which carries the notice and stands for their unread counts too. Returns the content id (0
 * when there was nobody to tell).
 */
export async function createReminders(reminder: NewReminder): Promise<number> {
  const toUids = recipientsOf(reminder.toUids);
  if (!toUids.length) return 0;
  const [{ contentId, content }, ids] = await Promise.all([
    writeContent(reminder),
    nextIds('message_id', toUids.length),
  ]);
  await deliver({ fromUid: reminder.fromUid, toUids, contentId, ids, content });
  return contentId;
}

type NoticeContent = DomainEvents['notice.created']['content'];

/**
 * A batch whose content row is written: its deliveries (`ids` at least as long as `toUids`; the
 * rest stay unused, a gap) and its event are what is left. The content row goes first: a crash
 * in between leaves a text nobody is shown, never a delivery without its text.
 */
interface WrittenContent {
  fromUid: number;
  toUids: number[];
  contentId: number;
  ids: number[];
  content: NoticeContent;
}

/**
 * Writes a reminder's content row under an id from this process's block. An id already taken
 * (rows brought in with their own ids since the block was reserved) gets a fresh one from the
 * counter, once.
 */
async function writeContent(
  reminder: Omit<NewReminder, 'toUids'>,
): Promise<{ contentId: number; content: NoticeContent }> {
  const content = {
    from_name: reminder.fromName,
    message_type: REMIND,
    message_content: reminder.text.slice(0, MAX_REMINDER_TEXT),
    object_type: reminder.objectType,
    object_id: reminder.objectId,
    addtime: formatNow(),
  };
  const insert = (id: number) =>
    MessageContent.insertMany(
      [{ id, from_uid: reminder.fromUid, action_type: reminder.actionType, ...content }],
      { lean: true },
    );
  let contentId = await reservedId('message_content_id', REMINDER_CONTENT_ID_BLOCK);
  try {
    await insert(contentId);
  } catch (error) {
    if ((error as { code?: unknown }).code !== 11000) throw error;
    contentId = await nextId('message_content_id');
    await insert(contentId);
  }
  return { contentId, content };
}

/** Writes the batch's deliveries, then publishes its `notice.created`. */
async function deliver(batch: WrittenContent): Promise<void> {
  const { fromUid, toUids, contentId, ids, content } = batch;
  const rows: MessageDoc[] = toUids.map((uid, i) => ({
    id: ids[i],
    from_uid: fromUid,
    to_uid: uid,
    message_type: REMIND,
    message_content_id: contentId,
    status: UNREAD,
    addtime: content.addtime,
    readtime: '',
  }));
  await Message.insertMany(rows, { lean: true });
  events.publish('notice.created', {
    kind: 'remind',
    uids: toUids,
    messageContentId: contentId,
    content,
  });
}

type NoticeOfSave = Parameters<PageNotifier['prepare']>[0];

/**
 * The reminders of a "save and notify" on `page` (as the save leaves it): its subscribers but the
 * saver, those of them who can see the page, and their ids — the audience check beside the id
 * counters, whose range is sized for every subscriber (ids of those who may no longer see the
 * page stay unused: a gap, as a rolled-back write leaves) — and its content row, written beside
 * the page write with an id from this process's block (when the page write fails, or nobody may
 * be told after all, that text stays unshown). Null when nobody is to be told.
 */
async function preparePageReminders(notice: NoticeOfSave): Promise<WrittenContent | null> {
  const { page, byUid } = notice;
  const subscribed = await pageSubscriberUids(page.page_id);
  const subscribers = recipientsOf(subscribed.filter((uid) => uid !== byUid));
  if (!subscribers.length) return null;
  // The audience check is CPU work: it waits one turn of the event loop, so the save's writes
  // sent just now reach the engine first and their disk flush runs while it computes.
  const [audience, { contentId, content }, ids] = await Promise.all([
    new Promise((resolve) => setImmediate(resolve)).then(() => pageAudience(page, subscribers)),
    writeContent({
      fromUid: byUid,
      fromName: notice.fromName,
      actionType: UPDATE_ACTION,
      objectType: PAGE_OBJECT,
      objectId: page.page_id,
      text: notice.text,
    }),
    nextIds('message_id', subscribers.length),
  ]);
  const toUids = subscribers.filter((uid) => audience.has(uid));
  if (!toUids.length) return null;
  return { fromUid: byUid, toUids, contentId, ids, content };
}

/**
 * "Save and notify" after the fact: reminds the subscribers of the page as it is stored now who
 * can see it, but not the saver. Returns the content id (0 when nobody was told).
 */
export async function remindPageSubscribers(
  saved: Pick<DomainEvents['page.saved'], 'pageId' | 'byUid'> & { text: string },
): Promise<number> {
  const [page, from] = await Promise.all([
    findLivePage(saved.pageId),
    User.findOne({ uid: saved.byUid }, { username: 1, _id: 0 }).lean(),
  ]);
  if (!page) return 0;
  const batch = await preparePageReminders({
    page,
    byUid: saved.byUid,
    fromName: from?.username ?? '',
    text: saved.text,
  });
  if (!batch) return 0;
  await deliver(batch);
  return batch.contentId;
}

/**
 * The notifier savePage calls once the save has passed its checks: the preparation, content row
 * included, runs while the page is written (a save whose write then fails leaves that text
 * unshown, as a crash between the two writes would); `send`, once the page is written, writes the
 * deliveries and publishes their `notice.created`. Failures go to `onError`: the save itself has
 * succeeded.
 */
function pageNotifier(onError: (error: unknown) => void): PageNotifier {
  return {
    prepare(notice) {
      const prepared = preparePageReminders(notice);
      prepared.catch(() => {}); // awaited by send; a save that fails never sends
      return {
        async send() {
          try {
            const batch = await prepared;
            if (batch) await deliver(batch);
          } catch (error) {
            onError(error);
          }
        },
      };
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface Reminder {
  message: MessageDoc;
  content: MessageContentDoc | null;
  /** The page it is about, while the reader can still see it (its content left out). */
  page: Omit<PageDoc, 'page_content'> | null;
}

function requireUser(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

/** Adds each delivery's text and page (pages the reader cannot see any more are left out). */
async function render(actor: Actor, messages: MessageDoc[]): Promise<Reminder[]> {
  const contents = await MessageContent.find(
    { id: { $in: messages.map((m) => m.message_content_id) } },
    { _id: 0 },
  ).lean<MessageContentDoc[]>();
  const contentById = new Map(contents.map((c) => [c.id, c]));
  const pageIds = contents.filter((c) => c.object_type === PAGE_OBJECT).map((c) => c.object_id);
  const pages = await Page.find(
    { page_id: { $in: pageIds }, is_del: 0 },
    { page_content: 0, _id: 0 },
  ).lean<PageDoc[]>();
  const visible = new Map<number, Omit<PageDoc, 'page_content'>>();
  const accessByItem = new Map<number, Awaited<ReturnType<typeof itemAccess>>>();
  for (const page of pages) {
    if (!accessByItem.has(page.item_id)) {
      const item = await findLiveItem(page.item_id);
      accessByItem.set(page.item_id, item ? await itemAccess(actor, item) : null);
    }
    const access = accessByItem.get(page.item_id);
    if (access && permits(access, 'item.read') && (await pageVisible(actor, access, page)))
      visible.set(page.page_id, page);
  }
  return messages.map((message) => {
    const content = contentById.get(message.message_content_id) ?? null;
    const page =
      content?.object_type === PAGE_OBJECT ? (visible.get(content.object_id) ?? null) : null;
    return { message, content, page };
  });
}

export interface Paging {
  page: number;
  count: number;
}

/** Clamps client paging: page ≥ 1, 1 ≤ count ≤ MAX_LIST_COUNT. */
export function paging(page: number, count: number, defaultCount: number): Paging {
  return {
    page: page > 0 ? page : 1,
    count: count > 0 ? Math.min(count, MAX_LIST_COUNT) : defaultCount,
  };
}

const remindersOf = (uid: number) => ({
  to_uid: uid,
  message_type: REMIND,
  status: { $in: [UNREAD, READ] },
});

/** message/getRemindList: the user's reminders, newest first (deleted ones left out). */
export async function listReminders(
  actor: Actor,
  page: Paging,
): Promise<{ total: number; list: Reminder[] }> {
  requireUser(actor);
  const filter = remindersOf(actor.uid);
  const [total, messages] = await Promise.all([
    Message.countDocuments(filter),
    Message.find(filter, { _id: 0 })
      .sort({ id: -1 })
      .skip((page.page - 1) * page.count)
      .limit(page.count)
      .lean<MessageDoc[]>(),
  ]);
  return { total, list: await render(actor, messages) };
}

const unreadRemindersOf = (uid: number) => ({ to_uid: uid, message_type: REMIND, status: UNREAD });

/**
 * Users whose unread-reminder count is kept (read model; dropped on `unread.changed` and
 * `notice.created`).
 */
export const MAX_CACHED_UNREAD_COUNTS = 20_000;

/** An event listener dropping the kept counts of the users it names. */
const dropUsersOf =
  (cache: ReadCache<number, number>) =>
  ({ uids }: { uids: number[] }) => {
    for (const uid of uids) cache.drop(uid);
  };

const remindCounts = perContext((context) => {
  const cache = new ReadCache<number, number>({ maxEntries: MAX_CACHED_UNREAD_COUNTS });
  const drop = dropUsersOf(cache);
  context.bus.subscribe('unread.changed', drop, { synchronous: true });
  // A reminder batch changes its recipients' counts without an `unread.changed` of its own.
  context.bus.subscribe('notice.created', drop, { synchronous: true });
  return cache;
});

/** Unread reminders of a user (the `item/info` badge). 0 for anonymous visitors. */
export async function unreadRemindCount(uid: number): Promise<number> {
  if (!(uid > 0)) return 0;
  return remindCounts().get(uid, () => Message.countDocuments(unreadRemindersOf(uid)));
}

export interface UnreadCounts {
  remind: number;
  announce: number;
}

/**
 * Both unread counts of each of these users (pushed live by the realtime service on
 * `unread.changed` and `notice.created`): a fixed number of queries however many users — a
 * reminder to a thousand subscribers must not cost thousands of queries. Unknown users get zeros.
 */
export async function unreadCountsOf(uids: number[]): Promise<Map<number, UnreadCounts>> {
  const wanted = [...new Set(uids.filter((uid) => uid > 0))];
  const result = new Map<number, UnreadCounts>();
  if (!wanted.length) return result;
  const users = await actorRowsOf(wanted);
  const known = users.map((u) => u.uid);
  const [reminds, announces] = await Promise.all([
    Message.aggregate<{ _id: number; n: number }>([
      { $match: { to_uid: { $in: known }, message_type: REMIND, status: UNREAD } },
      { $group: { _id: '$to_uid', n: { $sum: 1 } } },
    ]),
    announceCounts().getMany(known, async (missing) => {
      const wanted = new Set(missing);
      return unreadAnnouncementCounts(users.filter((u) => wanted.has(u.uid)));
    }),
  ]);
  const remindBy = new Map(reminds.map((r) => [r._id, r.n]));
  for (const uid of wanted)
    result.set(uid, { remind: remindBy.get(uid) ?? 0, announce: announces.get(uid) ?? 0 });
  return result;
}

/**
 * Each user's unread announcements (read model), read with every batch of reminders' counts but
 * changed only by a new announcement (everyone's), the user reading one, or the user's own row
 * (an admin sees every announcement, others those after they registered).
 */
const announceCounts = perContext((context) => {
  const cache = new ReadCache<number, number>({ maxEntries: MAX_CACHED_UNREAD_COUNTS });
  context.bus.subscribe('unread.changed', dropUsersOf(cache), { synchronous: true });
  context.bus.subscribe('user.changed', ({ uid }) => cache.drop(uid), { synchronous: true });
  context.bus.subscribe(
    'notice.created',
    ({ kind }) => {
      if (kind === 'announce') cache.clear();
    },
    { synchronous: true },
  );
  return cache;
});

/** Both unread counts of one user. */
export async function unreadCounts(uid: number): Promise<UnreadCounts> {
  return (await unreadCountsOf([uid])).get(uid) ?? { remind: 0, announce: 0 };
}

/** message/getUnread: the newest unread reminder and the oldest unread announcement. */
export async function unreadNotices(
  actor: Actor,
): Promise<{ remind: Reminder | null; announce: MessageContentDoc | null }> {
  requireUser(actor);
  const [latest, announce] = await Promise.all([
    Message.findOne(unreadRemindersOf(actor.uid), { _id: 0 }).sort({ id: -1 }).lean<MessageDoc>(),
    firstUnreadAnnouncement(actor),
  ]);
  const [remind] = latest ? await render(actor, [latest]) : [null];
  return { remind, announce };
}

// ---------------------------------------------------------------------------------------------
// Read state

/**
 * message/setRead: marks the caller's notice with this content id read — a reminder delivery, or
 * (when there is none) an announcement they may see, by writing its read marker. The content id
 * alone names a notice, so `from_uid` (which ShowDoc also matched) is not needed. Unknown ids and
 * other people's notices change nothing.
 */
export async function markRead(actor: Actor, contentId: number): Promise<void> {
  requireUser(actor);
  if (!(contentId > 0)) return;
  const now = formatNow();
  const updated = await Message.updateMany(
    { to_uid: actor.uid, message_content_id: contentId, status: UNREAD },
    { $set: { status: READ, readtime: now } },
  );
  if (updated.modifiedCount > 0) {
    events.publish('unread.changed', { uids: [actor.uid] });
    return;
  }
  if (await Message.exists({ to_uid: actor.uid, message_content_id: contentId })) return;
  if (!(await isVisibleAnnouncement(actor, contentId))) return;
  try {
    await Message.create({
      id: await nextId('message_id'),
      from_uid: 0,
      to_uid: actor.uid,
      message_type: 'announce',
      message_content_id: contentId,
      status: READ,
      addtime: now,
      readtime: now,
    });
  } catch (error) {
    // Marked read by a concurrent call: nothing left to do.
    if ((error as { code?: unknown }).code === 11000) return;
    throw error;
  }
  events.publish('unread.changed', { uids: [actor.uid] });
}

/** message/delete: hides the caller's reminder with this content id. */
export async function deleteNotice(actor: Actor, contentId: number): Promise<void> {
  requireUser(actor);
  if (!(contentId > 0)) return;
  const wasUnread = await Message.exists({
    to_uid: actor.uid,
    message_content_id: contentId,
    status: UNREAD,
  });
  await Message.updateMany(
    { to_uid: actor.uid, message_content_id: contentId },
    { $set: { status: DELETED } },
  );
  if (wasUnread) events.publish('unread.changed', { uids: [actor.uid] });
}

// ---------------------------------------------------------------------------------------------
// Wiring

async function onPageSaved(saved: DomainEvents['page.saved']): Promise<void> {
  // ShowDoc subscribed the creator in page/save; imports create pages in bulk and did not.
  if (saved.created && saved.byUid > 0 && saved.origin !== 'import')
    await subscribeToPage(saved.byUid, saved.pageId);
}

/**
 * Starts the reminders of "save and notify" (the notifier plugged into savePage, which runs in
 * the process that saves, so a relay between processes cannot deliver a reminder twice) and
 * turning domain events into subscription changes: `page.saved` (creator subscription) and
 * `page.purged` (subscriptions of removed pages). Handlers never throw into the bus: failures go
 * to `onError`. Only events published by this process are handled. Returns the stop function.
 */
export function startNotifications(
  options: { onError?: (error: unknown, event: EventName) => void } = {},
): () => void {
  const guarded =
    <N extends EventName>(name: N, handler: (payload: DomainEvents[N]) => Promise<void>) =>
    async (payload: DomainEvents[N]) => {
      try {
        await handler(payload);
      } catch (error) {
        options.onError?.(error, name);
      }
    };
  const stops = [
    connectPageNotifier(pageNotifier((error) => options.onError?.(error, 'page.saved'))),
    events.subscribe('page.saved', guarded('page.saved', onPageSaved), { localOnly: true }),
    events.subscribe(
      'page.purged',
      guarded('page.purged', (purged) => dropPageSubscriptions(purged.pageIds)),
      { localOnly: true },
    ),
  ];
  return () => {
    for (const stop of stops) stop();
  };
}
