/**
 * `kanban/*` over real HTTP against kanban items (type 6): the board and task pages stored in
 * ShowDoc's formats, each board operation (tasks, moves with positions, lists, archive/restore),
 * the activity log (getActivity, exportActivity's CSV, logEvent), rights as for pages, the live
 * push to a socket watching the board, search finding card titles, and a ShowDoc-made board
 * (built here from ShowDoc's export format) imported through import/auto and opened.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { strToU8, zipSync } from 'fflate';
import { Page } from '../../models/pages/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { postMultipart } from '../helpers/uploads';
import type { TestUser } from '../helpers/users';

const suite = apiSuite({ teardown: closeAllSockets });

interface Card {
  page_id: number;
  page_title: string;
  list_id: string;
  description: string;
  assignee_uid: string;
  tags: { color: string; text: string }[];
  priority: string;
  due_date: string;
  completed: boolean;
}
interface BoardJson {
  lists: { id: string; title: string; position: number }[];
  tasks_order: Record<string, string[]>;
  archived_lists: { id: string; title: string; position: number }[];
  archived_tasks_order: Record<string, string[]>;
  meta: { version: number; last_updated: number };
}
interface Board {
  item_id: number;
  page_id: number;
  board: BoardJson;
  cards: Card[];
  can_edit: boolean;
}

let itemId: number;
const as = (user: TestUser) => suite.as(user);
const board = (user = suite.owner, id = itemId) =>
  as(user).ok<Board>('kanban/board', { item_id: id });
const titlesIn = (b: Board, listId: string) =>
  (b.board.tasks_order[listId] ?? []).map(
    (id) => b.cards.find((c) => String(c.page_id) === id)?.page_title,
  );
async function storedBoard(id = itemId): Promise<BoardJson> {
  const page = await Page.findOne({
    item_id: id,
    page_title: '__kanban_board__',
    is_del: 0,
  }).lean();
  return JSON.parse(page!.page_content) as BoardJson;
}

beforeAll(async () => {
  itemId = (
    await as(suite.owner).ok<{ item_id: number }>('item/add', {
      item_name: 'Sprint board',
      item_type: 6,
    })
  ).item_id;
  await as(suite.owner).ok('member/save', {
    item_id: itemId,
    username: suite.editor.username,
    member_group_id: 1,
  });
  await as(suite.owner).ok('member/save', {
    item_id: itemId,
    username: suite.reader.username,
    member_group_id: 0,
  });
});
afterAll(closeAllSockets);

describe('board and task pages in ShowDoc’s formats', () => {
  test('a new kanban item opens with its board page: lists, order, version', async () => {
    const b = await board();
    expect(b.board.lists.map((l) => l.id)).toEqual([
      'list_default_1',
      'list_default_2',
      'list_default_3',
    ]);
    expect(b.board.tasks_order).toEqual({
      list_default_1: [],
      list_default_2: [],
      list_default_3: [],
    });
    expect(b.cards).toEqual([]);
    expect(b.can_edit).toBe(true);
    const stored = await storedBoard();
    expect(stored).toMatchObject({ archived_lists: [], archived_tasks_order: {} });
    expect(stored.meta.version).toBeGreaterThanOrEqual(1);
    // ShowDoc's clients read the board page through page/info, escaped once.
    const info = await as(suite.owner).ok<{ page_content: string; page_title: string }>(
      'page/info',
      { page_id: b.page_id },
    );
    expect(info.page_title).toBe('__kanban_board__');
    expect(JSON.parse(info.page_content.replace(/&quot;/g, '"'))).toMatchObject({
      lists: stored.lists,
    });
  });

  test('addTask writes a task page (JSON content, ext_info) and puts its id in the list', async () => {
    const card = await as(suite.editor).ok<Card>('kanban/addTask', {
      item_id: itemId,
      list_id: 'list_default_1',
      title: 'Write the spec',
      description: '# Goal\n\nShip **it**',
      priority: 'high',
      tags: JSON.stringify([{ color: 'blue', text: 'docs' }]),
      due_date: '2030-01-31',
    });
    const page = await Page.findOne({ page_id: card.page_id }).lean();
    expect(page?.page_title).toBe('Write the spec');
    const task = JSON.parse(page!.page_content) as Record<string, unknown>;
    expect(task).toMatchObject({
      list_id: 'list_default_1',
      description: '# Goal\n\nShip **it**',
      assignee_uid: '',
      creator_uid: String(suite.editor.uid),
      priority: 'high',
      tags: [{ color: 'blue', text: 'docs' }],
      due_date: '2030-01-31',
      linked_pages: [],
      completed: false,
    });
    expect(JSON.parse(page!.ext_info ?? '{}')).toMatchObject({
      priority: 'high',
      completed: false,
    });
    expect((await storedBoard()).tasks_order.list_default_1).toEqual([String(card.page_id)]);
    const task2 = await as(suite.owner).ok<{ list_name: string; description: string }>(
      'kanban/task',
      { page_id: card.page_id },
    );
    expect(task2).toMatchObject({ list_name: 'To do', description: '# Goal\n\nShip **it**' });
  });

  test('bad fields are refused with 10101 and change nothing', async () => {
    const before = await storedBoard();
    for (const bad of [
      { title: '' },
      { title: 'x'.repeat(101) },
      { title: 'ok', priority: 'urgent' },
      {
        title: 'ok',
        tags: JSON.stringify([1, 2, 3, 4].map((n) => ({ color: 'red', text: `t${n}` }))),
      },
      { title: 'ok', tags: JSON.stringify([{ color: 'pink', text: 'x' }]) },
      { title: 'ok', due_date: 'tomorrow' },
    ])
      expect(
        (
          await as(suite.owner).fail('kanban/addTask', {
            item_id: itemId,
            list_id: 'list_default_1',
            ...bad,
          })
        ).error_code,
      ).toBe(10101);
    expect(
      (
        await as(suite.owner).fail('kanban/addTask', {
          item_id: itemId,
          list_id: 'nope',
          title: 'x',
        })
      ).error_code,
    ).toBe(10101);
    expect(await storedBoard()).toEqual(before);
  });
});

describe('moves, edits and lists', () => {
  let a: number, b: number, c: number;
  beforeAll(async () => {
    const add = async (title: string, list: string) =>
      (await as(suite.owner).ok<Card>('kanban/addTask', { item_id: itemId, list_id: list, title }))
        .page_id;
    a = await add('A', 'list_default_2');
    b = await add('B', 'list_default_2');
    c = await add('C', 'list_default_2');
  });

  test('a card moves within a list and between lists to the position asked', async () => {
    await as(suite.editor).ok('kanban/moveTask', {
      page_id: c,
      list_id: 'list_default_2',
      index: 0,
    });
    expect(titlesIn(await board(), 'list_default_2')).toEqual(['C', 'A', 'B']);
    const moved = await as(suite.editor).ok<{
      from_list_id: string;
      to_list_id: string;
      version: number;
    }>('kanban/moveTask', { page_id: a, list_id: 'list_default_3', index: 0 });
    expect(moved).toMatchObject({ from_list_id: 'list_default_2', to_list_id: 'list_default_3' });
    const after = await board();
    expect(titlesIn(after, 'list_default_2')).toEqual(['C', 'B']);
    expect(titlesIn(after, 'list_default_3')).toEqual(['A']);
    expect(after.board.meta.version).toBe(moved.version);
    expect(after.cards.find((x) => x.page_id === a)?.list_id).toBe('list_default_3');
    // No index: the end of the list.
    await as(suite.editor).ok('kanban/moveTask', { page_id: b, list_id: 'list_default_3' });
    expect(titlesIn(await board(), 'list_default_3')).toEqual(['A', 'B']);
  });

  test('updateTask changes the fields sent; completing logs task_completed', async () => {
    await as(suite.editor).ok('kanban/updateTask', {
      page_id: a,
      assignee_uid: String(suite.editor.uid),
      assignee_username: suite.editor.username,
      completed: 1,
    });
    const card = (await board()).cards.find((x) => x.page_id === a)!;
    expect(card).toMatchObject({
      assignee_uid: String(suite.editor.uid),
      completed: true,
      page_title: 'A',
    });
    const log = await as(suite.reader).ok<{
      activities: { event_type: string; page_id: number }[];
    }>('kanban/getActivity', { item_id: itemId, event_types: JSON.stringify(['task_completed']) });
    expect(log.activities).toEqual([
      expect.objectContaining({ event_type: 'task_completed', page_id: a }),
    ]);
  });

  test('read-only members see the board and cannot change it; strangers cannot either', async () => {
    const seen = await board(suite.reader);
    expect(seen.can_edit).toBe(false);
    expect(seen.cards.length).toBeGreaterThanOrEqual(3);
    const before = await storedBoard();
    expect(
      (await as(suite.reader).fail('kanban/moveTask', { page_id: c, list_id: 'list_default_1' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.reader).fail('kanban/addList', { item_id: itemId, title: 'Mine' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.stranger).fail('kanban/updateTask', { page_id: c, title: 'Hijacked' }))
        .error_code,
    ).toBe(10101);
    expect(await storedBoard()).toEqual(before);
  });

  test('lists: add, rename, archive with their tasks, restore, delete (tasks completed)', async () => {
    const { list } = await as(suite.editor).ok<{ list: { id: string; position: number } }>(
      'kanban/addList',
      { item_id: itemId, title: 'Review' },
    );
    expect(list.id).toMatch(/^list_\d+_\d{4}$/);
    await as(suite.editor).ok('kanban/renameList', {
      item_id: itemId,
      list_id: list.id,
      title: 'QA',
    });
    await as(suite.editor).ok('kanban/moveTask', { page_id: c, list_id: list.id });
    const archived = await as(suite.editor).ok<{ tasks_count: number }>('kanban/archiveList', {
      item_id: itemId,
      list_id: list.id,
    });
    expect(archived.tasks_count).toBe(1);
    let stored = await storedBoard();
    expect(stored.lists.some((l) => l.id === list.id)).toBe(false);
    expect(stored.archived_lists).toEqual([expect.objectContaining({ id: list.id, title: 'QA' })]);
    expect(stored.archived_tasks_order[list.id]).toEqual([String(c)]);
    await as(suite.editor).ok('kanban/restoreList', { item_id: itemId, list_id: list.id });
    stored = await storedBoard();
    expect(stored.lists.at(-1)).toMatchObject({ id: list.id, title: 'QA' });
    expect(stored.tasks_order[list.id]).toEqual([String(c)]);
    const deleted = await as(suite.editor).ok<{ completed_tasks_count: number }>(
      'kanban/deleteList',
      {
        item_id: itemId,
        list_id: list.id,
      },
    );
    expect(deleted.completed_tasks_count).toBe(1);
    expect(JSON.parse((await Page.findOne({ page_id: c }).lean())!.page_content).completed).toBe(
      true,
    );
    const types = (
      await as(suite.owner).ok<{ activities: { event_type: string }[] }>('kanban/getActivity', {
        item_id: itemId,
        page_size: 100,
      })
    ).activities.map((x) => x.event_type);
    for (const type of [
      'list_created',
      'list_updated',
      'list_archived',
      'list_restored',
      'list_deleted',
      'task_moved',
    ])
      expect(types).toContain(type);
  });

  test('deleteTask sends the page to the recycle bin and drops its card', async () => {
    await as(suite.owner).ok('kanban/deleteTask', { page_id: b });
    const after = await board();
    expect(after.cards.some((x) => x.page_id === b)).toBe(false);
    expect(Object.values(after.board.tasks_order).flat()).not.toContain(String(b));
    expect((await Page.findOne({ page_id: b }).lean())?.is_del).toBe(1);
  });
});

describe('activity log', () => {
  test('getActivity answers ShowDoc’s shape; exportActivity a CSV with ShowDoc’s columns', async () => {
    const log = await as(suite.owner).ok<{
      activities: Record<string, unknown>[];
      total: number;
      page: number;
      page_size: number;
    }>('kanban/getActivity', { item_id: itemId, page: 1, page_size: 2 });
    expect(log.page_size).toBe(2);
    expect(log.total).toBeGreaterThan(2);
    expect(log.activities[0]).toEqual({
      id: expect.any(Number),
      item_id: itemId,
      page_id: expect.any(Number),
      event_type: expect.any(String),
      event_data: expect.any(Object),
      operator_uid: expect.any(Number),
      operator_username: expect.any(String),
      addtime: expect.any(Number),
    });
    const url = new URL('/api/kanban/exportActivity', suite.server.url);
    url.searchParams.set('item_id', String(itemId));
    const response = await fetch(url, { headers: { 'X-API-Token': suite.owner.user_token } });
    expect(response.headers.get('content-type')).toMatch(/text\/csv/);
    const bytes = Buffer.from(await response.arrayBuffer());
    // A UTF-8 byte-order mark first, as ShowDoc writes it (spreadsheet programs read the encoding).
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = bytes.subarray(3).toString('utf8');
    expect(csv.split('\n')[0]).toBe('操作者,操作,对象,详情,时间');
    expect(csv).toContain('移动任务,A,In progress → Done');
  });

  test('logEvent records what ShowDoc’s client sends; bad input is refused', async () => {
    await as(suite.reader).ok('kanban/logEvent', {
      item_id: itemId,
      page_id: 0,
      event_type: 'list_updated',
      event_data: JSON.stringify({ title: 'From the ShowDoc client' }),
    });
    const log = await as(suite.owner).ok<{ activities: { event_data: { title?: string } }[] }>(
      'kanban/getActivity',
      { item_id: itemId, page_size: 1 },
    );
    expect(log.activities[0].event_data.title).toBe('From the ShowDoc client');
    expect(
      (await as(suite.reader).fail('kanban/logEvent', { item_id: itemId, event_type: 'nope' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.stranger).fail('kanban/logEvent', { item_id: 0, event_type: 'task_moved' }))
        .error_code,
    ).toBe(10101);
    const plain = (
      await as(suite.owner).ok<{ item_id: number }>('item/add', { item_name: 'Plain' })
    ).item_id;
    expect((await as(suite.owner).fail('kanban/getActivity', { item_id: plain })).error_code).toBe(
      10303,
    );
    expect((await as(suite.owner).fail('kanban/board', { item_id: plain })).error_code).toBe(10303);
  });
});

describe('live and search', () => {
  test('a socket watching the board receives the stored board after a move', async () => {
    const b = await board();
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    expect(await watcher.watch({ page_id: b.page_id, mode: 'viewing' })).toMatchObject({
      ok: true,
    });
    const card = await as(suite.owner).ok<Card>('kanban/addTask', {
      item_id: itemId,
      list_id: 'list_default_1',
      title: 'Live card',
    });
    await as(suite.editor).ok('kanban/moveTask', {
      page_id: card.page_id,
      list_id: 'list_default_3',
      index: 0,
    });
    const push = await watcher.waitFor(
      'kanban:changed',
      (p) => (p.board?.tasks_order.list_default_3 ?? [])[0] === String(card.page_id),
    );
    expect(push).toMatchObject({ item_id: itemId, page_id: b.page_id, by_uid: suite.editor.uid });
    expect(push.cards).toEqual([
      expect.objectContaining({ page_id: card.page_id, list_id: 'list_default_3' }),
    ]);
    expect(push.version).toBe((await storedBoard()).meta.version);
    // The move's own page saves (board and card) are not pushed as page:saved as well: only a
    // save from outside the board operations is (here ShowDoc's client saving the board page).
    await as(suite.editor).ok('page/save', {
      page_id: b.page_id,
      item_id: itemId,
      page_title: '__kanban_board__',
      cat_id: 0,
      page_content: JSON.stringify(await storedBoard()),
    });
    await watcher.waitFor('page:saved', (p) => p.origin === 'rest');
    expect(
      watcher.received
        .filter((e) => e.name === 'page:saved')
        .map((e) => (e.payload as { origin: string }).origin),
    ).toEqual(['rest']);
    watcher.close();
  });

  test("ShowDoc's own client saving the whole board (page/save) moves it on every open board", async () => {
    const b = await board();
    const card = await as(suite.owner).ok<Card>('kanban/addTask', {
      item_id: itemId,
      list_id: 'list_default_1',
      title: 'Saved by ShowDoc',
    });
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    expect(await watcher.watch({ page_id: b.page_id, mode: 'viewing' })).toMatchObject({
      ok: true,
    });
    // As ShowDoc's board screen saves: the board it loaded, the card moved, the same version.
    const loaded = await storedBoard();
    const id = String(card.page_id);
    for (const list of Object.keys(loaded.tasks_order))
      loaded.tasks_order[list] = loaded.tasks_order[list].filter((x) => x !== id);
    loaded.tasks_order.list_default_2 = [id, ...(loaded.tasks_order.list_default_2 ?? [])];
    await as(suite.editor).ok('page/save', {
      page_id: b.page_id,
      item_id: itemId,
      page_title: '__kanban_board__',
      cat_id: 0,
      page_content: JSON.stringify(loaded),
    });
    // Stored with the next version (what ShowDoc's client counts on), and pushed.
    const push = await watcher.waitFor(
      'kanban:changed',
      (p) => (p.board?.tasks_order.list_default_2 ?? [])[0] === id,
    );
    expect(push.version).toBe(loaded.meta.version + 1);
    expect((await storedBoard()).meta.version).toBe(loaded.meta.version + 1);

    // A task page saved the same way reaches open boards as its card.
    const task = await as(suite.owner).ok<{ page_content: string }>('page/info', {
      page_id: card.page_id,
    });
    const json = JSON.parse(task.page_content.replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
    json.priority = 'high';
    json.updated_at = Math.floor(Date.now() / 1000) + 1;
    await as(suite.editor).ok('page/save', {
      page_id: card.page_id,
      item_id: itemId,
      page_title: 'Saved by ShowDoc',
      cat_id: 0,
      page_content: JSON.stringify(json),
    });
    await watcher.waitFor('kanban:changed', (p) =>
      p.cards.some((c) => c.page_id === card.page_id && c.priority === 'high'),
    );
    watcher.close();
  });

  test('item/search finds a card by its title', async () => {
    await as(suite.owner).ok('kanban/addTask', {
      item_id: itemId,
      list_id: 'list_default_1',
      title: 'Quarterly zebra migration',
    });
    const found = await as(suite.reader).ok<{ pages: { page_title: string }[] }>('item/search', {
      item_id: itemId,
      keyword: 'zebra',
    });
    expect(found.pages.map((p) => p.page_title)).toContain('Quarterly zebra migration');
  });
});

describe('a ShowDoc-made board through import/auto', () => {
  /** ShowDoc's export of a kanban item: info.json, page text HTML-escaped, its own page ids. */
  function showdocZip(): Buffer {
    const esc = (s: string) =>
      s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
    const boardJson = {
      lists: [
        { id: 'list_default_1', title: '待办', position: 1 },
        { id: 'list_1783800612599_3431', title: 'Doing', position: 2 },
      ],
      tasks_order: {
        list_default_1: ['11559060627293370', '11559060627293372'],
        list_1783800612599_3431: ['11559060627293371'],
      },
      archived_lists: [{ id: 'list_old', title: 'Old', position: 3 }],
      archived_tasks_order: { list_old: ['11559060627293373'] },
      meta: { version: 2, last_updated: 0 },
    };
    const task = (list: string, description: string, tags: object[] = []) => ({
      list_id: list,
      description,
      assignee_uid: '',
      assignee_username: '',
      creator_uid: '16',
      creator_username: 'someone@example.com',
      due_date: '',
      tags,
      priority: 'medium',
      linked_pages: [],
      completed: false,
    });
    const page = (id: string, title: string, content: object) => ({
      page_id: id,
      page_title: title,
      cat_id: '0',
      page_content: esc(JSON.stringify(content)),
      s_number: '99',
      page_comments: '',
      is_draft: '0',
    });
    const info = {
      item_type: '6',
      item_name: '看板项目示例',
      item_description: 'A ShowDoc board',
      password: '',
      pages: {
        pages: [
          page('11559060627293369', '__kanban_board__', boardJson),
          page(
            '11559060627293370',
            'Kick-off <meeting>',
            task('list_default_1', 'Agenda & "goals"', [{ color: 'blue', text: '指南' }]),
          ),
          page('11559060627293371', 'Tech review', task('list_1783800612599_3431', 'Review')),
          page('11559060627293372', 'Env setup', task('list_default_1', '')),
          page('11559060627293373', 'Archived one', task('list_old', '')),
        ],
        catalogs: [],
      },
    };
    return Buffer.from(zipSync({ 'info.json': strToU8(JSON.stringify(info)) }));
  }

  test('imports into a new kanban item whose board names the new task pages, and opens', async () => {
    const answer = await postMultipart(suite.server.url, 'import/auto', [
      { name: 'user_token', value: suite.owner.user_token },
      { name: 'file', filename: 'kanban.zip', content: showdocZip() },
    ]);
    expect(answer.body).toMatchObject({ error_code: 0 });
    const imported = (answer.body.data as { item_id: number }).item_id;
    const b = await board(suite.owner, imported);
    expect(b.board.lists.map((l) => l.title)).toEqual(['待办', 'Doing']);
    expect(titlesIn(b, 'list_default_1')).toEqual(['Kick-off <meeting>', 'Env setup']);
    expect(titlesIn(b, 'list_1783800612599_3431')).toEqual(['Tech review']);
    expect(b.board.archived_tasks_order.list_old).toHaveLength(1);
    const kickoff = b.cards.find((c) => c.page_title === 'Kick-off <meeting>')!;
    expect(kickoff).toMatchObject({
      description: 'Agenda & "goals"',
      tags: [{ color: 'blue', text: '指南' }],
    });
    // Live from the first move on.
    await as(suite.owner).ok('kanban/moveTask', {
      page_id: kickoff.page_id,
      list_id: 'list_1783800612599_3431',
      index: 0,
    });
    expect(titlesIn(await board(suite.owner, imported), 'list_1783800612599_3431')).toEqual([
      'Kick-off <meeting>',
      'Tech review',
    ]);

    // Quire's export of that board imports back into the same board.
    const url = new URL('/api/export/markdown', suite.server.url);
    url.searchParams.set('item_id', String(imported));
    const exported = Buffer.from(
      await (
        await fetch(url, { headers: { 'X-API-Token': suite.owner.user_token } })
      ).arrayBuffer(),
    );
    const again = await postMultipart(suite.server.url, 'import/auto', [
      { name: 'user_token', value: suite.owner.user_token },
      { name: 'file', filename: 'roundtrip.zip', content: exported },
    ]);
    expect(again.body).toMatchObject({ error_code: 0 });
    const copy = await board(suite.owner, (again.body.data as { item_id: number }).item_id);
    expect(copy.board.lists).toEqual(b.board.lists);
    expect(titlesIn(copy, 'list_1783800612599_3431')).toEqual([
      'Kick-off <meeting>',
      'Tech review',
    ]);
    expect(titlesIn(copy, 'list_default_1')).toEqual(['Env setup']);
  });
});
