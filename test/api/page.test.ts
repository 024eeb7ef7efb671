/**
 * page/save, page/info and page/delete over real HTTP: envelopes and codes as in the reference,
 * raw Markdown in the database and escaped-once text on the wire, the single write path's side
 * effects (version, change log, item touch, events), and nothing written on any refusal.
 */
import { describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents, type EventName } from '../../models/platform/events';
import { unescapeFromClient } from '../../models/pages/pageContent';
import { Item } from '../../models/items/schemas/item';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { Page } from '../../models/pages/schemas/page';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { Recycle } from '../../models/pages/schemas/recycle';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite({ item: {} });

const api = () => suite.server.api;
const { as } = suite;

/** Records the domain events published while `run` executes. */
async function capture<N extends EventName>(
  names: N[],
  run: () => Promise<unknown>,
): Promise<Array<{ name: N; payload: DomainEvents[N] }>> {
  const seen: Array<{ name: N; payload: DomainEvents[N] }> = [];
  const stops = names.map((name) =>
    events.subscribe(name, (payload) => void seen.push({ name, payload })),
  );
  try {
    await run();
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    stops.forEach((stop) => stop());
  }
  return seen;
}

const pageCount = (item = suite.itemId) => Page.countDocuments({ item_id: item });

const TRICKY = `<script>alert("x")</script> &amp; it's "quoted" & 100% + plus\n| a | b |\n中文 😀 %zz`;

describe('page/save — create', () => {
  test('anonymous callers get 10102 and nothing is written', async () => {
    const before = await pageCount();
    const answer = await api().fail('page/save', {
      page_id: 0,
      item_id: suite.itemId,
      page_title: 'T',
      page_content: 'x',
    });
    expect(answer.error_code).toBe(10102);
    expect(await pageCount()).toBe(before);
  });

  test('no page_id field at all creates a page, as in ShowDoc (scripts rely on it)', async () => {
    const before = await pageCount();
    const answer = await as(suite.owner).ok<{ page_id: number }>('page/save', {
      item_id: suite.itemId,
      page_title: 'From a script',
      page_content: 'created without page_id',
    });
    expect(await pageCount()).toBe(before + 1);
    const row = await Page.findOne({ page_id: answer.page_id }).lean();
    expect(row).toMatchObject({ item_id: suite.itemId, page_title: 'From a script' });
  });

  test("page answers carry exactly ShowDoc's columns (no article ID field)", async () => {
    const page = await makePage(suite.owner, suite.itemId, { customId: 'cols-1' });
    const info = await as(suite.owner).ok<Record<string, unknown>>('page/info', {
      page_id: page.page_id,
    });
    expect(info).not.toHaveProperty('page_custom_id');
    const saved = await as(suite.owner).ok<Record<string, unknown>>('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Cols',
      page_content: 'y',
    });
    expect(Object.keys(saved).sort()).toEqual(
      [
        'addtime',
        'author_uid',
        'author_username',
        'cat_id',
        'ext_info',
        'is_del',
        'is_draft',
        'item_id',
        'page_addtime',
        'page_comments',
        'page_content',
        'page_id',
        's_number',
        'page_title',
      ].sort(),
    );
  });

  test('bad input is refused with 10101 and writes nothing', async () => {
    const before = await pageCount();
    const otherItem = await makeItem(suite.owner);
    const foreignCat = await makeCatalog(suite.owner, otherItem.item_id, 'Foreign');
    const cases: Array<Record<string, string | number>> = [
      { page_id: 0, item_id: suite.itemId, page_title: 'T', page_content: '' },
      { page_id: 0, item_id: suite.itemId, page_title: '   ', page_content: 'x' },
      { page_id: 0, item_id: 0, page_title: 'T', page_content: 'x' },
      { page_id: 0, item_id: suite.itemId, page_title: 'x'.repeat(256), page_content: 'x' },
      {
        page_id: 0,
        item_id: suite.itemId,
        page_title: 'T',
        page_content: 'x',
        ext_info: '{not json',
      },
      {
        page_id: 0,
        item_id: suite.itemId,
        page_title: 'T',
        page_content: 'x',
        page_custom_id: 'has space',
      },
      { page_id: 0, item_id: suite.itemId, page_title: 'T', page_content: 'x', cat_id: foreignCat },
      {
        page_id: 0,
        item_id: suite.itemId,
        page_title: 'T',
        page_content: 'x',
        cat_id: 999_999_999,
      },
      { page_id: 0, item_id: suite.itemId, page_title: 'T', page_content: 'x', is_draft: 7 },
    ];
    for (const params of cases) {
      const answer = await as(suite.owner).fail('page/save', params);
      expect({ params, code: answer.error_code }).toEqual({ params, code: 10101 });
    }
    const operator = await as(suite.owner).call(
      'page/save',
      { page_id: 0, item_id: suite.itemId, page_title: { $ne: '' }, page_content: 'x' },
      { json: true },
    );
    expect(operator.body.error_code).toBe(10101);
    expect(await pageCount()).toBe(before);
  });

  test('read-only members, strangers and archived items get "no edit permission" (10101), nothing written', async () => {
    const archived = await makeItem(suite.owner);
    await Item.updateOne({ item_id: archived.item_id }, { $set: { is_archived: 1 } });
    forgetCachedReads();
    const before = await Page.countDocuments({});
    for (const [user, item] of [
      [suite.reader, suite.itemId],
      [suite.stranger, suite.itemId],
      [suite.owner, archived.item_id],
    ] as const) {
      const answer = await as(user).fail('page/save', {
        page_id: 0,
        item_id: item,
        page_title: 'T',
        page_content: 'x',
      });
      expect(answer.error_code).toBe(10101);
    }
    expect(await Page.countDocuments({})).toBe(before);
  });

  test('an editor creates a page: {page_id} as a number, raw row stored, change log, item touched, page.saved + menu.changed', async () => {
    await Item.updateOne({ item_id: suite.itemId }, { $set: { last_update_time: 1 } });
    forgetCachedReads();
    const catId = await makeCatalog(suite.owner, suite.itemId, 'Guide');
    let data: { page_id: number } | undefined;
    const seen = await capture(['page.saved', 'menu.changed'], async () => {
      data = await as(suite.editor).ok<{ page_id: number }>('page/save', {
        page_id: 0,
        item_id: suite.itemId,
        cat_id: catId,
        page_title: 'Getting started',
        page_content: '# Hello',
        page_comments: 'first',
      });
    });
    expect(typeof data!.page_id).toBe('number');
    const row = await Page.findOne({ page_id: data!.page_id }).lean();
    expect(row).toMatchObject({
      item_id: suite.itemId,
      cat_id: catId,
      page_title: 'Getting started',
      page_content: '# Hello',
      page_comments: 'first',
      s_number: 99,
      author_uid: suite.editor.uid,
      author_username: suite.editor.username,
      is_del: 0,
      is_draft: 0,
    });
    expect(row!.page_addtime).toBe(row!.addtime);
    expect(await PageHistory.countDocuments({ page_id: data!.page_id })).toBe(0);
    const log = await ItemChangeLog.findOne({
      item_id: suite.itemId,
      op_object_type: 'page',
      op_object_id: data!.page_id,
    }).lean();
    expect(log).toMatchObject({
      uid: suite.editor.uid,
      op_action_type: 'create',
      op_object_type: 'page',
      op_object_name: 'Getting started',
    });
    const touched = (await Item.findOne({ item_id: suite.itemId }).lean())!.last_update_time;
    expect(touched).toBeGreaterThan(1);
    expect(seen).toEqual([
      {
        name: 'page.saved',
        payload: {
          itemId: suite.itemId,
          pageId: data!.page_id,
          catId,
          byUid: suite.editor.uid,
          created: true,
          origin: 'rest',
          notify: null,
          // The time read models move the item's last_update_time to without reloading it.
          at: touched,
          // No document of the page is open in this process.
          live: false,
        },
      },
      { name: 'menu.changed', payload: { itemId: suite.itemId, byUid: suite.editor.uid } },
    ]);
  });
});

describe('page/save — update', () => {
  test('an update answers the full row (strings, raw addtime, escaped content), stores the replaced version and logs it', async () => {
    const page = await makePage(suite.owner, suite.itemId, {
      title: 'Old title',
      content: 'old <b>',
    });
    let row: Record<string, unknown> = {};
    const seen = await capture(['page.saved', 'menu.changed'], async () => {
      row = await as(suite.editor).ok('page/save', {
        page_id: page.page_id,
        item_id: suite.itemId,
        page_title: 'New title',
        page_content: 'new <b> & "x"',
        is_notify: 1,
        notify_content: 'Please re-read',
      });
    });
    expect(row).toMatchObject({
      page_id: String(page.page_id),
      item_id: String(suite.itemId),
      cat_id: '0',
      page_title: 'New title',
      page_content: 'new &lt;b&gt; &amp; &quot;x&quot;',
      s_number: '99',
      author_uid: String(suite.editor.uid),
      author_username: suite.editor.username,
      is_del: '0',
      is_draft: '0',
    });
    expect(row.addtime).toMatch(/^\d+$/);
    expect((await Page.findOne({ page_id: page.page_id }).lean())!.page_content).toBe(
      'new <b> & "x"',
    );
    const versions = await PageHistory.find({ page_id: page.page_id }).lean();
    expect(versions).toHaveLength(1);
    expect(versions[0]).toMatchObject({
      page_title: 'Old title',
      page_content: 'old <b>',
      author_uid: suite.owner.uid,
    });
    expect(
      await ItemChangeLog.countDocuments({
        item_id: suite.itemId,
        op_object_id: page.page_id,
        op_action_type: 'update',
      }),
    ).toBe(1);
    expect(seen).toEqual([
      {
        name: 'page.saved',
        payload: {
          itemId: suite.itemId,
          pageId: page.page_id,
          catId: 0,
          byUid: suite.editor.uid,
          created: false,
          // The version this update stored (the webhook digest diffs against it).
          versionId: expect.any(Number),
          origin: 'rest',
          notify: { content: 'Please re-read' },
          at: (await Item.findOne({ item_id: suite.itemId }).lean())!.last_update_time,
          live: false,
        },
      },
      { name: 'menu.changed', payload: { itemId: suite.itemId, byUid: suite.editor.uid } },
    ]);
  });

  test('a content-only update does not announce a menu change', async () => {
    const page = await makePage(suite.owner, suite.itemId, { title: 'Same' });
    const seen = await capture(['menu.changed'], () =>
      as(suite.owner).ok('page/save', {
        page_id: page.page_id,
        item_id: suite.itemId,
        page_title: 'Same',
        page_content: 'changed body',
      }),
    );
    expect(seen).toEqual([]);
  });

  test('updating a page through another item, a deleted page or a missing id answers "page does not exist" and writes nothing', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'keep me' });
    const other = await makeItem(suite.owner);
    const deleted = await makePage(suite.owner, suite.itemId, { content: 'gone' });
    await Page.updateOne({ page_id: deleted.page_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    for (const params of [
      { page_id: page.page_id, item_id: other.item_id },
      { page_id: deleted.page_id, item_id: suite.itemId },
      { page_id: 987_654_321, item_id: suite.itemId },
    ]) {
      const answer = await as(suite.owner).fail('page/save', {
        ...params,
        page_title: 'X',
        page_content: 'overwritten',
      });
      expect(answer).toMatchObject({ error_code: 10101, error_message: 'Page does not exist' });
    }
    expect((await Page.findOne({ page_id: page.page_id }).lean())!.page_content).toBe('keep me');
    expect((await Page.findOne({ page_id: deleted.page_id }).lean())!.page_content).toBe('gone');
    expect(
      await PageHistory.countDocuments({ page_id: { $in: [page.page_id, deleted.page_id] } }),
    ).toBe(0);
  });

  test('saving the page of a single-page item renames the item (update only)', async () => {
    const single = await makeItem(suite.owner, { item_type: 2, item_name: 'Solo' });
    const page = (await Page.findOne({ item_id: single.item_id }).lean())!;
    await as(suite.owner).ok('page/save', {
      page_id: 0,
      item_id: single.item_id,
      page_title: 'Created beside',
      page_content: 'x',
    });
    expect((await Item.findOne({ item_id: single.item_id }).lean())!.item_name).toBe('Solo');
    await as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id: single.item_id,
      page_title: 'Renamed solo',
      page_content: 'y',
    });
    expect((await Item.findOne({ item_id: single.item_id }).lean())!.item_name).toBe(
      'Renamed solo',
    );
  });

  test('article IDs are unique per item: a duplicate is refused and nothing is written', async () => {
    const first = await makePage(suite.owner, suite.itemId, { customId: 'intro-1' });
    expect(first.page_custom_id).toBe('intro-1');
    const before = await pageCount();
    const answer = await as(suite.owner).fail('page/save', {
      page_id: 0,
      item_id: suite.itemId,
      page_title: 'Dup',
      page_content: 'x',
      page_custom_id: 'intro-1',
    });
    expect(answer).toMatchObject({ error_code: 10101, error_message: 'Article ID already exists' });
    expect(await pageCount()).toBe(before);
    const other = await makeItem(suite.owner);
    await expect(
      makePage(suite.owner, other.item_id, { customId: 'intro-1' }),
    ).resolves.toMatchObject({
      page_custom_id: 'intro-1',
    });
  });
});

describe('content round trip', () => {
  test.each([
    [
      'is_urlencode=1 (encodeURIComponent, as ShowDoc clients send it)',
      { page_content: encodeURIComponent(TRICKY), is_urlencode: 1 },
    ],
    ['plain text', { page_content: TRICKY }],
    ['plain text in a JSON body', { page_content: TRICKY, json: true }],
  ])('%s: stored raw, read back escaped, un-escaped once = the original', async (_label, input) => {
    const { json, ...params } = input as Record<string, unknown>;
    const { page_id } = await as(suite.owner).ok<{ page_id: number }>(
      'page/save',
      {
        page_id: 0,
        item_id: suite.itemId,
        page_title: 'Tricky <title>',
        ...(params as Record<string, string>),
      },
      { json: Boolean(json) },
    );
    const stored = await Page.findOne({ page_id }).lean();
    expect(stored!.page_content).toBe(TRICKY);
    expect(stored!.page_title).toBe('Tricky <title>');
    const info = await as(suite.owner).ok<{ page_content: string; page_title: string }>(
      'page/info',
      {
        page_id,
      },
    );
    expect(info.page_content).not.toContain('<script>');
    expect(unescapeFromClient(info.page_content)).toBe(TRICKY);
    expect(info.page_title).toBe('Tricky <title>');
  });

  test('a malformed %-sequence in is_urlencode input is kept, not a failure; + becomes a space', async () => {
    const { page_id } = await as(suite.owner).ok<{ page_id: number }>('page/save', {
      page_id: 0,
      item_id: suite.itemId,
      page_title: 'Percent',
      page_content: '100%25 and 5%zz a+b',
      is_urlencode: 1,
    });
    expect((await Page.findOne({ page_id }).lean())!.page_content).toBe('100% and 5%zz a b');
  });
});

describe('page/info', () => {
  test('answers the row with string fields, formatted times, attachment_count and unique_key', async () => {
    const catId = await makeCatalog(suite.owner, suite.itemId, 'Info parent');
    const child = await makeCatalog(suite.owner, suite.itemId, 'Info child', catId);
    const page = await makePage(suite.owner, suite.itemId, { title: 'Deep', catId: child });
    const data = await api().ok<Record<string, unknown>>('page/info', {
      page_id: page.page_id,
      with_path: 1,
    });
    expect(data).toMatchObject({
      page_id: String(page.page_id),
      item_id: String(suite.itemId),
      cat_id: String(child),
      page_title: 'Deep',
      s_number: '99',
      is_del: '0',
      is_draft: '0',
      attachment_count: 0,
      unique_key: '',
      full_path: [
        { cat_id: String(catId), cat_name: 'Info parent' },
        { cat_id: String(child), cat_name: 'Info child' },
        { page_id: String(page.page_id), page_title: 'Deep' },
      ],
    });
    expect(data.addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(data.page_addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
  });

  test('the content is escaped on every read, from the kept page too, and a save is read at once', async () => {
    const page = await makePage(suite.owner, suite.itemId, {
      title: 'Kept',
      content: 'a <b> & "q" \'s 日本',
    });
    const read = () => api().ok<Record<string, unknown>>('page/info', { page_id: page.page_id });
    const first = await read();
    const second = await read();
    expect(first.page_content).toBe('a &lt;b&gt; &amp; &quot;q&quot; &#039;s 日本');
    expect(second).toEqual(first);
    await as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Kept',
      page_content: 'b </script> é',
    });
    expect((await read()).page_content).toBe('b &lt;/script&gt; é');
  });

  test('missing, deleted and id ≤ 0 pages answer 10101', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    await Page.updateOne({ page_id: page.page_id }, { $set: { is_del: 1 } });
    forgetCachedReads();
    for (const page_id of [page.page_id, 0, -3, 123_456_789, 'abc'])
      expect((await api().fail('page/info', { page_id })).error_code).toBe(10101);
  });

  test('a private item needs membership or the visit password; drafts are for their author only', async () => {
    const secret = await makeItem(suite.owner, { password: 'open-sesame' });
    const page = await makePage(suite.owner, secret.item_id, { title: 'Hidden' });
    // 10303: the spec's client goes to the item-password screen on a page fetch answering it.
    expect(await api().fail('page/info', { page_id: page.page_id })).toMatchObject({
      error_code: 10303,
    });
    expect(
      await as(suite.stranger).fail('page/info', { page_id: page.page_id, _item_pwd: 'wrong' }),
    ).toMatchObject({ error_code: 10303 });
    await expect(
      as(suite.stranger).ok('page/info', { page_id: page.page_id, _item_pwd: 'open-sesame' }),
    ).resolves.toMatchObject({ page_title: 'Hidden' });

    const draft = await makePage(suite.editor, suite.itemId, { isDraft: 1, title: 'Draft' });
    await expect(
      as(suite.editor).ok('page/info', { page_id: draft.page_id }),
    ).resolves.toMatchObject({
      is_draft: '1',
    });
    expect(await as(suite.owner).fail('page/info', { page_id: draft.page_id })).toMatchObject({
      error_code: 10101,
      error_message: 'Page does not exist',
    });
  });
});

describe('page/delete', () => {
  test('anonymous → 10102; bad id → 10101; nothing deleted', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect((await api().fail('page/delete', { page_id: page.page_id })).error_code).toBe(10102);
    expect((await as(suite.owner).fail('page/delete', { page_id: 0 })).error_code).toBe(10101);
    expect((await as(suite.owner).fail('page/delete', { page_id: 999_999_999 })).error_code).toBe(
      10101,
    );
    expect((await Page.findOne({ page_id: page.page_id }).lean())!.is_del).toBe(0);
  });

  test("readers, strangers, editors deleting others' pages and former editors get 10303; the page stays", async () => {
    const byOwner = await makePage(suite.owner, suite.itemId);
    const formerEditor = await makeUser();
    await addMember(suite.itemId, formerEditor, 1);
    const byFormer = await makePage(formerEditor, suite.itemId);
    const { ItemMember } = await import('../../models/members/schemas/itemMember');
    await ItemMember.deleteOne({ item_id: suite.itemId, uid: formerEditor.uid });
    forgetCachedReads();
    for (const [user, page] of [
      [suite.reader, byOwner],
      [suite.stranger, byOwner],
      [suite.editor, byOwner],
      [formerEditor, byFormer],
    ] as const)
      expect((await as(user).fail('page/delete', { page_id: page.page_id })).error_code).toBe(
        10303,
      );
    expect(
      await Page.countDocuments({
        page_id: { $in: [byOwner.page_id, byFormer.page_id] },
        is_del: 0,
      }),
    ).toBe(2);
    expect(
      await Recycle.countDocuments({ page_id: { $in: [byOwner.page_id, byFormer.page_id] } }),
    ).toBe(0);
  });

  test('an editor deletes their own page, a manager any page: recycle row, item touched, change log, events', async () => {
    const mine = await makePage(suite.editor, suite.itemId, { title: 'Mine' });
    const theirs = await makePage(suite.owner, suite.itemId, { title: 'Theirs' });
    await Item.updateOne({ item_id: suite.itemId }, { $set: { last_update_time: 1 } });
    forgetCachedReads();
    const seen = await capture(['page.deleted', 'menu.changed'], async () => {
      expect(await as(suite.editor).ok('page/delete', { page_id: mine.page_id })).toEqual([]);
    });
    expect(seen).toEqual([
      {
        name: 'page.deleted',
        payload: { itemId: suite.itemId, pageId: mine.page_id, byUid: suite.editor.uid },
      },
      { name: 'menu.changed', payload: { itemId: suite.itemId, byUid: suite.editor.uid } },
    ]);
    await as(suite.owner).ok('page/delete', { page_id: theirs.page_id });
    expect(
      await Page.countDocuments({ page_id: { $in: [mine.page_id, theirs.page_id] }, is_del: 1 }),
    ).toBe(2);
    expect(await Recycle.findOne({ page_id: mine.page_id }).lean()).toMatchObject({
      item_id: suite.itemId,
      page_title: 'Mine',
      del_by_uid: suite.editor.uid,
      del_by_username: suite.editor.username,
    });
    expect(
      (await Item.findOne({ item_id: suite.itemId }).lean())!.last_update_time,
    ).toBeGreaterThan(1);
    expect(
      await ItemChangeLog.countDocuments({
        item_id: suite.itemId,
        op_action_type: 'delete',
        op_object_id: { $in: [mine.page_id, theirs.page_id] },
      }),
    ).toBe(2);
    expect((await api().fail('page/info', { page_id: mine.page_id })).error_code).toBe(10101);
  });
});
