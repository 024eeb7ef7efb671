/**
 * Domain events become socket pushes to the right rooms, caused through the real REST API:
 * "save and notify" reminds subscribers only (`notice` + `unread`), reading a notice updates the
 * badge, saves reach the page's watchers, catalog edits reach the item's watchers as
 * `menu:changed`, deleted pages and archived items are announced, announcements reach everyone.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Message } from '../../models/notices/schemas/message';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { closeAllSockets, connectClient, type TestClient } from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite({ teardown: closeAllSockets });
const { as } = suite;
let admin: TestUser;
let owner: TestUser;
let editor: TestUser;
let subscriber: TestUser;
let bystander: TestUser;
let itemId: number;

beforeAll(async () => {
  [admin, owner, editor, subscriber, bystander] = await Promise.all([
    makeUser({ admin: true }),
    makeUser(),
    makeUser(),
    makeUser(),
    makeUser(),
  ]);
  ({ item_id: itemId } = await makeItem(owner, { password: 'private' }));
  await addMember(itemId, editor, 1);
  await addMember(itemId, subscriber, 0);
  await addMember(itemId, bystander, 0);
});

const connect = (user: TestUser) =>
  connectClient(suite.server.url, { user_token: user.user_token });
/** The editor saves the page with a notice to its subscribers. */
const saveNotifying = (
  page: { page_id: number; page_title: string },
  content: string,
  note: string,
) =>
  as(editor).ok('page/save', {
    page_id: page.page_id,
    item_id: itemId,
    page_title: page.page_title,
    page_content: content,
    is_notify: 1,
    notify_content: note,
  });
const roundTrip = (client: TestClient) => client.unwatch({ page_id: 999_999_999 });

describe('notices and unread counts', () => {
  test('save-and-notify pushes notice and unread to subscribers only; reading it updates the badge', async () => {
    const page = await makePage(editor, itemId);
    await as(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(subscriber.uid),
    });
    const subscribed = await connect(subscriber);
    const notSubscribed = await connect(bystander);
    const saver = await connect(editor);

    await saveNotifying(page, 'changed', 'Please review the new section');
    const notice = await subscribed.waitFor('notice');
    expect(notice).toMatchObject({
      kind: 'remind',
      from_name: editor.username,
      object_type: 'page',
      object_id: page.page_id,
      message_content_id: expect.any(Number),
    });
    expect(notice.message_content).toContain('Please review the new section');
    expect(await subscribed.waitFor('unread', (u) => u.remind === 1)).toMatchObject({ remind: 1 });

    // The other member and the person who saved heard nothing.
    await Promise.all([roundTrip(notSubscribed), roundTrip(saver)]);
    for (const client of [notSubscribed, saver]) {
      expect(client.all('notice')).toEqual([]);
      expect(client.all('unread')).toEqual([]);
    }

    await as(subscriber).ok('message/setRead', {
      message_content_id: notice.message_content_id,
    });
    await subscribed.waitFor('unread', (u) => u.remind === 0);
    subscribed.close();
    notSubscribed.close();
    saver.close();
  });

  test("a user's pushes reach every one of their sockets and no one else's", async () => {
    const page = await makePage(editor, itemId);
    await as(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(subscriber.uid),
    });
    const tabs = [await connect(subscriber), await connect(subscriber)];
    const other = await connect(bystander);
    await saveNotifying(page, 'again', 'Second round');
    for (const tab of tabs) await tab.waitFor('notice', (n) => n.object_id === page.page_id);
    await roundTrip(other);
    expect(other.all('notice')).toEqual([]);
    for (const client of [...tabs, other]) client.close();
  });

  test('a notice to many subscribers: one delivery row each with distinct ids, each socket gets its own unread count', async () => {
    const readers = await Promise.all(Array.from({ length: 25 }, () => makeUser()));
    for (const reader of readers) await addMember(itemId, reader, 0);
    const page = await makePage(editor, itemId);
    await as(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: readers.map((r) => r.uid).join(','),
    });
    // One reader already has an unread reminder (from another page): their count must be 2.
    const earlier = await makePage(editor, itemId);
    await as(editor).ok('subscription/savePage', {
      page_id: earlier.page_id,
      uids: String(readers[0].uid),
    });
    await saveNotifying(earlier, 'first', 'Earlier change');
    const clients = await Promise.all(readers.map(connect));

    await saveNotifying(page, 'for everyone', 'Batch change');
    const notices = await Promise.all(
      clients.map((c) => c.waitFor('notice', (n) => n.object_id === page.page_id)),
    );
    const contentId = notices[0].message_content_id;
    expect(new Set(notices.map((n) => n.message_content_id))).toEqual(new Set([contentId]));
    const counts = await Promise.all(
      clients.map((c, i) => c.waitFor('unread', (u) => u.remind === (i === 0 ? 2 : 1))),
    );
    expect(counts[0]).toMatchObject({ remind: 2 });
    expect(counts.slice(1).every((u) => u.remind === 1)).toBe(true);

    const deliveries = await Message.find({ message_content_id: contentId }).lean();
    expect(deliveries.map((d) => d.to_uid).sort((a, b) => a - b)).toEqual(
      readers.map((r) => r.uid).sort((a, b) => a - b),
    );
    expect(new Set(deliveries.map((d) => d.id)).size).toBe(readers.length);
    for (const client of clients) client.close();
  });

  test('a site announcement is pushed to every connected user', async () => {
    const clients = [await connect(bystander), await connect(owner)];
    const { id } = await as(admin).ok<{ id: number }>('adminMessage/addAnnouncement', {
      message_content: 'Maintenance tonight',
      message_type: 'announce_web',
    });
    for (const client of clients)
      expect(await client.waitFor('notice', (n) => n.message_content_id === id)).toMatchObject({
        kind: 'announce',
        message_content: expect.stringContaining('Maintenance tonight'),
      });
    for (const client of clients) client.close();
  });
  test('announcements for the RunApi client only, or scheduled for later, are not pushed to the web', async () => {
    const client = await connect(bystander);
    for (const params of [
      { message_content: 'For RunApi only', message_type: 'announce_runapi' },
      {
        message_content: 'Next year',
        message_type: 'announce_web',
        send_at: '2099-01-01 00:00:00',
      },
    ])
      await as(admin).ok('adminMessage/addAnnouncement', params);
    const { id } = await as(admin).ok<{ id: number }>('adminMessage/addAnnouncement', {
      message_content: 'Now',
      message_type: 'announce_all',
    });
    // The last one is the barrier: the others, published before it, would have come first.
    await client.waitFor('notice', (n) => n.message_content_id === id);
    expect(client.all('notice').map((n) => n.message_content)).toEqual(['Now']);
    client.close();
  });
});

describe('item and page rooms', () => {
  test('a save reaches the page watchers with its title, author and time', async () => {
    const page = await makePage(owner, itemId);
    const watcher = await connect(subscriber);
    await watcher.watch({ page_id: page.page_id });
    await as(editor).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Release notes',
      page_content: 'v2',
    });
    expect(await watcher.waitFor('page:saved')).toEqual({
      item_id: itemId,
      page_id: page.page_id,
      cat_id: 0,
      page_title: 'Release notes',
      author: { uid: editor.uid, username: editor.username },
      addtime: expect.any(Number),
      origin: 'rest',
      created: false,
    });
    watcher.close();
  });

  test('catalog edits push menu:changed to the item watchers, not to watchers of other items', async () => {
    const { item_id: otherItem } = await makeItem(owner);
    const watcher = await connect(subscriber);
    const elsewhere = await connect(owner);
    expect(await watcher.watch({ item_id: itemId })).toEqual({ ok: true });
    expect(await elsewhere.watch({ item_id: otherItem })).toEqual({ ok: true });
    await as(editor).ok('catalog/save', { item_id: itemId, cat_name: 'Guides' });
    expect(await watcher.waitFor('menu:changed')).toEqual({ item_id: itemId });
    await roundTrip(elsewhere);
    expect(elsewhere.all('menu:changed')).toEqual([]);
    watcher.close();
    elsewhere.close();
  });

  test('a deleted page is announced to its watchers, who are then out of its room', async () => {
    const page = await makePage(owner, itemId);
    const watcher = await connect(subscriber);
    await watcher.watch({ page_id: page.page_id, mode: 'viewing' });
    await as(owner).ok('page/delete', { page_id: page.page_id, item_id: itemId });
    expect(await watcher.waitFor('page:deleted')).toEqual({
      item_id: itemId,
      page_id: page.page_id,
    });
    expect(await watcher.presence({ page_id: page.page_id, mode: 'editing' })).toMatchObject({
      error_code: 10101,
    });
    watcher.close();
  });

  test('archiving the item is pushed as item:changed to its watchers', async () => {
    const { item_id: item } = await makeItem(owner);
    const watcher = await connect(owner);
    await watcher.watch({ item_id: item });
    await as(owner).ok('item/archive', { item_id: item, password: owner.password });
    expect(await watcher.waitFor('item:changed')).toEqual({ item_id: item, change: 'archived' });
    watcher.close();
  });

  test('new members are told their access changed (access:changed on their user room)', async () => {
    const { item_id: item } = await makeItem(owner);
    const newcomer = await makeUser();
    const client = await connect(newcomer);
    await as(owner).ok('member/save', {
      item_id: item,
      username: newcomer.username,
      member_group_id: 1,
    });
    expect(await client.waitFor('access:changed')).toEqual({ item_id: item, change: 'added' });
    client.close();
  });
});
