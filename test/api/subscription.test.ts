/**
 * subscription/* over real HTTP, and member/getAllList as the notify dialog uses it: a page's
 * creator is subscribed when the page is created; editors list, add and remove subscribers; only
 * people who belong to the item and can see the page may be subscribed (ShowDoc took any id).
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Message, MessageContent } from '../../models/notices/schemas';
import { Subscription } from '../../models/notices/schemas/subscription';
import {
  addMember,
  addTeamMember,
  bindTeamItem,
  makeTeam,
  setTeamItemAuthority,
} from '../helpers/factories';
import { apiSuite } from '../helpers/apiSuite';
import type { ApiParams, ShowdocClient } from '../helpers/client';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';

const suite = apiSuite({ item: { password: 'secret' } });
let restricted: TestUser;
let teamMate: TestUser;
let catA: number;
let catB: number;
const { as } = suite;

/** Waits until `probe` answers something `accept` likes (bus listeners run after the response). */
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5000;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const subscribers = async (pageId: number) =>
  (await Subscription.find({ object_id: pageId, object_type: 'page' }).distinct('uid')).sort(
    (a, b) => a - b,
  );

/** A new page by the owner, once its creator's subscription has landed. */
async function subscribedPage(catId?: number) {
  const page = await makePage(suite.owner, suite.itemId, { catId });
  await eventually(
    () => subscribers(page.page_id),
    (uids) => uids.length === 1,
  );
  return page;
}

const failCode = async (client: ShowdocClient, action: string, params: ApiParams) =>
  (await client.fail(action, params)).error_code;

beforeAll(async () => {
  [restricted, teamMate] = await Promise.all([makeUser(), makeUser()]);
  catA = await makeCatalog(suite.owner, suite.itemId, 'A');
  catB = await makeCatalog(suite.owner, suite.itemId, 'B');
  await addMember(suite.itemId, restricted, 1, [catA]);
  const { team_id } = await makeTeam(suite.owner);
  await addTeamMember(team_id, teamMate);
  await bindTeamItem(team_id, suite.itemId, suite.owner);
  await setTeamItemAuthority(team_id, suite.itemId, teamMate, 0);
});
describe('subscribing the creator', () => {
  test('page/save creating a page subscribes its creator to the page’s updates', async () => {
    const { page_id } = await as(suite.editor).ok<{ page_id: number }>('page/save', {
      page_id: 0,
      item_id: suite.itemId,
      page_title: 'New',
      page_content: 'body',
    });
    expect(
      await eventually(
        () => subscribers(page_id),
        (uids) => uids.length > 0,
      ),
    ).toEqual([suite.editor.uid]);
    const row = await Subscription.findOne({ object_id: page_id }).lean();
    expect(row).toMatchObject({ object_type: 'page', action_type: 'update' });
    expect(row!.sub_time).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('saving an existing page subscribes nobody new', async () => {
    const page = await subscribedPage();
    await as(suite.editor).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Edited',
      page_content: 'again',
    });
    // The owner's creation subscription is there; the editor's update added none.
    expect(await subscribers(page.page_id)).toEqual([suite.owner.uid]);
  });
});

describe('subscription/getPageList', () => {
  test('anonymous 10102; page_id ≤ 0 answers []; missing page 10101; readers 10103; strangers as a missing page (10101)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(
      await failCode(suite.server.api, 'subscription/getPageList', { page_id: page.page_id }),
    ).toBe(10102);
    expect(await as(suite.owner).ok('subscription/getPageList', { page_id: 0 })).toEqual([]);
    expect(await failCode(as(suite.owner), 'subscription/getPageList', { page_id: 999_999 })).toBe(
      10101,
    );
    for (const user of [suite.reader, teamMate])
      expect(
        (await as(user).fail('subscription/getPageList', { page_id: page.page_id })).error_code,
      ).toBe(10103);
    // A stranger cannot see the page at all: the answer is the missing page's (issue #16).
    expect(
      await failCode(as(suite.stranger), 'subscription/getPageList', { page_id: page.page_id }),
    ).toBe(10101);
  });

  test('a page outside a restricted editor’s catalogs answers like a missing page', async () => {
    const page = await makePage(suite.owner, suite.itemId, { catId: catB });
    const answer = await as(restricted).fail('subscription/getPageList', { page_id: page.page_id });
    expect(answer.error_code).toBe(10101);
  });

  test('editors get the subscribers with their username and name, all columns as strings', async () => {
    const named = await makeUser({ name: 'Named Person' });
    await addMember(suite.itemId, named, 0);
    const page = await subscribedPage();
    await as(suite.editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(named.uid),
    });
    const rows = await as(suite.editor).ok<any[]>('subscription/getPageList', {
      page_id: page.page_id,
    });
    expect(rows).toEqual([
      {
        id: expect.any(String),
        uid: String(suite.owner.uid),
        object_id: String(page.page_id),
        object_type: 'page',
        action_type: 'update',
        sub_time: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
        username: suite.owner.username,
        name: '',
      },
      expect.objectContaining({
        uid: String(named.uid),
        username: named.username,
        name: 'Named Person',
      }),
    ]);
  });
});

describe('subscription/savePage', () => {
  test('anonymous 10102; page_id ≤ 0 10100; missing page 10101; readers 10103 — nothing written', async () => {
    const page = await subscribedPage();
    const uids = String(suite.reader.uid);
    expect(
      await failCode(suite.server.api, 'subscription/savePage', { page_id: page.page_id, uids }),
    ).toBe(10102);
    expect(await failCode(as(suite.editor), 'subscription/savePage', { page_id: 0, uids })).toBe(
      10100,
    );
    expect(
      await failCode(as(suite.editor), 'subscription/savePage', { page_id: 999_999, uids }),
    ).toBe(10101);
    expect(
      await failCode(as(suite.reader), 'subscription/savePage', { page_id: page.page_id, uids }),
    ).toBe(10103);
    expect(await subscribers(page.page_id)).toEqual([suite.owner.uid]);
  });

  test('malformed ids, strangers, unknown users and members who cannot see the page are refused; nothing is written', async () => {
    const page = await subscribedPage(catB);
    for (const uids of [
      `${suite.reader.uid},abc`,
      `${suite.reader.uid},${suite.stranger.uid}`,
      `${suite.reader.uid},999999`,
      `${suite.reader.uid},${restricted.uid}`,
      '0',
    ]) {
      const answer = await as(suite.editor).fail('subscription/savePage', {
        page_id: page.page_id,
        uids,
      });
      expect(answer.error_code).toBe(10101);
    }
    const injected = await as(suite.editor).fail(
      'subscription/savePage',
      { page_id: page.page_id, uids: { $ne: '' } },
      { json: true },
    );
    expect(injected.error_code).toBe(10101);
    expect(await subscribers(page.page_id)).toEqual([suite.owner.uid]);
  });

  test('subscribes members of every kind, idempotently (comma list or array)', async () => {
    const page = await subscribedPage(catA);
    const uids = `${suite.reader.uid},${teamMate.uid},${restricted.uid},${suite.reader.uid}`;
    expect(
      await as(suite.editor).ok('subscription/savePage', { page_id: page.page_id, uids }),
    ).toEqual([]);
    await as(suite.editor).ok(
      'subscription/savePage',
      { page_id: page.page_id, uids: [suite.reader.uid] },
      { json: true },
    );
    expect(await subscribers(page.page_id)).toEqual(
      [suite.owner.uid, suite.reader.uid, restricted.uid, teamMate.uid].sort((a, b) => a - b),
    );
    expect(await Subscription.countDocuments({ object_id: page.page_id })).toBe(4);
  });

  test('an empty uid list changes nothing', async () => {
    const page = await subscribedPage();
    expect(
      await as(suite.editor).ok('subscription/savePage', { page_id: page.page_id, uids: '' }),
    ).toEqual([]);
    expect(await subscribers(page.page_id)).toEqual([suite.owner.uid]);
  });
});

describe('subscription/deletePage', () => {
  test('anonymous 10102; page_id ≤ 0 10100; readers 10103; malformed ids 10101 — nothing removed', async () => {
    const page = await subscribedPage();
    const uids = String(suite.owner.uid);
    expect(
      await failCode(suite.server.api, 'subscription/deletePage', { page_id: page.page_id, uids }),
    ).toBe(10102);
    expect(await failCode(as(suite.editor), 'subscription/deletePage', { page_id: 0, uids })).toBe(
      10100,
    );
    expect(
      await failCode(as(suite.reader), 'subscription/deletePage', { page_id: page.page_id, uids }),
    ).toBe(10103);
    expect(
      await failCode(as(suite.editor), 'subscription/deletePage', {
        page_id: page.page_id,
        uids: 'x',
      }),
    ).toBe(10101);
    expect(await subscribers(page.page_id)).toEqual([suite.owner.uid]);
  });

  test('removes exactly the listed subscriptions', async () => {
    const page = await subscribedPage();
    await as(suite.editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: `${suite.reader.uid},${suite.editor.uid}`,
    });
    expect(
      await as(suite.editor).ok('subscription/deletePage', {
        page_id: page.page_id,
        uids: `${suite.owner.uid},${suite.reader.uid}`,
      }),
    ).toEqual([]);
    expect(await subscribers(page.page_id)).toEqual([suite.editor.uid]);
  });
});

describe('who "save and notify" reminds', () => {
  /** Saves the page with notify; answers who got that reminder. */
  async function remindedBySave(pageId: number, text: string): Promise<number[]> {
    await as(suite.editor).ok('page/save', {
      page_id: pageId,
      item_id: suite.itemId,
      page_title: 'Subscribed page',
      page_content: text,
      is_notify: 1,
      notify_content: text,
    });
    const content = await MessageContent.findOne({ message_content: text }).lean();
    if (!content) return [];
    return (await Message.find({ message_content_id: content.id }).distinct('to_uid')).sort(
      (a, b) => a - b,
    );
  }

  test('each save reminds the subscriber list as it stands after every subscribe and unsubscribe', async () => {
    const page = await subscribedPage();
    expect(await remindedBySave(page.page_id, 'first notice')).toEqual([suite.owner.uid]);
    await as(suite.editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(suite.reader.uid),
    });
    expect(await remindedBySave(page.page_id, 'second notice')).toEqual(
      [suite.owner.uid, suite.reader.uid].sort((a, b) => a - b),
    );
    await as(suite.editor).ok('subscription/deletePage', {
      page_id: page.page_id,
      uids: String(suite.owner.uid),
    });
    expect(await remindedBySave(page.page_id, 'third notice')).toEqual([suite.reader.uid]);
  });

  test('a subscriber whose account is deleted is not reminded by the next save', async () => {
    const [admin, leaving] = await Promise.all([makeUser({ admin: true }), makeUser()]);
    await addMember(suite.itemId, leaving, 1);
    const page = await subscribedPage();
    await as(suite.editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(leaving.uid),
    });
    expect(await remindedBySave(page.page_id, 'before leaving')).toContain(leaving.uid);
    await as(admin).ok('adminUser/deleteUser', { uid: leaving.uid });
    expect(await remindedBySave(page.page_id, 'after leaving')).not.toContain(leaving.uid);
  });
});

describe('member/getAllList for the notify dialog', () => {
  test('lists everyone who may be subscribed (owner, members, team members) with uid as a number', async () => {
    const rows = await as(suite.editor).ok<any[]>('member/getAllList', { item_id: suite.itemId });
    expect(rows[0]).toEqual({
      item_id: suite.itemId,
      uid: suite.owner.uid,
      username: suite.owner.username,
      username_name: suite.owner.username,
      member_group_id: '1',
    });
    const uids = rows.map((r) => r.uid);
    expect(uids).toEqual(
      expect.arrayContaining([
        suite.owner.uid,
        suite.editor.uid,
        suite.reader.uid,
        restricted.uid,
        teamMate.uid,
      ]),
    );
    expect(uids).not.toContain(suite.stranger.uid);
    // "Add all members" in the dialog: every listed person can be subscribed to a page they all see.
    const page = await makePage(suite.owner, suite.itemId, { catId: catA });
    await as(suite.editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: uids.join(','),
    });
    expect(await subscribers(page.page_id)).toEqual(expect.arrayContaining(uids));
  });

  test('readers get 10301, as the dialog is an editor’s tool', async () => {
    expect(await failCode(as(suite.reader), 'member/getAllList', { item_id: suite.itemId })).toBe(
      10301,
    );
  });
});
