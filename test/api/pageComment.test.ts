/**
 * page_comment/* and page_feedback/* as ShowDoc's controllers answer them: the item's switches,
 * access (private items, catalog restrictions), two levels of replies, deleting by the author or
 * a manager, reminders to the page's author, live pushes on the page's room, escaped text, and
 * one feedback vote per user or anonymous browser.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas';
import { Message } from '../../models/notices/schemas';
import { PageComment, PageFeedback } from '../../models/comments/schemas';
import { eventually } from '../helpers/embedded';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

let server: TestServer;
let owner: TestUser, author: TestUser, reader: TestUser, other: TestUser, restricted: TestUser;
let stranger: TestUser;
let itemId: number;
let pageId: number;
let hiddenPageId: number;

const as = (user: TestUser) => server.api.withToken(user.user_token);

interface Comment {
  comment_id: number;
  parent_id: number;
  uid: number;
  username: string;
  content: string;
  addtime: number;
  addtime_text: string;
  is_owner: boolean;
  can_delete: boolean;
  replies?: Comment[];
}
interface CommentList {
  total: number;
  page: number;
  comments: Comment[];
}

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, author, reader, other, restricted, stranger] = await Promise.all(
    Array.from({ length: 6 }, () => makeUser()),
  );
  ({ item_id: itemId } = await makeItem(owner, { password: 'secret' }));
  await Item.updateOne({ item_id: itemId }, { $set: { allow_comment: 1, allow_feedback: 1 } });
  forgetCachedReads();
  const open = await makeCatalog(owner, itemId, 'Open');
  const hidden = await makeCatalog(owner, itemId, 'Hidden');
  await addMember(itemId, author, 1);
  await addMember(itemId, reader, 0);
  await addMember(itemId, other, 0);
  await addMember(itemId, restricted, 0, [open]);
  pageId = (await makePage(author, itemId, { catId: open, title: 'Commented' })).page_id;
  hiddenPageId = (await makePage(author, itemId, { catId: hidden })).page_id;
});
afterAll(async () => {
  closeAllSockets();
  await server.stop();
});

const list = (user: TestUser, page = pageId) =>
  as(user).ok<CommentList>('page_comment/getList', { page_id: page });

describe('page_comment', () => {
  test('a reader comments: the list shows it escaped with ShowDoc types, the page author is reminded', async () => {
    const before = await Message.countDocuments({ to_uid: author.uid });
    const added = await as(reader).ok<{ comment_id: number; message: string }>('page_comment/add', {
      page_id: pageId,
      content: '  <b>Nice</b> & "clear"  ',
    });
    expect(added.comment_id).toEqual(expect.any(Number));
    const { total, page, comments } = await list(reader);
    expect({ total, page }).toEqual({ total: 1, page: 1 });
    expect(comments[0]).toEqual({
      comment_id: added.comment_id,
      parent_id: 0,
      uid: reader.uid,
      username: reader.username,
      content: '&lt;b&gt;Nice&lt;/b&gt; &amp; &quot;clear&quot;',
      addtime: expect.any(Number),
      addtime_text: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d$/),
      is_owner: true,
      can_delete: true,
      replies: [],
    });
    expect(await Message.countDocuments({ to_uid: author.uid })).toBe(before + 1);
    expect(await Message.countDocuments({ to_uid: reader.uid })).toBe(0);
    // Another reader may not delete it; the item's owner (a manager) may.
    const seenByOther = (await list(other)).comments[0];
    expect(seenByOther).toMatchObject({ is_owner: false, can_delete: false });
    expect((await list(owner)).comments[0]).toMatchObject({ can_delete: true });
  });

  test('replies: two levels only, listed under their comment; the replied author is reminded', async () => {
    const top = await as(other).ok<{ comment_id: number }>('page_comment/add', {
      page_id: pageId,
      content: 'Question?',
    });
    const before = await Message.countDocuments({ to_uid: other.uid });
    const reply = await as(author).ok<{ comment_id: number }>('page_comment/add', {
      page_id: pageId,
      content: 'Answer.',
      parent_id: top.comment_id,
    });
    expect(await Message.countDocuments({ to_uid: other.uid })).toBe(before + 1);
    const nested = await as(reader).fail('page_comment/add', {
      page_id: pageId,
      content: 'Deeper',
      parent_id: reply.comment_id,
    });
    expect(nested.error_code).toBe(10100);
    const entry = (await list(reader)).comments.find((c) => c.comment_id === top.comment_id);
    expect(entry?.replies?.map((r) => [r.comment_id, r.parent_id, r.content])).toEqual([
      [reply.comment_id, top.comment_id, 'Answer.'],
    ]);
  });

  test('bad input and missing rights answer ShowDoc codes and store nothing', async () => {
    const before = await PageComment.countDocuments();
    const cases: Array<[TestUser | null, Record<string, string | number>, number]> = [
      [null, { page_id: pageId, content: 'x' }, 10102],
      [reader, { page_id: 0, content: 'x' }, 10100],
      [reader, { page_id: pageId, content: '   ' }, 10100],
      [reader, { page_id: pageId, content: 'x'.repeat(501) }, 10100],
      [reader, { page_id: pageId, content: 'x', parent_id: 999_999 }, 10100],
      [stranger, { page_id: pageId, content: 'x' }, 10303],
      [restricted, { page_id: hiddenPageId, content: 'x' }, 10101],
      [reader, { page_id: 999_999, content: 'x' }, 10101],
    ];
    for (const [user, params, code] of cases) {
      const answer = await (user ? as(user) : server.api).fail('page_comment/add', params);
      expect({ params, code: answer.error_code }).toEqual({ params, code });
    }
    expect(await PageComment.countDocuments()).toBe(before);
    expect((await server.api.fail('page_comment/getList', { page_id: pageId })).error_code).toBe(
      10303,
    );
    // With the visit password a visitor reads the comments, as with the page itself.
    const visitor = await server.api.ok<CommentList>('page_comment/getList', {
      page_id: pageId,
      _item_pwd: 'secret',
    });
    expect(visitor.total).toBeGreaterThan(0);
    expect(visitor.comments.every((c) => !c.can_delete && !c.is_owner)).toBe(true);
  });

  test('delete: the author or a manager; others 10303; the comment and its replies leave the list', async () => {
    const mine = await as(reader).ok<{ comment_id: number }>('page_comment/add', {
      page_id: pageId,
      content: 'To be removed',
    });
    await as(author).ok('page_comment/add', {
      page_id: pageId,
      content: 'Reply to removed',
      parent_id: mine.comment_id,
    });
    const refused = await as(other).fail('page_comment/delete', { comment_id: mine.comment_id });
    expect(refused.error_code).toBe(10303);
    expect(await as(reader).ok('page_comment/delete', { comment_id: mine.comment_id })).toEqual({
      message: expect.any(String),
    });
    const ids = (await list(owner)).comments.map((c) => c.comment_id);
    expect(ids).not.toContain(mine.comment_id);
    expect(JSON.stringify(await list(owner))).not.toContain('Reply to removed');
    const byManager = await as(other).ok<{ comment_id: number }>('page_comment/add', {
      page_id: pageId,
      content: 'Spam',
    });
    await as(owner).ok('page_comment/delete', { comment_id: byManager.comment_id });
    expect((await list(owner)).comments.map((c) => c.content)).not.toContain('Spam');
    expect(
      (await as(owner).fail('page_comment/delete', { comment_id: byManager.comment_id }))
        .error_code,
    ).toBe(10101);
  });

  test('comments are pushed live to the page room as ids', async () => {
    const watcher = await connectClient(server.url, { user_token: author.user_token });
    await watcher.watch({ page_id: pageId });
    const added = await as(reader).ok<{ comment_id: number }>('page_comment/add', {
      page_id: pageId,
      content: 'Live!',
    });
    expect(
      await watcher.waitFor('page:comments', (p) => p.comment_id === added.comment_id),
    ).toEqual({ item_id: itemId, page_id: pageId, comment_id: added.comment_id, change: 'added' });
    const notice = await watcher.waitFor('notice');
    expect(JSON.stringify(notice)).toContain(reader.username);
    watcher.close();
  });

  test("deleting the page removes its comments and feedback, as ShowDoc's page/delete does", async () => {
    const page = await makePage(author, itemId, { title: 'Short-lived' });
    await as(reader).ok('page_comment/add', { page_id: page.page_id, content: 'Bye' });
    await as(reader).ok('page_feedback/submit', { page_id: page.page_id, feedback_type: 1 });
    expect(await PageComment.countDocuments({ page_id: page.page_id })).toBe(1);
    await as(author).ok('page/delete', { page_id: page.page_id });
    await eventually(async () => {
      expect(await PageComment.countDocuments({ page_id: page.page_id })).toBe(0);
      expect(await PageFeedback.countDocuments({ page_id: page.page_id })).toBe(0);
    });
  });

  test('with allow_comment off the list is empty and adding is refused', async () => {
    await Item.updateOne({ item_id: itemId }, { $set: { allow_comment: 0 } });
    forgetCachedReads();
    try {
      expect(await list(reader)).toEqual({ total: 0, page: 1, comments: [] });
      const answer = await as(reader).fail('page_comment/add', { page_id: pageId, content: 'x' });
      expect(answer.error_code).toBe(10100);
    } finally {
      await Item.updateOne({ item_id: itemId }, { $set: { allow_comment: 1 } });
      forgetCachedReads();
    }
  });
});

describe('page_feedback', () => {
  interface Stat {
    helpful_count: number;
    unhelpful_count: number;
    user_feedback: number;
  }
  const stat = (user: TestUser | null, clientId = '') =>
    (user ? as(user) : server.api).ok<Stat>('page_feedback/getStat', {
      page_id: pageId,
      client_id: clientId,
    });
  const vote = (user: TestUser, type: number) =>
    as(user).ok<Stat & { message: string }>('page_feedback/submit', {
      page_id: pageId,
      feedback_type: type,
    });

  test('one vote per user: the same vote again takes it back, the other vote changes it', async () => {
    expect(await stat(reader)).toEqual({ helpful_count: 0, unhelpful_count: 0, user_feedback: 0 });
    expect(await vote(reader, 1)).toMatchObject({ helpful_count: 1, user_feedback: 1 });
    expect(await vote(reader, 1)).toMatchObject({ helpful_count: 0, user_feedback: 0 });
    await vote(reader, 1);
    expect(await vote(reader, 2)).toMatchObject({
      helpful_count: 0,
      unhelpful_count: 1,
      user_feedback: 2,
    });
    expect(await vote(other, 1)).toMatchObject({ helpful_count: 1, unhelpful_count: 1 });
    expect(await stat(owner)).toEqual({ helpful_count: 1, unhelpful_count: 1, user_feedback: 0 });
    expect(await vote(other, 0)).toMatchObject({ helpful_count: 0, user_feedback: 0 });
  });

  test('anonymous readers vote once per client_id on a public item; without one they are refused', async () => {
    const { item_id: publicItem } = await makeItem(owner);
    await Item.updateOne({ item_id: publicItem }, { $set: { allow_feedback: 1 } });
    forgetCachedReads();
    const page = await makePage(owner, publicItem);
    const submit = (clientId: string, type: number) =>
      server.api.call('page_feedback/submit', {
        page_id: page.page_id,
        feedback_type: type,
        client_id: clientId,
      });
    expect((await submit('', 1)).body.error_code).toBe(10100);
    expect((await submit('browser-a', 1)).body.data).toMatchObject({ helpful_count: 1 });
    expect((await submit('browser-a', 2)).body.data).toMatchObject({
      helpful_count: 0,
      unhelpful_count: 1,
    });
    expect((await submit('browser-b', 2)).body.data).toMatchObject({ unhelpful_count: 2 });
    const seen = await server.api.ok<Stat>('page_feedback/getStat', {
      page_id: page.page_id,
      client_id: 'browser-b',
    });
    expect(seen).toEqual({ helpful_count: 0, unhelpful_count: 2, user_feedback: 2 });
  });

  test('bad type 10100; feedback off → zeros and refusal; no access → 10303', async () => {
    expect(
      (await as(reader).fail('page_feedback/submit', { page_id: pageId, feedback_type: 3 }))
        .error_code,
    ).toBe(10100);
    expect((await as(stranger).fail('page_feedback/getStat', { page_id: pageId })).error_code).toBe(
      10303,
    );
    await Item.updateOne({ item_id: itemId }, { $set: { allow_feedback: 0 } });
    forgetCachedReads();
    try {
      await vote(other, 1).catch(() => undefined);
      expect(await stat(reader)).toEqual({
        helpful_count: 0,
        unhelpful_count: 0,
        user_feedback: 0,
      });
      expect(
        (await as(other).fail('page_feedback/submit', { page_id: pageId, feedback_type: 1 }))
          .error_code,
      ).toBe(10100);
    } finally {
      await Item.updateOne({ item_id: itemId }, { $set: { allow_feedback: 1 } });
      forgetCachedReads();
    }
  });
});
