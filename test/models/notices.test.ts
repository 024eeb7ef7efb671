/**
 * The notice centre's model rules without HTTP: how a "save and notify" reaches subscribers (the
 * notifier plugged into savePage: rows written before the save answers, the notice published
 * before the save's own event, once per save), bus listeners that never throw into the bus, who
 * is reminded (the page as the save leaves it), unread counts, and the announcement HTML
 * allow-list.
 */
import { afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { addAnnouncement, sanitizeAnnouncementHtml } from '../../models/notices/announcements';
import { events, raiseCounter } from '../../models/platform';
import { type DomainEvents, type EventName } from '../../models/platform/events';
import {
  createReminders,
  remindPageSubscribers,
  startNotifications,
  markRead,
  REMINDER_CONTENT_ID_BLOCK,
  unreadCounts,
  unreadCountsOf,
} from '../../models/notices/notices';
import { Message } from '../../models/notices/schemas/message';
import { MessageContent } from '../../models/notices/schemas/messageContent';
import { Subscription } from '../../models/notices/schemas/subscription';
import { subscribeToPage } from '../../models/notices/subscriptions';
import { savePage } from '../../models/pages';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

serverSuite();
let owner: TestUser;
let admin: TestUser;
let member: TestUser;
let itemId: number;
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

beforeAll(async () => {
  [owner, member, admin] = await Promise.all([makeUser(), makeUser(), makeUser({ admin: true })]);
  ({ item_id: itemId } = await makeItem(owner, { password: 'pw' }));
  await addMember(itemId, member, 1);
});

/** Polls until `accept` holds (bus listeners run after the publishing call returns). */
async function waitFor(accept: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await accept())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

function savedEvent(pageId: number, byUid: number, text: string): DomainEvents['page.saved'] {
  return {
    itemId,
    pageId,
    catId: 0,
    byUid,
    created: false,
    origin: 'rest',
    notify: { content: text },
  };
}

/** Saves `page` as `by` with "save and notify" (and any other changes in `input`). */
async function saveAndNotify(
  by: TestUser,
  page: { page_id: number; page_title: string },
  text: string,
  input: { catId?: number; isDraft?: number } = {},
) {
  return savePage(
    await actorOf(by),
    {
      pageId: page.page_id,
      itemId,
      title: page.page_title,
      content: `content ${text}`,
      notify: { content: text },
      ...input,
    },
    { origin: 'rest' },
  );
}

/** Who was reminded by the reminder text `text`. */
async function remindedBy(text: string): Promise<number[]> {
  const content = await MessageContent.findOne({ message_content: text }).lean();
  if (!content) return [];
  const rows = await Message.find({ message_content_id: content.id }).lean();
  return rows.map((r) => r.to_uid).sort((a, b) => a - b);
}

describe('save and notify', () => {
  test('the reminders are written before the save answers, and their notice is published before the save’s own page.saved', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    const order: string[] = [];
    cleanups.push(
      events.subscribe('notice.created', (n) => {
        if (n.content.message_content === 'in order') order.push('notice.created');
      }),
      events.subscribe('page.saved', (saved) => {
        if (saved.notify?.content === 'in order') order.push('page.saved');
      }),
    );
    await saveAndNotify(owner, page, 'in order');
    // No waiting: the rows are there when savePage returns.
    expect(await remindedBy('in order')).toEqual([member.uid]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['notice.created', 'page.saved']);
  });

  test('page.saved events on the bus, published here or relayed, remind nobody: reminders come from the save itself, once', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    events.publish('page.saved', savedEvent(page.page_id, owner.uid, 'relayed'), { remote: true });
    events.publish('page.saved', savedEvent(page.page_id, owner.uid, 'published'));
    await saveAndNotify(owner, page, 'saved');
    await new Promise((resolve) => setTimeout(resolve, 50));
    const contents = await MessageContent.find({
      object_id: page.page_id,
      message_type: 'remind',
    }).lean();
    expect(contents.map((c) => c.message_content)).toEqual(['saved']);
    expect(await remindedBy('saved')).toEqual([member.uid]);
  });

  test('a save refused by its checks (a catalog that does not exist) writes no reminder and no text', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    await expect(saveAndNotify(owner, page, 'refused', { catId: 999_999 })).rejects.toThrow();
    expect(await MessageContent.exists({ message_content: 'refused' })).toBeNull();
    expect(await remindedBy('refused')).toEqual([]);
  });

  test('a second notifier takes over while it runs and hands back when stopped: each save reminds once', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    const stop = startNotifications();
    await saveAndNotify(owner, page, 'with two');
    stop();
    await saveAndNotify(owner, page, 'with one');
    expect(await remindedBy('with two')).toEqual([member.uid]);
    expect(await remindedBy('with one')).toEqual([member.uid]);
  });

  test('a failing listener reports to onError instead of throwing into the bus, which keeps working', async () => {
    const failures: Array<{ event: EventName; error: unknown }> = [];
    cleanups.push(
      startNotifications({ onError: (error, event) => failures.push({ event, error }) }),
    );
    // A malformed payload (as a buggy publisher might send) makes the purge listener fail.
    events.publish('page.purged', { itemId, pageIds: null as unknown as number[] });
    await waitFor(() => failures.length > 0);
    expect(failures[0].event).toBe('page.purged');

    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    events.publish('page.purged', { itemId, pageIds: [page.page_id] });
    await waitFor(async () => !(await Subscription.exists({ object_id: page.page_id })));
    expect(await Subscription.countDocuments({ object_id: page.page_id })).toBe(0);
  });
});

describe('who is reminded', () => {
  test('nobody but the author sees a draft, so a notify on it reminds no one', async () => {
    const draft = await makePage(owner, itemId, { isDraft: 1 });
    await subscribeToPage(member.uid, draft.page_id);
    const before = await Message.countDocuments();
    expect(
      await remindPageSubscribers({ pageId: draft.page_id, byUid: owner.uid, text: 'draft' }),
    ).toBe(0);
    expect(await Message.countDocuments()).toBe(before);
  });

  test('a page that does not exist (or was deleted) reminds no one', async () => {
    expect(await remindPageSubscribers({ pageId: 999_999, byUid: owner.uid, text: 'x' })).toBe(0);
  });

  test('the page as the save leaves it decides: a save that makes it a draft reminds no one, one that publishes a draft reminds its subscribers', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    await saveAndNotify(owner, page, 'now a draft', { isDraft: 1 });
    expect(await remindedBy('now a draft')).toEqual([]);
    await saveAndNotify(owner, page, 'published again', { isDraft: 0 });
    expect(await remindedBy('published again')).toEqual([member.uid]);
  });

  test('a save that moves the page out of a restricted member’s catalogs does not remind them; one that moves it in does', async () => {
    const { item_id: restrictedItem } = await makeItem(owner);
    const [inside, outside] = await Promise.all([
      makeCatalog(owner, restrictedItem, 'Inside'),
      makeCatalog(owner, restrictedItem, 'Outside'),
    ]);
    const narrowed = await makeUser();
    const everywhere = await makeUser();
    await addMember(restrictedItem, narrowed, 0, [inside]);
    await addMember(restrictedItem, everywhere, 0);
    const page = await makePage(owner, restrictedItem, { catId: inside });
    await subscribeToPage(narrowed.uid, page.page_id);
    await subscribeToPage(everywhere.uid, page.page_id);
    const actor = await actorOf(owner);
    const save = (text: string, catId: number) =>
      savePage(
        actor,
        {
          pageId: page.page_id,
          itemId: restrictedItem,
          title: page.page_title,
          content: text,
          catId,
          notify: { content: text },
        },
        { origin: 'rest' },
      );
    await save('moved out', outside);
    expect(await remindedBy('moved out')).toEqual([everywhere.uid]);
    await save('moved back', inside);
    expect(await remindedBy('moved back')).toEqual(
      [narrowed.uid, everywhere.uid].sort((a, b) => a - b),
    );
  });

  test('a content id taken meanwhile (rows brought in with their own ids) gives way to a fresh one from the counter', async () => {
    const remind = () =>
      createReminders({
        fromUid: owner.uid,
        fromName: owner.username,
        actionType: 'update',
        objectType: 'page',
        objectId: 1,
        text: 'taken',
        toUids: [member.uid],
      });
    const first = await remind();
    // Every id of this process's block after `first` is written by someone else, who moves the
    // counter past them (as an import does).
    await raiseCounter('message_content_id', first + REMINDER_CONTENT_ID_BLOCK);
    await MessageContent.insertMany(
      Array.from({ length: REMINDER_CONTENT_ID_BLOCK }, (_, i) => ({
        id: first + 1 + i,
        message_type: 'remind',
        addtime: '2026-01-01 00:00:00',
      })),
    );
    const second = await remind();
    expect(second).toBeGreaterThan(first + REMINDER_CONTENT_ID_BLOCK);
    expect((await MessageContent.findOne({ id: second }).lean())?.message_content).toBe('taken');
    expect(await Message.countDocuments({ message_content_id: second, to_uid: member.uid })).toBe(
      1,
    );
  });

  test('createReminders writes one content row and one delivery per distinct recipient (one id range), text capped, one event', async () => {
    const other: TestUser = await makeUser();
    const unread: number[][] = [];
    const notices: DomainEvents['notice.created'][] = [];
    cleanups.push(events.subscribe('unread.changed', ({ uids }) => void unread.push(uids)));
    cleanups.push(events.subscribe('notice.created', (notice) => void notices.push(notice)));
    const id = await createReminders({
      fromUid: owner.uid,
      fromName: owner.username,
      actionType: 'update',
      objectType: 'page',
      objectId: 1,
      text: 'y'.repeat(5000),
      toUids: [member.uid, other.uid, member.uid, 0, -5],
    });
    const rows = await Message.find({ message_content_id: id }).lean();
    expect(rows.map((r) => r.to_uid).sort()).toEqual([member.uid, other.uid].sort());
    expect((await MessageContent.findOne({ id }).lean())!.message_content).toHaveLength(1000);
    expect(
      await createReminders({
        fromUid: 1,
        fromName: '',
        actionType: 'update',
        objectType: 'page',
        objectId: 1,
        text: '',
        toUids: [],
      }),
    ).toBe(0);
    await new Promise((resolve) => setImmediate(resolve));
    // one event for the whole batch, naming each recipient once and carrying the capped text;
    // it stands for their unread counts too
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatchObject({ kind: 'remind', messageContentId: id });
    expect([...notices[0].uids].sort()).toEqual([member.uid, other.uid].sort());
    expect(notices[0].content.message_content).toBe('y'.repeat(1000));
    expect(unread).toEqual([]);
    // the deliveries' ids are distinct and consecutive (one range)
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    expect(ids[1] - ids[0]).toBe(1);
  });
});

describe('unreadCounts', () => {
  test('counts unread reminders and unread visible announcements; nothing for anonymous or unknown users', async () => {
    const user = await makeUser();
    const before = await unreadCounts(user.uid);
    await createReminders({
      fromUid: owner.uid,
      fromName: owner.username,
      actionType: 'update',
      objectType: 'page',
      objectId: 1,
      text: 'x',
      toUids: [user.uid],
    });
    const { id } = await addAnnouncement(await actorOf(admin), {
      content: 'news',
      type: 'announce_all',
      sendAt: '2099-01-01 00:00:00',
    });
    expect(await unreadCounts(user.uid)).toEqual({
      remind: before.remind + 1,
      announce: before.announce + 1,
    });
    expect(await unreadCounts(0)).toEqual({ remind: 0, announce: 0 });
    expect(await unreadCounts(987_654)).toEqual({ remind: 0, announce: 0 });
    // Kept counts follow what changes them: the user reading the announcement, another one.
    await markRead(await actorOf(user), id);
    expect(await unreadCountsOf([user.uid, admin.uid])).toEqual(
      new Map([
        [user.uid, { remind: before.remind + 1, announce: before.announce }],
        [admin.uid, { remind: 0, announce: (await unreadCounts(admin.uid)).announce }],
      ]),
    );
    await addAnnouncement(await actorOf(admin), {
      content: 'more',
      type: 'announce_all',
      sendAt: '2099-01-02 00:00:00',
    });
    expect((await unreadCounts(user.uid)).announce).toBe(before.announce + 1);
  });
});

describe('sanitizeAnnouncementHtml', () => {
  test.each([
    ['<P class="x">Hi</P><br/><BR>', '<p>Hi</p><br /><br />'],
    ['<scr<script>ipt>alert(1)</script>', 'ipt&gt;alert(1)'],
    ['<!-- <script>x</script> -->after', 'after'],
    [
      '<a href=\'/docs\'>in</a><a href=#top>top</a><a href="mailto:a@b.c">m</a>',
      '<a href="/docs" rel="noopener noreferrer">in</a><a href="#top" rel="noopener noreferrer">top</a><a href="mailto:a@b.c" rel="noopener noreferrer">m</a>',
    ],
    ['<a href=" JaVaScRiPt:alert(1)">x</a><a href="data:text/html,x">y</a>', '<a>x</a><a>y</a>'],
    ['<img src=x onerror="a>b">text', 'b"&gt;text'],
    ['<svg><g onload=alert(1)></g></svg><iframe src=//x></iframe>', ''],
    [
      'plain & <b>bold</b> <strong>s</strong> <em>e</em> <code>c</code>',
      'plain & <b>bold</b> <strong>s</strong> <em>e</em> <code>c</code>',
    ],
  ])('%s', (input, output) => {
    expect(sanitizeAnnouncementHtml(input)).toBe(output);
  });
});
