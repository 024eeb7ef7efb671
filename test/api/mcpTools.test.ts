/**
 * The attachment, OpenAPI-import, kanban and RunApi MCP tools (api/mcp/tools/{attachments,
 * openapi,kanban,runapi}.ts) driven through the official SDK's Client over Streamable HTTP against
 * the real endpoint: each called with a valid and an invalid argument set, answering ShowDoc's
 * shapes and codes, and the writes visible through the REST API.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Page } from '../../models/pages/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeAiToken } from '../helpers/mcp';
import { makePage } from '../helpers/pages';
import { closeAllSockets, connectClient } from '../helpers/sockets';

const suite = apiSuite({ item: { item_name: 'Tools item' }, teardown: closeAllSockets });

/** A 1×1 transparent PNG. */
const PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const OPENAPI = {
  openapi: '3.0.0',
  info: { title: 'Pet store', description: 'Pets', version: '1' },
  servers: [{ url: 'https://api.example.com' }],
  paths: {
    '/pets': {
      get: { summary: 'List pets', tags: ['pets'], responses: { '200': { description: 'ok' } } },
      post: { summary: 'Add a pet', responses: { '201': { description: 'created' } } },
    },
  },
};

const runApiDoc = (url: string, method = 'post') => ({
  info: { from: 'runapi', type: 'api', method, url, description: 'Creates a thing', remark: '' },
  request: {
    params: { mode: 'json', json: '{"name":"x"}', jsonDesc: [], formdata: [], urlencoded: [] },
    headers: [],
    query: [],
    cookies: [],
  },
  response: { responseExample: '{"code":0}', responseParamsDesc: [] },
  scripts: { pre: '', post: '' },
  apiStatus: '0',
});

interface Connected {
  client: Client;
  call(name: string, args?: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** The JSON-RPC error code a call is refused with. */
  refusal(name: string, args?: Record<string, unknown>): Promise<number>;
}

const clients: Client[] = [];

async function connect(token: string): Promise<Connected> {
  const client = new Client({ name: 'Claude', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${suite.server.url}/mcp`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  await client.connect(transport);
  clients.push(client);
  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args });
    const content = result.content as Array<{ type: string; text: string }>;
    if (result.isError) throw Object.assign(new Error(content[0]?.text), { code: 'isError' });
    return JSON.parse(content[0].text) as Record<string, unknown>;
  };
  return {
    client,
    call,
    async refusal(name, args = {}) {
      try {
        await call(name, args);
      } catch (error) {
        return (error as { code: number }).code;
      }
      throw new Error(`${name} was not refused`);
    },
  };
}

let agent: Connected;
let reader: Connected;
let runApiItem: number;

beforeAll(async () => {
  agent = await connect((await makeAiToken(suite.server, suite.owner, { name: 'docs-bot' })).token);
  reader = await connect(
    (await makeAiToken(suite.server, suite.owner, { name: 'reader', permission: 'read' })).token,
  );
  runApiItem = (await makeItem(suite.owner, { item_type: 3, item_name: 'RunApi item' })).item_id;
});
afterAll(async () => {
  for (const client of clients) await client.close();
});

describe('tools/list', () => {
  test('lists these tools with ShowDoc’s names and schemas', async () => {
    const { tools } = await agent.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of [
      'upload_attachment',
      'list_attachments',
      'delete_attachment',
      'import_openapi',
      'get_runapi_page',
      'create_runapi_page',
      'update_runapi_page',
      'upsert_runapi_page',
    ])
      expect(byName.has(name)).toBe(true);
    expect(tools.filter((tool) => tool.name.startsWith('kanban_'))).toHaveLength(16);
    expect(byName.get('upload_attachment')?.inputSchema).toMatchObject({
      type: 'object',
      required: ['item_id', 'file_base64'],
    });
    expect(byName.get('create_runapi_page')?.inputSchema).toMatchObject({
      required: ['item_id', 'page_title', 'page_content'],
      properties: { page_content: { type: 'object' } },
    });
  });
});

describe('attachments', () => {
  test('upload (Base64), list by item and by page, delete; bad arguments are refused', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'with a picture' });
    const uploaded = await agent.call('upload_attachment', {
      item_id: suite.itemId,
      page_id: String(page.page_id),
      file_base64: PIXEL_PNG,
      file_name: 'pixel.png',
    });
    expect(uploaded).toMatchObject({
      file_name: 'pixel.png',
      file_type: 'image/png',
      file_size: 70,
      item_id: suite.itemId,
      page_id: page.page_id,
    });
    expect(String(uploaded.url)).toContain(`sign=${String(uploaded.sign)}`);
    // The file is served at its URL.
    const url = new URL(String(uploaded.url));
    const served = await suite.server.request(url.pathname + url.search);
    expect(served.status).toBe(200);

    const byItem = await agent.call('list_attachments', { item_id: suite.itemId });
    expect(byItem).toMatchObject({ item_id: suite.itemId, page_id: 0, total: 1 });
    expect(byItem.attachments).toEqual([
      expect.objectContaining({ file_id: uploaded.file_id, file_name: 'pixel.png' }),
    ]);
    const byPage = await agent.call('list_attachments', { page_id: page.page_id });
    expect(byPage).toMatchObject({ item_id: suite.itemId, page_id: page.page_id, total: 1 });

    expect(
      await agent.refusal('upload_attachment', { item_id: suite.itemId, file_base64: '%%%' }),
    ).toBe(-32602);
    expect(await agent.refusal('upload_attachment', { file_base64: PIXEL_PNG })).toBe(-32602);
    // A picture's bytes under a .exe name: the upload rules of page/upload apply.
    expect(
      await agent.refusal('upload_attachment', {
        item_id: suite.itemId,
        file_base64: PIXEL_PNG,
        file_name: 'tool.exe',
      }),
    ).toBe(-32010);
    expect(
      await reader.refusal('upload_attachment', { item_id: suite.itemId, file_base64: PIXEL_PNG }),
    ).toBe(-32005);
    expect(await agent.refusal('list_attachments', {})).toBe(-32602);

    expect(await agent.refusal('delete_attachment', {})).toBe(-32602);
    expect(await agent.refusal('delete_attachment', { file_id: 987654 })).toBe(-32006);
    expect(await reader.refusal('delete_attachment', { file_id: uploaded.file_id })).toBe(-32005);
    expect(await agent.call('delete_attachment', { sign: uploaded.sign })).toMatchObject({
      file_id: uploaded.file_id,
      file_name: 'pixel.png',
    });
    expect(await agent.call('list_attachments', { item_id: suite.itemId })).toMatchObject({
      total: 0,
    });
  });
});

describe('import_openapi', () => {
  test('imports a document into an item, and into a new RunApi item; bad arguments are refused', async () => {
    const { item_id } = await makeItem(suite.owner, { item_name: 'Import target' });
    const imported = await agent.call('import_openapi', {
      item_id,
      openapi_content: JSON.stringify(OPENAPI),
    });
    expect(imported).toMatchObject({
      item_id,
      item_name: 'Import target',
      is_new_item: false,
      swagger_version: '3.0.0',
      format: 'markdown',
      catalog_count: 2,
      page_count: 2,
    });
    const titles = (await Page.find({ item_id, is_del: 0 }).lean()).map((p) => p.page_title);
    expect(titles.sort()).toEqual(['Add a pet', 'List pets']);

    const fresh = await agent.call('import_openapi', {
      openapi_content: JSON.stringify(OPENAPI),
      format: 'runapi',
    });
    expect(fresh).toMatchObject({ is_new_item: true, item_name: 'Pet store', format: 'runapi' });
    const item = await suite.as(suite.owner).ok<{ item_type: number }>('item/detail', {
      item_id: fresh.item_id as number,
    });
    expect(Number(item.item_type)).toBe(3);
    const page = await Page.findOne({
      item_id: fresh.item_id as number,
      page_title: 'List pets',
    }).lean();
    expect(JSON.parse(page!.page_content)).toMatchObject({
      info: { method: 'get', url: 'https://api.example.com/pets' },
    });

    expect(await agent.refusal('import_openapi', { item_id })).toBe(-32602);
    expect(await agent.refusal('import_openapi', { item_id, openapi_content: '{"nope":1}' })).toBe(
      -32602,
    );
    expect(
      await agent.refusal('import_openapi', {
        item_id,
        openapi_content: JSON.stringify(OPENAPI),
        format: 'pdf',
      }),
    ).toBe(-32602);
    // The server's own network is off limits to a fetched URL.
    expect(
      await agent.refusal('import_openapi', {
        item_id,
        openapi_url: `${suite.server.url}/openapi.json`,
      }),
    ).toBe(-32602);
    expect(
      await agent.refusal('import_openapi', { item_id, openapi_url: 'file:///etc/passwd' }),
    ).toBe(-32602);
    const noCreate = await connect(
      (await makeAiToken(suite.server, suite.owner, { name: 'no-create', can_create_item: 0 }))
        .token,
    );
    expect(
      await noCreate.refusal('import_openapi', { openapi_content: JSON.stringify(OPENAPI) }),
    ).toBe(-32005);
    expect(await Page.countDocuments({ item_id, is_del: 0 })).toBe(2);
  });
});

describe('kanban on an item that is no board', () => {
  const board = (extra: Record<string, unknown> = {}) => ({ item_id: suite.itemId, ...extra });
  test.each([
    ['kanban_get_board', () => board(), -32006],
    ['kanban_get_lists', () => board(), -32006],
    ['kanban_list_tasks', () => board({ show_completed: true }), -32006],
    ['kanban_create_task', () => board({ list_id: 'l1', title: 'Task' }), -32006],
    ['kanban_add_list', () => board({ title: 'Doing' }), -32006],
    ['kanban_update_list', () => board({ list_id: 'l1', title: 'Done' }), -32006],
    ['kanban_delete_list', () => board({ list_id: 'l1' }), -32006],
    ['kanban_archive_list', () => board({ list_id: 'l1' }), -32006],
    ['kanban_restore_list', () => board({ list_id: 'l1' }), -32006],
    ['kanban_list_archived_lists', () => board(), -32006],
  ])(
    '%s answers "board not found" after its checks; without item_id -32602',
    async (name, args, code) => {
      expect(await agent.refusal(name, args())).toBe(code);
      expect(await agent.refusal(name, {})).toBe(-32602);
    },
  );

  test('the page tools find no task; a missing page is -32006, a missing id -32602', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: '# Not a task' });
    expect(await agent.refusal('kanban_get_task', { page_id: page.page_id })).toBe(-32010);
    expect(await agent.refusal('kanban_update_task', { page_id: page.page_id, title: 'x' })).toBe(
      -32010,
    );
    expect(
      await agent.refusal('kanban_move_task', { page_id: page.page_id, target_list_id: 'l2' }),
    ).toBe(-32006);
    expect(await agent.refusal('kanban_delete_task', { page_id: page.page_id })).toBe(-32006);
    for (const name of ['kanban_get_task', 'kanban_update_task', 'kanban_delete_task'])
      expect(await agent.refusal(name, { page_id: 99999999 })).toBe(-32006);
    expect(await agent.refusal('kanban_move_task', { page_id: page.page_id })).toBe(-32602);
    expect(await agent.refusal('kanban_get_task', {})).toBe(-32602);
    // Permission checks come first, as in ShowDoc: a read-only token never reaches the board.
    expect(await reader.refusal('kanban_update_task', { page_id: page.page_id })).toBe(-32005);
    expect(await reader.refusal('kanban_add_list', board({ title: 'x' }))).toBe(-32005);
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
      '# Not a task',
    );
  });

  test('search finds no task and the activity log is empty; bad arguments are refused', async () => {
    expect(await agent.call('kanban_search_tasks', board({ query: 'Task' }))).toEqual({
      item_id: suite.itemId,
      query: 'Task',
      tasks: [],
      total: 0,
    });
    expect(await agent.refusal('kanban_search_tasks', board())).toBe(-32602);
    expect(await agent.call('kanban_get_activity', board({ page: 2, page_size: 500 }))).toEqual({
      item_id: suite.itemId,
      activities: [],
      total: 0,
      page: 2,
      page_size: 100,
    });
    expect(await agent.refusal('kanban_get_activity', { item_id: 'abc' })).toBe(-32602);
    const { item_id: foreign } = await makeItem(suite.stranger, { password: 'pw' });
    expect(await agent.refusal('kanban_get_activity', { item_id: foreign })).toBe(-32003);
  });
});

describe('kanban on a live board', () => {
  let boardItem: number;
  let boardPage: number;
  beforeAll(async () => {
    boardItem = (await makeItem(suite.owner, { item_type: 6, item_name: 'Agent board' })).item_id;
    await addMember(boardItem, suite.reader, 0);
    boardPage = (
      await suite.as(suite.owner).ok<{ page_id: number }>('kanban/board', { item_id: boardItem })
    ).page_id;
  });

  test('the tools read and change the board, and an open board receives every change', async () => {
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    expect(await watcher.watch({ page_id: boardPage, mode: 'viewing' })).toMatchObject({
      ok: true,
    });

    const { lists } = (await agent.call('kanban_get_lists', { item_id: boardItem })) as {
      lists: { id: string; title: string; task_count: number }[];
    };
    expect(lists.map((l) => l.title)).toEqual(['To do', 'In progress', 'Done']);
    const created = await agent.call('kanban_create_task', {
      item_id: boardItem,
      list_id: lists[0].id,
      title: 'Agent task',
      description: 'Made by the agent',
      priority: 'high',
      tags: [{ color: 'green', text: 'bot' }],
    });
    const pageId = created.page_id as number;
    expect(created).toMatchObject({
      item_id: boardItem,
      list_id: lists[0].id,
      page_title: 'Agent task',
    });
    await watcher.waitFor('kanban:changed', (p) =>
      p.cards.some((c) => c.page_id === pageId && c.list_id === lists[0].id),
    );

    expect(
      await agent.call('kanban_move_task', { page_id: pageId, target_list_id: lists[2].id }),
    ).toMatchObject({ from_list_id: lists[0].id, to_list_id: lists[2].id });
    const moved = await watcher.waitFor('kanban:changed', (p) =>
      (p.board?.tasks_order[lists[2].id] ?? []).includes(String(pageId)),
    );
    expect(moved.board?.tasks_order[lists[0].id]).not.toContain(String(pageId));
    // The agent is listed on the board while it writes.
    await watcher.waitFor(
      'presence',
      (p) => p.page_id === boardPage && p.users.some((u) => u.agent),
    );

    await agent.call('kanban_update_task', {
      page_id: pageId,
      completed: true,
      due_date: '2031-02-03',
    });
    await watcher.waitFor('kanban:changed', (p) =>
      p.cards.some((c) => c.page_id === pageId && c.completed && c.due_date === '2031-02-03'),
    );
    expect(await agent.call('kanban_get_task', { page_id: pageId })).toMatchObject({
      page_title: 'Agent task',
      list_id: lists[2].id,
      list_name: 'Done',
      description: 'Made by the agent',
      priority: 'high',
      tags: [{ color: 'green', text: 'bot' }],
      completed: true,
      due_date: '2031-02-03',
    });
    const board = (await agent.call('kanban_get_board', { item_id: boardItem })) as {
      lists: { id: string; tasks: { page_id: number; page_title: string }[] }[];
    };
    expect(board.lists[2].tasks).toEqual([{ page_id: pageId, page_title: 'Agent task' }]);
    expect(
      ((await agent.call('kanban_list_tasks', { item_id: boardItem })) as { total: number }).total,
    ).toBe(0);
    expect(
      await agent.call('kanban_list_tasks', {
        item_id: boardItem,
        show_completed: true,
        tag: 'bot',
      }),
    ).toMatchObject({ total: 1, tasks: [{ page_id: pageId, completed: true }] });
    expect(
      await agent.call('kanban_search_tasks', { item_id: boardItem, query: 'agent' }),
    ).toMatchObject({
      total: 1,
      tasks: [{ page_id: pageId, list_name: 'Done' }],
    });

    const added = await agent.call('kanban_add_list', { item_id: boardItem, title: 'Later' });
    const listId = added.list_id as string;
    await watcher.waitFor('kanban:changed', (p) => !!p.board?.lists.some((l) => l.id === listId));
    await agent.call('kanban_update_list', {
      item_id: boardItem,
      list_id: listId,
      title: 'Someday',
    });
    await agent.call('kanban_move_task', { page_id: pageId, target_list_id: listId });
    expect(
      await agent.call('kanban_archive_list', { item_id: boardItem, list_id: listId }),
    ).toMatchObject({ list_title: 'Someday', archived_tasks_count: 1 });
    await watcher.waitFor(
      'kanban:changed',
      (p) => !!p.board?.archived_lists.some((l) => l.id === listId),
    );
    expect(await agent.call('kanban_list_archived_lists', { item_id: boardItem })).toEqual({
      item_id: boardItem,
      archived_lists: [
        { id: listId, title: 'Someday', position: expect.any(Number), tasks_count: 1 },
      ],
      total: 1,
    });
    expect(
      await agent.call('kanban_restore_list', { item_id: boardItem, list_id: listId }),
    ).toMatchObject({ restored_tasks_count: 1 });
    expect(
      await agent.call('kanban_delete_list', { item_id: boardItem, list_id: listId }),
    ).toMatchObject({ completed_tasks_count: 1 });

    const activity = (await agent.call('kanban_get_activity', {
      item_id: boardItem,
      event_types: ['task_moved'],
    })) as {
      activities: {
        event_type: string;
        event_data: Record<string, unknown>;
        operator_uid: number;
      }[];
    };
    expect(activity.activities[0]).toMatchObject({
      event_type: 'task_moved',
      operator_uid: suite.owner.uid,
      event_data: { title: 'Agent task' },
    });

    await agent.call('kanban_delete_task', { page_id: pageId });
    await watcher.waitFor('kanban:changed', (p) => p.removed.includes(pageId));
    watcher.close();
  });

  test('bad arguments and read-only tokens are refused before the board changes', async () => {
    const lists = (
      (await agent.call('kanban_get_lists', { item_id: boardItem })) as { lists: { id: string }[] }
    ).lists;
    const before = await suite
      .as(suite.owner)
      .ok<{ board: unknown }>('kanban/board', { item_id: boardItem });
    expect(
      await agent.refusal('kanban_create_task', {
        item_id: boardItem,
        list_id: lists[0].id,
        title: 'x',
        tags: [{ color: 'pink', text: 'x' }],
      }),
    ).toBe(-32602);
    expect(
      await agent.refusal('kanban_create_task', {
        item_id: boardItem,
        list_id: lists[0].id,
        title: 'x',
        priority: 'urgent',
      }),
    ).toBe(-32602);
    expect(
      await agent.refusal('kanban_create_task', {
        item_id: boardItem,
        list_id: 'nope',
        title: 'x',
      }),
    ).toBe(-32010);
    expect(
      await reader.refusal('kanban_create_task', {
        item_id: boardItem,
        list_id: lists[0].id,
        title: 'x',
      }),
    ).toBe(-32005);
    expect(
      await reader.refusal('kanban_archive_list', { item_id: boardItem, list_id: lists[0].id }),
    ).toBe(-32005);
    expect(
      await suite.as(suite.owner).ok<{ board: unknown }>('kanban/board', { item_id: boardItem }),
    ).toEqual(before);
  });
});

describe('RunApi pages', () => {
  test('create, get (by id and by title), update with the optimistic lock, upsert; bad arguments are refused', async () => {
    const created = await agent.call('create_runapi_page', {
      item_id: runApiItem,
      page_title: 'Create user',
      page_content: runApiDoc('/api/users'),
      cat_name: 'Users/Admin',
    });
    expect(created).toMatchObject({ page_title: 'Create user', item_id: runApiItem });
    const pageId = created.page_id as number;

    const got = await agent.call('get_runapi_page', { page_id: pageId });
    expect(got).toMatchObject({
      page_id: pageId,
      type: 'runapi',
      cat_name: 'Admin',
      page_content: runApiDoc('/api/users'),
      author_uid: suite.owner.uid,
    });
    expect(got.content_hash).toMatch(/^[0-9a-f]{12}$/);
    expect(
      await agent.call('get_runapi_page', { item_id: runApiItem, page_title: 'Create user' }),
    ).toMatchObject({
      page_id: pageId,
    });

    const updated = await agent.call('update_runapi_page', {
      page_id: pageId,
      page_content: runApiDoc('/api/v2/users'),
      expected_hash: got.content_hash,
    });
    expect(updated.content_hash).not.toBe(got.content_hash);
    expect(
      await agent.refusal('update_runapi_page', {
        page_id: pageId,
        page_content: runApiDoc('/api/v3/users'),
        expected_hash: got.content_hash,
      }),
    ).toBe(-32009);
    // REST sees the agent's text, and the history keeps the version it replaced.
    const info = await suite
      .as(suite.owner)
      .ok<{ page_content: string }>('page/info', { page_id: pageId });
    expect(JSON.parse(info.page_content.replace(/&quot;/g, '"')).info.url).toBe('/api/v2/users');

    const again = await agent.call('upsert_runapi_page', {
      item_id: runApiItem,
      page_title: 'Create user',
      page_content: runApiDoc('/api/v4/users'),
      cat_name: 'Users/Admin',
    });
    expect(again.page_id).toBe(pageId);
    const fresh = await agent.call('upsert_runapi_page', {
      item_id: runApiItem,
      page_title: 'Delete user',
      page_content: runApiDoc('/api/users/{id}', 'delete'),
    });
    expect(fresh.page_id).not.toBe(pageId);
    expect(await Page.countDocuments({ item_id: runApiItem, is_del: 0 })).toBe(2);

    expect(
      await agent.refusal('create_runapi_page', {
        item_id: runApiItem,
        page_title: 'Bad',
        page_content: { info: { method: 'post' } },
      }),
    ).toBe(-32602);
    expect(
      await agent.refusal('create_runapi_page', {
        item_id: suite.itemId,
        page_title: 'Wrong item',
        page_content: runApiDoc('/x'),
      }),
    ).toBe(-32010);
    expect(await agent.refusal('get_runapi_page', {})).toBe(-32602);
    expect(
      await agent.refusal('update_runapi_page', {
        page_id: pageId,
        page_content: runApiDoc('/x', 'fetch'),
      }),
    ).toBe(-32602);
    expect(await agent.refusal('update_runapi_page', { page_id: pageId })).toBe(-32602);
    expect(
      await agent.refusal('upsert_runapi_page', {
        item_id: runApiItem,
        page_content: runApiDoc('/x'),
      }),
    ).toBe(-32602);
    expect(
      await reader.refusal('upsert_runapi_page', {
        item_id: runApiItem,
        page_title: 'Reader',
        page_content: runApiDoc('/x'),
      }),
    ).toBe(-32005);
  });
});
