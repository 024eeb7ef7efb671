/**
 * page/history, page/updateHistoryComments and page/diff over real HTTP: version retention by the
 * `history_version_count` setting, shapes and escaping, and remarks editable only on versions of
 * the page named in the request.
 */
import { describe, expect, test } from '@jest/globals';
import { unescapeFromClient } from '../../models/pages/pageContent';
import { LOG_TRIM_EVERY, MAX_ROWS } from '../../models/items/changeLog';
import { ItemChangeLog } from '../../models/items/schemas/itemChangeLog';
import { Page } from '../../models/pages/schemas/page';
import { HISTORY_TRIM_EVERY } from '../../models/pages/pageHistory';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { nextId, raiseCounter } from '../../models/platform/counters';
import { deleteSetting, setSetting } from '../../models/settings/settings';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makePage, updatePage } from '../helpers/pages';

const suite = apiSuite({ item: {} });

const { as } = suite;

describe('page/history', () => {
  test('lists versions newest first: strings, formatted addtime, content escaped without quotes', async () => {
    const page = await makePage(suite.owner, suite.itemId, {
      title: 'v1',
      content: 'one <i>"q"</i> &',
    });
    await updatePage(suite.editor, page, 'two', 'v2');
    await updatePage(suite.owner, page, 'three', 'v3');
    const rows = await suite.server.api.ok<Array<Record<string, string>>>('page/history', {
      page_id: page.page_id,
    });
    expect(rows.map((r) => r.page_title)).toEqual(['v2', 'v1']);
    expect(rows[1]).toMatchObject({
      page_id: String(page.page_id),
      item_id: String(suite.itemId),
      cat_id: '0',
      s_number: '99',
      author_uid: String(suite.owner.uid),
      author_username: suite.owner.username,
      page_content: 'one &lt;i&gt;"q"&lt;/i&gt; &amp;',
    });
    expect(rows[1].page_history_id).toMatch(/^\d+$/);
    expect(rows[1].addtime).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/);
    expect(unescapeFromClient(rows[1].page_content)).toBe('one <i>"q"</i> &');
  });

  test('a page never updated has an empty history ([]); missing pages and private items answer 10101', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(await suite.server.api.ok('page/history', { page_id: page.page_id })).toEqual([]);
    expect((await suite.server.api.fail('page/history', { page_id: 0 })).error_code).toBe(10101);
    const secret = await makeItem(suite.owner, { password: 'pw-1' });
    const hidden = await makePage(suite.owner, secret.item_id);
    await updatePage(suite.owner, hidden, 'v2');
    expect(
      (await as(suite.stranger).fail('page/history', { page_id: hidden.page_id })).error_code,
    ).toBe(10101);
    await expect(
      as(suite.stranger).ok('page/history', { page_id: hidden.page_id, _item_pwd: 'pw-1' }),
    ).resolves.toHaveLength(1);
  });

  test('retention: with the default of 20, 21 updates keep the newest 20 versions (the oldest goes)', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'version 0' });
    for (let n = 1; n <= 21; n++)
      await as(suite.owner).ok('page/save', {
        page_id: page.page_id,
        item_id: suite.itemId,
        page_title: `t${n}`,
        page_content: `version ${n}`,
      });
    const kept = await PageHistory.find({ page_id: page.page_id })
      .sort({ page_history_id: 1 })
      .lean();
    expect(kept).toHaveLength(20);
    expect(kept[0].page_content).toBe('version 1');
    expect(kept[19].page_content).toBe('version 20');
    const listed = await suite.server.api.ok<Array<{ page_content: string }>>('page/history', {
      page_id: page.page_id,
    });
    expect(listed).toHaveLength(20);
    expect(listed[0].page_content).toBe('version 20');
  });

  test("page saves keep the item's change log at its newest 300 rows", async () => {
    const { item_id: itemId } = await makeItem(suite.owner, {});
    const page = await makePage(suite.owner, itemId, { content: 'v0' }); // one row: create
    const firstId = (await nextId('item_change_log_id')) + 1;
    await raiseCounter('item_change_log_id', firstId + MAX_ROWS);
    await ItemChangeLog.insertMany(
      Array.from({ length: MAX_ROWS }, (_, i) => ({
        id: firstId + i,
        uid: suite.owner.uid,
        item_id: itemId,
        op_action_type: 'update',
        op_object_type: 'page',
        op_object_id: i,
        optime: '2024-01-01 00:00:00',
      })),
    );
    // Enough saves that at least one of their rows trims (one id in LOG_TRIM_EVERY does).
    const saves = LOG_TRIM_EVERY + 5;
    for (let n = 1; n <= saves; n++)
      await as(suite.owner).ok('page/save', {
        page_id: page.page_id,
        item_id: itemId,
        page_title: 'kept',
        page_content: `v${n}`,
      });
    const listed = await as(suite.owner).ok<{
      total: number;
      list: Array<{ op_action_type: string; op_object_id: number }>;
    }>('item/getChangeLog', { item_id: itemId, page: 3, count: 100 });
    expect(listed.total).toBe(MAX_ROWS);
    // Page 3 ends with the 300th newest row: after the saves, the newest 279 fillers (#21–#299).
    expect(listed.list.at(-1)!.op_object_id).toBe(saves);
    const newest = await as(suite.owner).ok<{ list: Array<{ op_object_id: number }> }>(
      'item/getChangeLog',
      { item_id: itemId, page: 1, count: saves },
    );
    expect(newest.list.map((r) => r.op_object_id)).toEqual(Array(saves).fill(page.page_id));
    // The create row and the oldest fillers went with the last trim (at least 6 rows in).
    const rows = await ItemChangeLog.find({ item_id: itemId }).sort({ id: 1 }).lean();
    expect(rows[0].op_action_type).toBe('update');
    expect(rows[0].op_object_id).toBeGreaterThanOrEqual(5);
    expect(rows.length).toBeLessThan(MAX_ROWS + LOG_TRIM_EVERY);
  });

  test('versions stored before pages numbered them are kept and trimmed in order with the new ones', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'now' });
    // As an earlier version left it: 24 versions without a number, the page without a sequence.
    const firstId = (await nextId('page_history_id')) + 1;
    await raiseCounter('page_history_id', firstId + 24);
    await PageHistory.insertMany(
      Array.from({ length: 24 }, (_, i) => ({
        page_history_id: firstId + i,
        page_id: page.page_id,
        item_id: suite.itemId,
        page_title: `old ${i}`,
        page_content: `old ${i}`,
        addtime: 1_700_000_000 + i,
      })),
    );
    await Page.updateOne({ page_id: page.page_id }, { $unset: { history_seq: 1 } });
    const listed = async () =>
      (
        await suite.server.api.ok<Array<{ page_title: string }>>('page/history', {
          page_id: page.page_id,
        })
      ).map((v) => v.page_title);
    const stored = async () =>
      (await PageHistory.find({ page_id: page.page_id }).sort({ page_history_id: -1 }).lean()).map(
        (v) => v.page_title,
      );
    const old = (from: number, to: number) =>
      Array.from({ length: from - to + 1 }, (_, i) => `old ${from - i}`);

    await updatePage(suite.owner, page, 'v1', 'new 1');
    expect(await stored()).toEqual([page.page_title, ...old(23, 5)]);
    expect(await listed()).toEqual(await stored());
    for (let n = 2; n <= 4; n++) await updatePage(suite.owner, page, `v${n}`, `new ${n}`);
    const newest = ['new 3', 'new 2', 'new 1', page.page_title, ...old(23, 8)];
    expect(await listed()).toEqual(newest);
    // The older ones wait for the next trimming save (one in HISTORY_TRIM_EVERY).
    expect(await stored()).toEqual([...newest, ...old(7, 5)]);
    await updatePage(suite.owner, page, 'v5', 'new 5');
    expect(await stored()).toEqual(['new 4', ...newest.slice(0, -1)]);
    expect(await listed()).toEqual(await stored());
  });

  test('a version of a page from older data lacking optional fields lists them as empty', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'old row' });
    await Page.updateOne(
      { page_id: page.page_id },
      { $unset: { page_comments: 1, ext_info: 1, author_username: 1 } },
    );
    await updatePage(suite.owner, page, 'new row');
    const [version] = await suite.server.api.ok<Array<Record<string, string>>>('page/history', {
      page_id: page.page_id,
    });
    expect(version).toMatchObject({ page_comments: '', ext_info: '', author_username: '' });
  });

  test('retention follows the history_version_count site setting; the versions past it go one save in eight', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'v0' });
    const stored = async () =>
      (await PageHistory.find({ page_id: page.page_id }).sort({ page_history_id: 1 }).lean()).map(
        (v) => v.page_content,
      );
    const listed = async () =>
      (
        await suite.server.api.ok<Array<{ page_content: string }>>('page/history', {
          page_id: page.page_id,
        })
      ).map((v) => v.page_content);
    try {
      await setSetting('history_version_count', '3');
      for (let n = 1; n <= 5; n++) await updatePage(suite.owner, page, `v${n}`);
      // The first save past the setting dropped the oldest; the next ones wait for the trim.
      expect(await listed()).toEqual(['v4', 'v3', 'v2']);
      expect(await stored()).toEqual(['v1', 'v2', 'v3', 'v4']);
      for (let n = 6; n <= 11; n++) await updatePage(suite.owner, page, `v${n}`);
      expect(await listed()).toEqual(['v10', 'v9', 'v8']);
      expect(await stored()).toHaveLength(3 + HISTORY_TRIM_EVERY - 1);
      // The trimming save (the eighth since the last) leaves exactly the newest three.
      await updatePage(suite.owner, page, 'v12');
      expect(await stored()).toEqual(['v9', 'v10', 'v11']);
      expect(await listed()).toEqual(['v11', 'v10', 'v9']);
    } finally {
      await deleteSetting('history_version_count');
    }
  });
});

describe('kept versions at rest', () => {
  // Long enough to be stored deflated; CJK, an emoji and markup survive the round trip.
  const longText = (tag: string) =>
    `# ${tag}\n\n` +
    Array.from(
      { length: 40 },
      (_, i) => `Line ${i}: 文档 <b>"bold"</b> & 🚀 — the ${tag} version's text.`,
    ).join('\n');

  test('a long version is stored deflated and reads back exactly in page/history and page/diff', async () => {
    const first = longText('first');
    const page = await makePage(suite.owner, suite.itemId, { title: 'v1', content: first });
    await updatePage(suite.owner, page, longText('second'), 'v2');
    const row = (await PageHistory.findOne({ page_id: page.page_id }).lean())!;
    expect(row.page_content).toBe('');
    const packed = row.page_content_z as unknown as { buffer: Uint8Array };
    expect(packed.buffer.byteLength).toBeGreaterThan(0);
    expect(packed.buffer.byteLength).toBeLessThan(Buffer.byteLength(first) / 2);

    const [listed] = await suite.server.api.ok<Array<Record<string, string>>>('page/history', {
      page_id: page.page_id,
    });
    expect(listed).not.toHaveProperty('page_content_z');
    expect(unescapeFromClient(listed.page_content)).toBe(first);
    const diff = await suite.server.api.ok<{ history_page: Record<string, string> }>('page/diff', {
      page_id: page.page_id,
      page_history_id: row.page_history_id,
    });
    expect(diff.history_page).not.toHaveProperty('page_content_z');
    expect(unescapeFromClient(diff.history_page.page_content)).toBe(first);
  });

  test('a short version stays plain; plain rows from earlier data read as before', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'short' });
    await updatePage(suite.owner, page, longText('current'));
    const row = (await PageHistory.findOne({ page_id: page.page_id }).lean())!;
    expect(row.page_content).toBe('short');
    expect(row.page_content_z).toBeUndefined();
    // A long plain row, as versions were stored before they were deflated.
    const old = longText('older');
    await PageHistory.updateOne({ _id: row._id }, { $set: { page_content: old } });
    const [listed] = await suite.server.api.ok<Array<Record<string, string>>>('page/history', {
      page_id: page.page_id,
    });
    expect(unescapeFromClient(listed.page_content)).toBe(old);
  });
});

describe('page/updateHistoryComments', () => {
  async function pageWithVersion() {
    const page = await makePage(suite.owner, suite.itemId, { content: 'a' });
    await updatePage(suite.owner, page, 'b');
    const version = (await PageHistory.findOne({ page_id: page.page_id }).lean())!;
    return { page, version };
  }

  test('anonymous, readers and strangers get 10101; the remark is unchanged', async () => {
    const { page, version } = await pageWithVersion();
    const params = {
      page_id: page.page_id,
      page_history_id: version.page_history_id,
      page_comments: 'hacked',
    };
    for (const client of [suite.server.api, as(suite.reader), as(suite.stranger)])
      expect((await client.fail('page/updateHistoryComments', params)).error_code).toBe(10101);
    expect(
      (await PageHistory.findOne({ page_history_id: version.page_history_id }).lean())!
        .page_comments,
    ).toBe('');
  });

  test('ids ≤ 0 or an oversize remark answer 10101 and write nothing', async () => {
    const { page, version } = await pageWithVersion();
    for (const params of [
      { page_id: 0, page_history_id: version.page_history_id, page_comments: 'x' },
      { page_id: page.page_id, page_history_id: 0, page_comments: 'x' },
      {
        page_id: page.page_id,
        page_history_id: version.page_history_id,
        page_comments: 'x'.repeat(1001),
      },
    ])
      expect((await as(suite.owner).fail('page/updateHistoryComments', params)).error_code).toBe(
        10101,
      );
    expect(
      (await PageHistory.findOne({ page_history_id: version.page_history_id }).lean())!
        .page_comments,
    ).toBe('');
  });

  test('a version of another page (even one the caller may edit) is not touched: {success: false}', async () => {
    const a = await pageWithVersion();
    const otherItem = await makeItem(suite.stranger);
    const b = await makePage(suite.stranger, otherItem.item_id, { content: 'x' });
    await updatePage(suite.stranger, b, 'y');
    const foreign = (await PageHistory.findOne({ page_id: b.page_id }).lean())!;
    const data = await as(suite.owner).ok('page/updateHistoryComments', {
      page_id: a.page.page_id,
      page_history_id: foreign.page_history_id,
      page_comments: 'cross',
    });
    expect(data).toEqual({ success: false });
    expect(
      (await PageHistory.findOne({ page_history_id: foreign.page_history_id }).lean())!
        .page_comments,
    ).toBe('');
  });

  test('an editor sets the remark of a version of the page: {success: true}', async () => {
    const { page, version } = await pageWithVersion();
    const data = await as(suite.editor).ok('page/updateHistoryComments', {
      page_id: page.page_id,
      page_history_id: version.page_history_id,
      page_comments: 'before the rewrite',
    });
    expect(data).toEqual({ success: true });
    expect(
      (await PageHistory.findOne({ page_history_id: version.page_history_id }).lean())!
        .page_comments,
    ).toBe('before the rewrite');
  });
});

describe('page/diff', () => {
  test('answers the current page (raw addtime) and the version, both escaped once', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'old "<line>"' });
    await updatePage(suite.editor, page, "new '<line>'");
    const version = (await PageHistory.findOne({ page_id: page.page_id }).lean())!;
    const data = await suite.server.api.ok<{
      page: Record<string, string>;
      history_page: Record<string, string>;
    }>('page/diff', {
      page_id: page.page_id,
      page_history_id: version.page_history_id,
    });
    expect(data.page).toMatchObject({
      page_id: String(page.page_id),
      page_content: 'new &#039;&lt;line&gt;&#039;',
      author_uid: String(suite.editor.uid),
    });
    expect(data.page.addtime).toMatch(/^\d+$/);
    expect(data.history_page).toMatchObject({
      page_history_id: String(version.page_history_id),
      page_content: 'old &quot;&lt;line&gt;&quot;',
    });
    expect(unescapeFromClient(data.history_page.page_content)).toBe('old "<line>"');
  });

  test('bad ids, a version of another page and private items answer 10101', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'a' });
    await updatePage(suite.owner, page, 'b');
    const other = await makePage(suite.owner, suite.itemId, { content: 'c' });
    await updatePage(suite.owner, other, 'd');
    const foreign = (await PageHistory.findOne({ page_id: other.page_id }).lean())!;
    expect(
      (await suite.server.api.fail('page/diff', { page_id: page.page_id, page_history_id: 0 }))
        .error_code,
    ).toBe(10101);
    expect(
      (
        await suite.server.api.fail('page/diff', {
          page_id: 0,
          page_history_id: foreign.page_history_id,
        })
      ).error_code,
    ).toBe(10101);
    expect(
      await suite.server.api.fail('page/diff', {
        page_id: page.page_id,
        page_history_id: foreign.page_history_id,
      }),
    ).toMatchObject({
      error_code: 10101,
      error_message: 'History version does not exist',
    });
    const secret = await makeItem(suite.owner, { password: 'pw-2' });
    const hidden = await makePage(suite.owner, secret.item_id);
    await updatePage(suite.owner, hidden, 'z');
    const hiddenVersion = (await PageHistory.findOne({ page_id: hidden.page_id }).lean())!;
    expect(
      (
        await as(suite.stranger).fail('page/diff', {
          page_id: hidden.page_id,
          page_history_id: hiddenVersion.page_history_id,
        })
      ).error_code,
    ).toBe(10101);
  });
});
