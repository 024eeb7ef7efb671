/**
 * The notice centre's model rules without HTTP: how page saves reach subscribers through the bus
 * (once per event, never throwing into it), who is reminded, unread counts, and the announcement
 * HTML allow-list.
 */
import { afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { sanitizeAnnouncementHtml } from '../../models/notices/announcements';
import { events } from '../../models/platform';
import { type DomainEvents, type EventName } from '../../models/platform/events';
import {
  createReminders,
  remindPageSubscribers,
  startNotifications,
  unreadCounts,
} from '../../models/notices/notices';
import { Message } from '../../models/notices/schemas/message';
import { MessageContent } from '../../models/notices/schemas/messageContent';
import { Subscription } from '../../models/notices/schemas/subscription';
import { subscribeToPage } from '../../models/notices/subscriptions';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { serverSuite } from '../helpers/apiSuite';
import { makeUser, type TestUser } from '../helpers/users';

serverSuite();
let owner: TestUser;
let member: TestUser;
let itemId: number;
const cleanups: Array<() => void> = [];
afterEach(() => {
  while (cleanups.length) cleanups.pop()!();
});

beforeAll(async () => {
  [owner, member] = await Promise.all([makeUser(), makeUser()]);
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

/** Resolves with the next `name` event that `match` accepts. */
function next<N extends EventName>(name: N, match: (payload: DomainEvents[N]) => boolean) {
  return new Promise<DomainEvents[N]>((resolve) => {
    const stop = events.subscribe(name, (payload) => {
      if (!match(payload)) return;
      stop();
      resolve(payload);
    });
    cleanups.push(stop);
  });
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

describe('page saves on the bus', () => {
  test('a save relayed from another process reminds nobody; the same save published here does', async () => {
    const page = await makePage(owner, itemId);
    await subscribeToPage(member.uid, page.page_id);
    const reminded = next(
      'notice.created',
      (n) => n.kind === 'remind' && n.uids.includes(member.uid),
    );
    events.publish('page.saved', savedEvent(page.page_id, owner.uid, 'relayed'), { remote: true });
    events.publish('page.saved', savedEvent(page.page_id, owner.uid, 'local'));
    const notice = await reminded;
    const contents = await MessageContent.find({
      object_id: page.page_id,
      message_type: 'remind',
    }).lean();
    expect(contents.map((c) => c.message_content)).toEqual(['local']);
    expect(notice.messageContentId).toBe(contents[0].id);
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
      await remindPageSubscribers({
        itemId,
        pageId: draft.page_id,
        byUid: owner.uid,
        text: 'draft',
      }),
    ).toBe(0);
    expect(await Message.countDocuments()).toBe(before);
  });

  test('a page that does not exist (or was deleted) reminds no one', async () => {
    expect(
      await remindPageSubscribers({ itemId, pageId: 999_999, byUid: owner.uid, text: 'x' }),
    ).toBe(0);
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
    await MessageContent.create({
      id: 900_001,
      message_type: 'announce_all',
      addtime: '2099-01-01 00:00:00',
    });
    expect(await unreadCounts(user.uid)).toEqual({
      remind: before.remind + 1,
      announce: before.announce + 1,
    });
    expect(await unreadCounts(0)).toEqual({ remind: 0, announce: 0 });
    expect(await unreadCounts(987_654)).toEqual({ remind: 0, announce: 0 });
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
