/**
 * The notice centre over real HTTP: reminders from "save and notify" (who is told, and who is
 * not), message/* lists, unread state and its events, item/info's unread badge, and system
 * announcements published through adminMessage/*.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { removeMember } from '../../models/members/members';
import { Message } from '../../models/notices/schemas/message';
import { MessageContent } from '../../models/notices/schemas/messageContent';
import { User } from '../../models/accounts/schemas/user';
import { subscribeToPage } from '../../models/notices/subscriptions';
import { nowSeconds } from '../../models/platform/time';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let owner: TestUser;
let saver: TestUser;
let alice: TestUser;
let bob: TestUser;
let admin: TestUser;
let stranger: TestUser;
let itemId: number;
const as = (user: TestUser) => server.api.withToken(user.user_token);

/** Records what the notice centre publishes while a test runs. */
let recorded: { unread: number[]; notices: DomainEvents['notice.created'][] };
let stopRecording: () => void = () => {};
function record() {
  recorded = { unread: [], notices: [] };
  const stops = [
    events.subscribe('unread.changed', ({ uids }) => {
      recorded.unread.push(...uids);
    }),
    events.subscribe('notice.created', (notice) => {
      recorded.notices.push(notice);
    }),
  ];
  stopRecording = () => stops.forEach((stop) => stop());
}
afterEach(() => stopRecording());

async function eventually(accept: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 5000;
  while (!(await accept()) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

/** A page of `itemId` by the owner, with these users subscribed besides the owner. */
async function subscribedPage(users: TestUser[], opts: { catId?: number; item?: number } = {}) {
  const page = await makePage(owner, opts.item ?? itemId, { catId: opts.catId });
  for (const user of users) await subscribeToPage(user.uid, page.page_id);
  // The owner's own subscription is written by the bus listener after the save.
  await subscribeToPage(owner.uid, page.page_id);
  return page;
}

/** page/save with "save and notify", then waits for the reminders it causes. */
async function saveAndNotify(
  by: TestUser,
  page: { page_id: number; item_id: number },
  text: string,
) {
  const before = recorded.notices.length;
  await as(by).ok('page/save', {
    page_id: page.page_id,
    item_id: page.item_id,
    page_title: 'Notified',
    page_content: `content ${text}`,
    is_notify: 1,
    notify_content: text,
  });
  await eventually(() => recorded.notices.length > before);
  return recorded.notices[before];
}

const unreadCount = async (user: TestUser) =>
  (await as(user).ok<{ unread_count: number }>('item/info', { item_id: itemId })).unread_count;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, saver, alice, bob, admin, stranger] = await Promise.all([
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser({ admin: true }),
    makeUser(),
  ]);
  // Registered an hour ago, so announcements made during the run are "after registration".
  await User.updateMany({}, { $set: { reg_time: nowSeconds() - 3600 } });
  forgetCachedReads();
  ({ item_id: itemId } = await makeItem(owner, { password: 'secret' }));
  await addMember(itemId, saver, 1);
  await addMember(itemId, alice, 0);
  await addMember(itemId, bob, 1);
});
afterAll(async () => {
  await server.stop();
});

describe('save and notify', () => {
  test('three subscribers get three reminders in one notice.created naming the three and carrying the text; setRead clears them', async () => {
    record();
    const page = await subscribedPage([alice, bob, saver]);
    // Read (and kept by the read model) before: the batch must make them stale.
    for (const user of [owner, alice, bob]) expect(await unreadCount(user)).toBe(0);
    const notice = await saveAndNotify(saver, page, 'Please review');
    const recipients = [owner.uid, alice.uid, bob.uid].sort((a, b) => a - b);

    expect(notice).toEqual({
      kind: 'remind',
      uids: expect.any(Array),
      messageContentId: expect.any(Number),
      content: {
        from_name: saver.username,
        message_type: 'remind',
        message_content: 'Please review',
        object_type: 'page',
        object_id: page.page_id,
        addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      },
    });
    expect([...notice.uids].sort((a, b) => a - b)).toEqual(recipients);
    // The one event of the batch: its recipients' counts changed with it, nothing else follows.
    expect(recorded.notices).toHaveLength(1);
    expect(recorded.unread).toEqual([]);
    const rows = await Message.find({ message_content_id: notice.messageContentId }).lean();
    expect(rows.map((r) => r.to_uid).sort((a, b) => a - b)).toEqual(recipients);
    expect(
      rows.every((r) => r.status === 0 && r.message_type === 'remind' && r.from_uid === saver.uid),
    ).toBe(true);
    expect(await MessageContent.findOne({ id: notice.messageContentId }).lean()).toMatchObject({
      from_uid: saver.uid,
      from_name: saver.username,
      message_type: 'remind',
      message_content: 'Please review',
      action_type: 'update',
      object_type: 'page',
      object_id: page.page_id,
    });
    for (const user of [owner, alice, bob]) expect(await unreadCount(user)).toBe(1);

    recorded.unread = [];
    for (const user of [owner, alice, bob])
      expect(
        await as(user).ok('message/setRead', {
          message_content_id: notice.messageContentId,
          from_uid: saver.uid,
        }),
      ).toEqual([]);
    expect([...recorded.unread].sort((a, b) => a - b)).toEqual(recipients);
    for (const user of [owner, alice, bob]) {
      expect(await unreadCount(user)).toBe(0);
      expect((await as(user).ok<any>('message/getUnread')).remind).toEqual([]);
    }
    const read = await Message.find({ message_content_id: notice.messageContentId }).lean();
    expect(read.every((r) => r.status === 1 && /^\d{4}-/.test(r.readtime))).toBe(true);
  });

  test('the person who saves is not reminded of their own save', async () => {
    record();
    const page = await subscribedPage([saver, alice]);
    const notice = await saveAndNotify(saver, page, 'mine');
    expect(notice.uids).not.toContain(saver.uid);
    expect(
      await Message.exists({ message_content_id: notice.messageContentId, to_uid: saver.uid }),
    ).toBeNull();
  });

  test('subscribers who lost access (removed member, catalog restriction, public item) are not reminded', async () => {
    record();
    const catA = await makeCatalog(owner, itemId, 'A');
    const catB = await makeCatalog(owner, itemId, 'B');
    const removed = await makeUser();
    const narrowed = await makeUser();
    const removedId = await addMember(itemId, removed, 1);
    const narrowedId = await addMember(itemId, narrowed, 1, [catA]);
    const page = await subscribedPage([removed, narrowed, alice], { catId: catA });
    const actor = await actorOf(owner);
    await removeMember(actor, itemId, removedId);
    await removeMember(actor, itemId, narrowedId);
    await addMember(itemId, narrowed, 1, [catB]);

    const notice = await saveAndNotify(saver, page, 'restricted');
    expect([...notice.uids].sort((a, b) => a - b)).toEqual(
      [owner.uid, alice.uid].sort((a, b) => a - b),
    );
    expect(await Message.countDocuments({ to_uid: { $in: [removed.uid, narrowed.uid] } })).toBe(0);

    // On a public item anyone may read, but a removed member is no longer told about its pages.
    const { item_id: openItem } = await makeItem(owner);
    const leftId = await addMember(openItem, removed, 1);
    await addMember(openItem, alice, 0);
    const openPage = await subscribedPage([removed, alice], { item: openItem });
    await removeMember(actor, openItem, leftId);
    const openNotice = await saveAndNotify(owner, openPage, 'public');
    expect(openNotice.uids).toEqual([alice.uid]);
  });

  test('a save without notify, and a page creation, remind nobody', async () => {
    const page = await subscribedPage([alice]);
    const before = await Message.countDocuments();
    await as(saver).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 't',
      page_content: 'c',
    });
    await as(saver).ok('page/save', {
      page_id: 0,
      item_id: itemId,
      page_title: 'new',
      page_content: 'c',
      is_notify: 1,
      notify_content: 'ignored on create',
    });
    // A later notify is the sync point: its reminder is the only new row.
    record();
    const notice = await saveAndNotify(saver, page, 'sync');
    expect(await Message.countDocuments()).toBe(before + notice.uids.length);
  });
});

describe('message/getRemindList', () => {
  test('anonymous 10102', async () => {
    expect((await server.api.fail('message/getRemindList')).error_code).toBe(10102);
  });

  test('lists the caller’s reminders newest first with ShowDoc’s shape, page_data without content', async () => {
    record();
    const user = await makeUser();
    await addMember(itemId, user, 0);
    const page = await subscribedPage([user]);
    const first = await saveAndNotify(saver, page, 'one');
    const second = await saveAndNotify(saver, page, 'two');

    const data = await as(user).ok<any>('message/getRemindList', { page: 1, count: 15 });
    expect(data.total).toBe(2);
    expect(data.list.map((r: any) => r.message_content_id)).toEqual([
      String(second.messageContentId),
      String(first.messageContentId),
    ]);
    const row = data.list[0];
    expect(row).toMatchObject({
      id: expect.any(String),
      from_uid: String(saver.uid),
      to_uid: String(user.uid),
      message_type: 'remind',
      status: '0',
      addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      readtime: '',
      object_type: 'page',
      object_id: page.page_id,
      action_type: 'update',
      message_content: 'two',
      from_name: saver.username,
    });
    expect(row.page_data).toMatchObject({
      page_id: String(page.page_id),
      item_id: String(itemId),
      page_title: 'Notified',
    });
    expect(row.page_data).not.toHaveProperty('page_content');

    const paged = await as(user).ok<any>('message/getRemindList', { page: 2, count: 1 });
    expect(paged.total).toBe(2);
    expect(paged.list.map((r: any) => r.message_content_id)).toEqual([
      String(first.messageContentId),
    ]);
    // Nonsense paging falls back to the defaults instead of failing or returning everything.
    const clamped = await as(user).ok<any>('message/getRemindList', { page: -3, count: 'abc' });
    expect(clamped.list).toHaveLength(2);
  });

  test('a reminder about a page the reader can no longer see comes without page_data', async () => {
    record();
    const user = await makeUser();
    const memberId = await addMember(itemId, user, 0);
    const page = await subscribedPage([user]);
    await saveAndNotify(saver, page, 'gone');
    await removeMember(await actorOf(owner), itemId, memberId);
    const [row] = (await as(user).ok<any>('message/getRemindList')).list;
    expect(row.message_content).toBe('gone');
    expect(row).not.toHaveProperty('page_data');
  });
});

describe('message/setRead and message/delete', () => {
  test('anonymous 10102', async () => {
    expect((await server.api.fail('message/setRead', { message_content_id: 1 })).error_code).toBe(
      10102,
    );
    expect((await server.api.fail('message/delete', { message_content_id: 1 })).error_code).toBe(
      10102,
    );
  });

  test('unknown ids and other people’s reminders change nothing and write no row', async () => {
    record();
    const page = await subscribedPage([alice]);
    const notice = await saveAndNotify(saver, page, 'not yours');
    const before = await Message.countDocuments();
    for (const id of [0, 999_999, notice.messageContentId]) {
      expect(await as(stranger).ok('message/setRead', { message_content_id: id })).toEqual([]);
      expect(await as(stranger).ok('message/delete', { message_content_id: id })).toEqual([]);
    }
    expect(await Message.countDocuments()).toBe(before);
    expect(
      await Message.findOne({
        message_content_id: notice.messageContentId,
        to_uid: alice.uid,
      }).lean(),
    ).toMatchObject({
      status: 0,
    });
    // Ids are digits only (issue 32): a negative one is a parameter error, not a no-op.
    for (const route of ['message/setRead', 'message/delete'])
      expect((await as(stranger).fail(route, { message_content_id: -1 })).error_code).toBe(10101);
    const injected = await as(alice).fail(
      'message/setRead',
      { message_content_id: { $gt: 0 } },
      { json: true },
    );
    expect(injected.error_code).toBe(10101);
  });

  test('delete hides a reminder from the list and the unread count', async () => {
    record();
    const user = await makeUser();
    await addMember(itemId, user, 0);
    const page = await subscribedPage([user]);
    const notice = await saveAndNotify(saver, page, 'to delete');
    expect(await unreadCount(user)).toBe(1);
    recorded.unread = [];
    expect(
      await as(user).ok('message/delete', { message_content_id: notice.messageContentId }),
    ).toEqual([]);
    expect(recorded.unread).toEqual([user.uid]);
    expect(await unreadCount(user)).toBe(0);
    expect(await as(user).ok('message/getRemindList')).toEqual({ total: 0, list: [] });
  });
});

describe('announcements', () => {
  const publish = (params: Record<string, string>) =>
    as(admin).ok<{ id: number }>('adminMessage/addAnnouncement', params);

  test('adminMessage/addAnnouncement: anonymous 10102, non-admins 10103, bad input 10101 — nothing written', async () => {
    const before = await MessageContent.countDocuments();
    expect(
      (await server.api.fail('adminMessage/addAnnouncement', { message_content: 'x' })).error_code,
    ).toBe(10102);
    expect(
      (await as(owner).fail('adminMessage/addAnnouncement', { message_content: 'x' })).error_code,
    ).toBe(10103);
    for (const params of [
      {},
      { message_content: '   ' },
      { message_content: 'x'.repeat(20_001) },
      { message_content: 'x', send_at: 'yesterday' },
      { message_content: 'x', send_at: '2024-02-30 10:00:00' },
    ])
      expect((await as(admin).fail('adminMessage/addAnnouncement', params)).error_code).toBe(10101);
    expect(await MessageContent.countDocuments()).toBe(before);
  });

  test('publishes sanitised HTML with line breaks, as the system sender, and announces it', async () => {
    record();
    const html =
      '<p onclick="steal()">Hello</p>\n<script>alert(1)</script><a href="javascript:alert(1)">bad</a>' +
      '<a href="https://example.com/x?a=1" target="_top">good</a><img src=x onerror=alert(1)> a < b';
    const { id } = await publish({ message_content: html });
    expect(typeof id).toBe('number');
    const row = await MessageContent.findOne({ id }).lean();
    expect(row).toMatchObject({ from_uid: 0, from_name: '系统公告', message_type: 'announce_web' });
    expect(row!.message_content).toBe(
      '<p>Hello</p><br />\nalert(1)<a>bad</a><a href="https://example.com/x?a=1" rel="noopener noreferrer">good</a> a &lt; b',
    );
    expect(row!.addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    await eventually(() => recorded.notices.length > 0);
    expect(recorded.notices).toEqual([
      {
        kind: 'announce',
        uids: [],
        messageContentId: id,
        content: {
          from_name: '系统公告',
          message_type: 'announce_web',
          message_content: row!.message_content,
          object_type: '',
          object_id: 0,
          addtime: row!.addtime,
        },
      },
    ]);

    const typed = await publish({
      message_content: 'both',
      message_type: 'announce_all',
      send_at: '2030-01-02 03:04',
    });
    expect(await MessageContent.findOne({ id: typed.id }).lean()).toMatchObject({
      message_type: 'announce_all',
      addtime: '2030-01-02 03:04:00',
    });
    const unknown = await publish({ message_content: 'x', message_type: 'remind' });
    expect((await MessageContent.findOne({ id: unknown.id }).lean())!.message_type).toBe(
      'announce_web',
    );
  });

  test('adminMessage/listAnnouncements: admins only, newest first, paged', async () => {
    expect((await server.api.fail('adminMessage/listAnnouncements')).error_code).toBe(10102);
    expect((await as(owner).fail('adminMessage/listAnnouncements')).error_code).toBe(10103);
    const { id } = await publish({ message_content: 'listed' });
    const rows = await as(admin).ok<any[]>('adminMessage/listAnnouncements', { page: 1, count: 2 });
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({
      id: String(id),
      message_content: 'listed',
      from_uid: '0',
      object_id: '0',
    });
  });

  test('message/getAnnouncementList: a bare array without paging, {list, total} with it, read state per user', async () => {
    expect((await server.api.fail('message/getAnnouncementList')).error_code).toBe(10102);
    const { id } = await publish({ message_content: 'news', send_at: '2029-06-01 00:00:00' });
    const reader = await makeUser();
    await User.updateOne({ uid: reader.uid }, { $set: { reg_time: nowSeconds() - 3600 } });
    forgetCachedReads();

    const bare = await as(reader).ok<any[]>('message/getAnnouncementList');
    expect(Array.isArray(bare)).toBe(true);
    const mine = bare.find((r) => r.id === String(id));
    expect(mine).toMatchObject({
      status: 0,
      message_content_id: String(id),
      message_content: 'news',
      from_name: '系统公告',
    });

    expect(await as(reader).ok('message/setRead', { message_content_id: id, from_uid: 0 })).toEqual(
      [],
    );
    const paged = await as(reader).ok<any>('message/getAnnouncementList', { page: 1, count: 100 });
    expect(paged.total).toBe(bare.length);
    expect(paged.list.find((r: any) => r.id === String(id)).status).toBe(1);
  });

  test('announcements dated before a user registered are shown to admins only', async () => {
    const { id } = await publish({ message_content: 'old news', send_at: '2000-01-01 00:00:00' });
    const ids = (list: any[]) => list.map((r) => r.id);
    expect(ids(await as(alice).ok<any[]>('message/getAnnouncementList'))).not.toContain(String(id));
    expect(ids(await as(admin).ok<any[]>('message/getAnnouncementList'))).toContain(String(id));
    // Not visible, so it cannot be marked read either.
    const before = await Message.countDocuments({ to_uid: alice.uid });
    await as(alice).ok('message/setRead', { message_content_id: id });
    expect(await Message.countDocuments({ to_uid: alice.uid })).toBe(before);
  });

  test('message/getUnread gives the oldest unread announcement until each is read; marking read twice writes one marker', async () => {
    record();
    const reader = await makeUser();
    await User.updateOne({ uid: reader.uid }, { $set: { reg_time: nowSeconds() - 3600 } });
    forgetCachedReads();
    const unread = await as(reader).ok<any>('message/getAnnouncementList');
    for (const row of unread)
      await as(reader).ok('message/setRead', { message_content_id: row.id });
    expect(await as(reader).ok('message/getUnread')).toEqual({ remind: [], announce: [] });

    const first = await publish({ message_content: 'first', send_at: '2031-01-01 00:00:00' });
    const second = await publish({ message_content: 'second', send_at: '2031-01-01 00:00:00' });
    const answer = await as(reader).ok<any>('message/getUnread');
    expect(answer.remind).toEqual([]);
    expect(answer.announce).toMatchObject({
      id: String(first.id),
      message_content_id: String(first.id),
    });

    recorded.unread = [];
    await as(reader).ok('message/setRead', { message_content_id: first.id, from_uid: 0 });
    await as(reader).ok('message/setRead', { message_content_id: first.id, from_uid: 0 });
    expect(await Message.countDocuments({ to_uid: reader.uid, message_content_id: first.id })).toBe(
      1,
    );
    expect(recorded.unread).toEqual([reader.uid]);
    expect((await as(reader).ok<any>('message/getUnread')).announce.id).toBe(String(second.id));
  });
});
