/**
 * Spreadsheet items (type 4) over real HTTP and a real socket: page/save checks the sheet JSON
 * (malformed or oversized content gets a clear error and the stored version stays), readers
 * cannot save, history and diff work on sheet versions, the lock calls cover the sheet's flow,
 * and each save pushes the changed cells to the page's room.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { unescapeFromClient } from '../../models/pages/pageContent';
import { Page } from '../../models/pages/schemas/page';
import { MAX_SHEET_CONTENT } from '../../models/pages/sheetContent';
import { addMember, makeItem } from '../helpers/factories';
import { serverSuite } from '../helpers/apiSuite';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';

const suite = serverSuite({ teardown: closeAllSockets });
const { as } = suite;
let owner: TestUser;
let editor: TestUser;
let reader: TestUser;

beforeAll(async () => {
  [owner, editor, reader] = await Promise.all([makeUser(), makeUser(), makeUser()]);
});

/** A workbook in x-spreadsheet's format: `cells[sheet][row][col] = text`. */
function workbook(...sheets: Array<{ name: string; cells: string[][] }>): string {
  return JSON.stringify(
    sheets.map(({ name, cells }) => ({
      name,
      rows: Object.fromEntries(
        cells.map((row, r) => [
          String(r),
          { cells: Object.fromEntries(row.map((text, c) => [String(c), { text }])) },
        ]),
      ),
    })),
  );
}

/** A new spreadsheet item (its one page made by item creation), its editor and reader added. */
async function sheetItem(): Promise<{ itemId: number; pageId: number }> {
  const { item_id: itemId } = await makeItem(owner, { item_type: 4 });
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
  const page = await Page.findOne({ item_id: itemId, is_del: 0 }, { page_id: 1 }).lean();
  return { itemId, pageId: page!.page_id };
}

/** Saves as ShowDoc's spreadsheet view does: URL-encoded JSON with is_urlencode=1. */
function save(itemId: number, pageId: number, content: string) {
  return {
    page_id: pageId,
    item_id: itemId,
    page_title: 'Sheet',
    is_urlencode: 1,
    page_content: encodeURIComponent(content),
  };
}

async function stored(pageId: number): Promise<string> {
  const page = await as(owner).ok<{ page_content: string }>('page/info', { page_id: pageId });
  return unescapeFromClient(page.page_content);
}

describe('page/save on a spreadsheet page', () => {
  test('an editor saves URL-encoded sheet JSON; page/info returns it unchanged (text with <, & and quotes included)', async () => {
    const { itemId, pageId } = await sheetItem();
    const content = workbook(
      {
        name: 'Plan',
        cells: [
          ['a<b', 'x & "y"'],
          ['3', '=A1'],
        ],
      },
      { name: 'Second', cells: [['only']] },
    );
    await as(editor).ok('page/save', save(itemId, pageId, content));
    expect(await stored(pageId)).toBe(content);
  });

  test.each([
    ['not JSON', '{"name":"S1","rows":', /not JSON/],
    ['a list of non-objects', '[1,2]', /sheet 1 is not an object/],
    ['rows that are a list', '[{"name":"S","rows":[1]}]', /rows of sheet 1/],
    ['a cell that is text', '[{"name":"S","rows":{"0":{"cells":{"0":"x"}}}}]', /cell 0:0/],
    ['a row index out of range', '[{"name":"S","rows":{"-1":{"cells":{}}}}]', /out of range/],
    ['a sheet name that is a number', '[{"name":5,"rows":{}}]', /name that is not text/],
  ])(
    'malformed content (%s) gets 10101 naming the problem; the previous version stays',
    async (_label, bad, message) => {
      const { itemId, pageId } = await sheetItem();
      const good = workbook({ name: 'S', cells: [['kept']] });
      await as(editor).ok('page/save', save(itemId, pageId, good));
      const answer = await as(editor).fail('page/save', save(itemId, pageId, bad));
      expect(answer.error_code).toBe(10101);
      expect(answer.error_message).toMatch(/Invalid spreadsheet content/);
      expect(answer.error_message).toMatch(message);
      expect(await stored(pageId)).toBe(good);
      expect(await as(owner).ok('page/history', { page_id: pageId })).toHaveLength(1);
    },
  );

  test('an oversized sheet gets 10101 "too large"; the previous version stays', async () => {
    const { itemId, pageId } = await sheetItem();
    const good = workbook({ name: 'S', cells: [['kept']] });
    await as(editor).ok('page/save', save(itemId, pageId, good));
    const huge = workbook({ name: 'S', cells: [['x'.repeat(MAX_SHEET_CONTENT)]] });
    const answer = await as(editor).fail('page/save', {
      ...save(itemId, pageId, huge),
      is_urlencode: 0,
      page_content: huge,
    });
    expect(answer.error_code).toBe(10101);
    expect(answer.error_message).toMatch(/too large/);
    expect(await stored(pageId)).toBe(good);
  });

  test('a reader cannot save (10101) and the page stays as it was', async () => {
    const { itemId, pageId } = await sheetItem();
    const good = workbook({ name: 'S', cells: [['kept']] });
    await as(editor).ok('page/save', save(itemId, pageId, good));
    const answer = await as(reader).fail(
      'page/save',
      save(itemId, pageId, workbook({ name: 'S', cells: [['reader']] })),
    );
    expect(answer.error_code).toBe(10101);
    expect(await stored(pageId)).toBe(good);
  });

  test('regular items still accept any text (the sheet check is for spreadsheet items only)', async () => {
    const { item_id: itemId } = await makeItem(owner);
    const answer = await as(owner).ok<{ page_id: number }>('page/save', {
      page_id: 0,
      item_id: itemId,
      page_title: 'Markdown',
      page_content: '{"name":',
    });
    expect(answer.page_id).toBeGreaterThan(0);
  });
});

describe('history, diff and locks of a spreadsheet page', () => {
  test('each save keeps the replaced workbook as a version; page/diff returns both workbooks', async () => {
    const { itemId, pageId } = await sheetItem();
    const v1 = workbook({ name: 'S', cells: [['one']] });
    const v2 = workbook({ name: 'S', cells: [['two']] });
    await as(editor).ok('page/save', save(itemId, pageId, v1));
    await as(editor).ok('page/save', save(itemId, pageId, v2));
    const history = await as(owner).ok<Array<{ page_history_id: string; page_content: string }>>(
      'page/history',
      { page_id: pageId },
    );
    expect(history.map((h) => unescapeFromClient(h.page_content))).toEqual([v1, '']);
    const diff = await as(reader).ok<{
      page: { page_content: string };
      history_page: { page_content: string };
    }>('page/diff', { page_id: pageId, page_history_id: history[0].page_history_id });
    expect(unescapeFromClient(diff.page.page_content)).toBe(v2);
    expect(unescapeFromClient(diff.history_page.page_content)).toBe(v1);
  });

  test('setLock/isLock: the editor locks, a co-editor is told who holds it, lock_to=1000 releases; a beacon with user_token in the body releases too', async () => {
    const { itemId, pageId } = await sheetItem();
    await as(editor).ok('page/setLock', { page_id: pageId, item_id: itemId });
    expect(await as(owner).ok('page/isLock', { page_id: pageId })).toMatchObject({
      lock: 1,
      is_cur_user: 0,
      lock_username: editor.username,
    });
    await as(editor).ok('page/setLock', { page_id: pageId, item_id: itemId, lock_to: 1000 });
    expect(await as(owner).ok('page/isLock', { page_id: pageId })).toMatchObject({ lock: 0 });

    await as(editor).ok('page/setLock', { page_id: pageId, item_id: itemId });
    // navigator.sendBeacon posts a form body without headers: the token travels in the body.
    const beacon = await suite.server.api.ok('page/setLock', {
      page_id: pageId,
      item_id: itemId,
      lock_to: 1000,
      user_token: editor.user_token,
    });
    expect(beacon).toBeDefined();
    expect(await as(owner).ok('page/isLock', { page_id: pageId })).toMatchObject({ lock: 0 });
  });
});

describe('live cell changes', () => {
  test('a save pushes sheet:changed with only the changed cells to the page room; a new sheet pushes cells: null', async () => {
    const { itemId, pageId } = await sheetItem();
    await as(editor).ok(
      'page/save',
      save(itemId, pageId, workbook({ name: 'S', cells: [['a', 'b'], ['c']] })),
    );
    const watcher = await connectClient(suite.server.url, { user_token: reader.user_token });
    expect(await watcher.watch({ page_id: pageId, mode: 'viewing' })).toMatchObject({ ok: true });

    await as(editor).ok(
      'page/save',
      save(
        itemId,
        pageId,
        workbook({
          name: 'S',
          cells: [
            ['a', 'B!'],
            ['', 'new'],
          ],
        }),
      ),
    );
    const pushed = await watcher.waitFor('sheet:changed', (p) => p.cells !== null);
    expect(pushed).toMatchObject({ item_id: itemId, page_id: pageId, by_uid: editor.uid });
    expect([...pushed.cells!].sort((x, y) => x.row - y.row || x.col - y.col)).toEqual([
      { sheet: 0, row: 0, col: 1, text: 'B!' },
      { sheet: 0, row: 1, col: 0, text: '' },
      { sheet: 0, row: 1, col: 1, text: 'new' },
    ]);

    await as(editor).ok(
      'page/save',
      save(itemId, pageId, workbook({ name: 'S', cells: [['a']] }, { name: 'T', cells: [['t']] })),
    );
    await watcher.waitFor('sheet:changed', (p) => p.cells === null);
    watcher.close();
  });
});
