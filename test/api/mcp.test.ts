/**
 * The MCP endpoint driven by the official SDK's client (`Client` + `StreamableHTTPClientTransport`),
 * as Claude Desktop or Cursor drive it: tools/list names ShowDoc's 54 tools with their schemas,
 * and every item, catalog, page, history and share-link tool answers a valid call as ShowDoc does
 * and refuses an invalid one with ShowDoc's code — through the same models/ as the REST API
 * (history, change log, catalog restrictions, locks).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeAiToken } from '../helpers/mcp';

const suite = apiSuite({ item: { item_name: 'Agent docs' } });

/** ShowDoc's McpServer.php, in its order. */
const SHOWDOC_TOOLS = [
  'list_items',
  'get_item',
  'create_item',
  'update_item',
  'delete_item',
  'get_item_overview',
  'get_catalog',
  'create_catalog',
  'update_catalog',
  'delete_catalog',
  'list_pages',
  'get_page',
  'batch_get_pages',
  'search_pages',
  'search_all_pages',
  'get_page_template',
  'create_page',
  'create_page_by_comment',
  'update_page',
  'update_page_diff',
  'upsert_page',
  'batch_upsert_pages',
  'delete_page',
  'get_page_history',
  'get_page_version',
  'diff_page_versions',
  'restore_page_version',
  'create_single_page_link',
  'get_single_page_link',
  'delete_single_page_link',
  'upload_attachment',
  'list_attachments',
  'delete_attachment',
  'import_openapi',
  'kanban_get_board',
  'kanban_get_lists',
  'kanban_get_task',
  'kanban_list_tasks',
  'kanban_search_tasks',
  'kanban_create_task',
  'kanban_update_task',
  'kanban_move_task',
  'kanban_delete_task',
  'kanban_add_list',
  'kanban_update_list',
  'kanban_delete_list',
  'kanban_archive_list',
  'kanban_restore_list',
  'kanban_list_archived_lists',
  'kanban_get_activity',
  'get_runapi_page',
  'create_runapi_page',
  'update_runapi_page',
  'upsert_runapi_page',
];

const clients: Client[] = [];

async function connect(token: string, name = 'Claude'): Promise<Client> {
  const transport = new StreamableHTTPClientTransport(new URL(`${suite.server.url}/mcp.php`), {
    requestInit: { headers: { Authorization: `Bearer ${token}` } },
  });
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return client;
}

let client: Client;
let token: string;

/** Calls a tool and parses ShowDoc's answer object out of the text content. */
async function call(name: string, args: Record<string, unknown> = {}, by = client) {
  const result = await by.callTool({ name, arguments: args });
  const content = result.content as Array<{ type: string; text: string }>;
  expect(content[0].type).toBe('text');
  return JSON.parse(content[0].text) as Record<string, any>;
}

/** Calls a tool expecting a JSON-RPC error; returns its code (and data). */
async function refused(name: string, args: Record<string, unknown> = {}, by = client) {
  try {
    await by.callTool({ name, arguments: args });
  } catch (error) {
    const { code, data, message } = error as { code: number; data?: any; message: string };
    return { code, data, message };
  }
  throw new Error(`${name} unexpectedly succeeded`);
}

beforeAll(async () => {
  ({ token } = await makeAiToken(suite.server, suite.owner, {
    name: 'docs-bot',
    can_delete_item: 1,
  }));
  client = await connect(token);
});

afterAll(async () => {
  await Promise.all(clients.map((c) => c.close().catch(() => {})));
});

describe('the SDK client', () => {
  test('initializes and lists the tools with their schemas', async () => {
    expect(client.getServerVersion()?.name).toBe('quire-mcp');
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(SHOWDOC_TOOLS);
    for (const tool of tools) {
      expect(tool.description).toBeTruthy();
      expect(tool.inputSchema.type).toBe('object');
    }
    const createPage = tools.find((t) => t.name === 'create_page')!;
    expect(createPage.inputSchema.required).toEqual(['item_id', 'page_title', 'page_content']);
    expect(Object.keys(createPage.inputSchema.properties!)).toEqual([
      'item_id',
      'page_title',
      'page_content',
      'cat_name',
      'cat_id',
      's_number',
    ]);
    await expect(client.ping()).resolves.toEqual({});
  });

  test('an unknown tool and a bad token are refused with ShowDoc codes', async () => {
    expect((await refused('no_such_tool')).code).toBe(-32601);
    const stranger = await connect('ai_' + '0'.repeat(86));
    await expect(stranger.listTools()).rejects.toMatchObject({ code: -32001 });
  });
});

describe('item tools', () => {
  test('list_items, get_item, get_item_overview', async () => {
    const list = await call('list_items');
    expect(list.items).toContainEqual(
      expect.objectContaining({ item_id: suite.itemId, item_name: 'Agent docs', role: 'owner' }),
    );
    expect(list.total).toBe(list.items.length);
    const item = await call('get_item', { item_id: suite.itemId });
    expect(item).toMatchObject({ item_id: suite.itemId, role: 'owner', page_count: 0 });
    expect(item.share_url).toBe(`${suite.server.url}/${suite.itemId}`);
    expect((await refused('get_item', { item_id: 'abc' })).code).toBe(-32602);
    expect((await call('get_item_overview', { item_id: suite.itemId })).item_name).toBe(
      'Agent docs',
    );
    expect((await refused('get_item_overview', { item_id: 987654 })).code).toBe(-32006);
    // list_items needs a live token like every tool.
    const dead = await connect('ai_' + '1'.repeat(86));
    expect((await refused('list_items', {}, dead)).code).toBe(-32001);
  });

  test('create_item, update_item, delete_item', async () => {
    const created = await call('create_item', {
      item_name: 'Made by agent',
      item_description: 'd',
    });
    expect(created).toMatchObject({ item_name: 'Made by agent', item_type: 1 });
    expect((await refused('create_item', {})).code).toBe(-32602);
    const id = created.item_id as number;
    expect(await call('update_item', { item_id: id, item_name: 'Renamed' })).toMatchObject({
      item_id: id,
    });
    const info = await suite
      .as(suite.owner)
      .ok<{ item_name: string }>('item/detail', { item_id: id });
    expect(info.item_name).toBe('Renamed');
    expect((await refused('update_item', { item_id: id })).code).toBe(-32602);
    expect((await refused('delete_item', { item_id: 0 })).code).toBe(-32602);
    expect(await call('delete_item', { item_id: id })).toMatchObject({ item_id: id });
    expect((await refused('get_item', { item_id: id })).code).toBe(-32006);
  });
});

describe('catalog tools', () => {
  test('create, get, update and delete a catalog', async () => {
    const made = await call('create_catalog', { item_id: suite.itemId, cat_name: 'Guides' });
    expect(made).toMatchObject({ cat_name: 'Guides', parent_cat_id: 0 });
    expect(
      (
        await refused('create_catalog', {
          item_id: suite.itemId,
          cat_name: 'X',
          parent_cat_id: 999999,
        })
      ).code,
    ).toBe(-32006);
    const catId = made.cat_id as number;
    const child = await call('create_catalog', {
      item_id: suite.itemId,
      cat_name: 'Child',
      parent_cat_id: catId,
    });
    expect(await call('get_catalog', { cat_id: catId })).toMatchObject({
      cat_id: catId,
      cat_name: 'Guides',
      item_id: suite.itemId,
      page_count: 0,
    });
    expect((await refused('get_catalog', {})).code).toBe(-32602);
    await call('update_catalog', { cat_id: catId, cat_name: 'Handbook', s_number: 3 });
    expect((await call('get_catalog', { cat_id: catId })).cat_name).toBe('Handbook');
    expect((await refused('update_catalog', { cat_id: catId, cat_name: '  ' })).code).toBe(-32602);
    const overview = await call('get_item_overview', { item_id: suite.itemId });
    expect(overview.catalogs[0]).toMatchObject({
      cat_name: 'Handbook',
      children: [expect.objectContaining({ cat_id: child.cat_id })],
    });
    expect(await call('delete_catalog', { cat_id: catId })).toMatchObject({ deleted_catalogs: 2 });
    expect((await refused('delete_catalog', { cat_id: catId })).code).toBe(-32006);
  });
});

describe('page tools', () => {
  let pageId: number;

  test('create_page (catalog path created), get_page, list_pages', async () => {
    const made = await call('create_page', {
      item_id: suite.itemId,
      page_title: 'Install',
      page_content: '# Install\n\nRun npm install.\n',
      cat_name: 'Docs/Setup',
    });
    expect(made).toMatchObject({ page_title: 'Install', item_id: suite.itemId });
    pageId = made.page_id;
    expect(
      (
        await refused('create_page', {
          item_id: suite.itemId,
          page_title: 'Empty',
          page_content: '',
        })
      ).code,
    ).toBe(-32602);
    expect(
      (
        await refused('create_page', {
          item_id: suite.itemId,
          page_title: 'Install',
          page_content: 'again',
          cat_id: made.cat_id,
        })
      ).code,
    ).toBe(-32010);
    const page = await call('get_page', { page_id: pageId });
    expect(page).toMatchObject({
      page_id: pageId,
      page_title: 'Install',
      type: 'markdown',
      page_content: '# Install\n\nRun npm install.\n',
      author_username: suite.owner.username,
      page_url: `${suite.server.url}/${suite.itemId}/${pageId}`,
    });
    expect(page.content_hash).toMatch(/^[0-9a-f]{12}$/);
    expect((await call('get_page', { item_id: suite.itemId, page_title: 'Install' })).page_id).toBe(
      pageId,
    );
    expect((await refused('get_page', {})).code).toBe(-32602);
    const listed = await call('list_pages', { item_id: suite.itemId });
    expect(listed).toMatchObject({ total: 1, page: 1, page_size: 50 });
    expect(listed.pages[0]).toMatchObject({ page_id: pageId, page_title: 'Install' });
    expect((await refused('list_pages', {})).code).toBe(-32602);
  });

  test('update_page with an optimistic hash; history and change log name the token', async () => {
    const before = await call('get_page', { page_id: pageId });
    const updated = await call('update_page', {
      page_id: pageId,
      page_content: '# Install\n\nRun npm ci.\n',
      expected_hash: before.content_hash,
    });
    expect(updated.content_hash).not.toBe(before.content_hash);
    const conflict = await refused('update_page', {
      page_id: pageId,
      page_content: 'stale',
      expected_hash: before.content_hash,
    });
    expect(conflict.code).toBe(-32009);
    expect(conflict.data).toMatchObject({
      error_type: 'version_conflict',
      your_hash: before.content_hash,
    });
    const history = await call('get_page_history', { page_id: pageId });
    expect(history.total).toBe(1);
    const log = await suite
      .as(suite.owner)
      .ok<{ list: Array<{ remark: string }> }>('item/getChangeLog', { item_id: suite.itemId });
    expect(JSON.stringify(log)).toContain("Claude via token 'docs-bot'");
    // The stored version remembers who wrote the text it holds.
    const rows = await suite.as(suite.owner).ok<Array<{ page_comments: string }>>('page/history', {
      page_id: pageId,
    });
    expect(rows[0].page_comments).toBe("Claude via token 'docs-bot'");
  });

  test('update_page_diff replaces only its fragments, refuses a miss', async () => {
    const result = await call('update_page_diff', {
      page_id: pageId,
      diffs: [{ old_text: 'npm ci', new_text: 'npm ci --omit=dev' }],
    });
    expect(result).toMatchObject({ page_id: pageId, diffs_applied: 1 });
    expect((await call('get_page', { page_id: pageId })).page_content).toBe(
      '# Install\n\nRun npm ci --omit=dev.\n',
    );
    const miss = await refused('update_page_diff', {
      page_id: pageId,
      diffs: [{ old_text: 'yarn install', new_text: 'x' }],
    });
    expect(miss.code).toBe(-32010);
    expect(miss.data).toMatchObject({ error_type: 'diff_match_failed', diff_index: 0 });
    expect((await refused('update_page_diff', { page_id: pageId, diffs: [] })).code).toBe(-32602);
  });

  test('a page locked by another person answers the lock error', async () => {
    await suite.as(suite.editor).ok('page/setLock', { page_id: pageId, item_id: suite.itemId });
    const locked = await refused('update_page', { page_id: pageId, page_content: 'mine' });
    expect(locked.code).toBe(-32010);
    expect(locked.message).toContain(suite.editor.username);
    await suite.as(suite.editor).ok('page/setLock', {
      page_id: pageId,
      item_id: suite.itemId,
      lock_to: 1000,
    });
  });

  test('upsert_page, batch_upsert_pages, batch_get_pages', async () => {
    const created = await call('upsert_page', {
      item_id: suite.itemId,
      page_title: 'FAQ',
      page_content: 'Q?',
    });
    expect(created.message).toBe('Page created');
    const again = await call('upsert_page', {
      item_id: suite.itemId,
      page_title: 'FAQ',
      page_content: 'Q? A.',
    });
    expect(again).toMatchObject({ page_id: created.page_id, message: 'Page updated' });
    expect((await refused('upsert_page', { item_id: suite.itemId, page_content: 'x' })).code).toBe(
      -32602,
    );
    const batch = await call('batch_upsert_pages', {
      item_id: suite.itemId,
      pages: [
        { page_title: 'FAQ', page_content: 'Q? A!' },
        { page_title: 'Changelog', page_content: '- 1.0', cat_name: 'Docs' },
        { page_title: 'Broken', page_content: '' },
      ],
    });
    expect(batch).toMatchObject({ success_count: 2, failed_count: 1 });
    expect(batch.results[2]).toMatchObject({ page_title: 'Broken', status: 'failed' });
    expect((await refused('batch_upsert_pages', { item_id: suite.itemId, pages: [] })).code).toBe(
      -32602,
    );
    const many = await call('batch_get_pages', { page_ids: [pageId, created.page_id, 999999] });
    expect(many.pages.map((p: { status: string }) => p.status)).toEqual([
      'success',
      'success',
      'failed',
    ]);
    expect((await refused('batch_get_pages', { page_ids: 'all' })).code).toBe(-32602);
  });

  test('search_pages, search_all_pages, get_page_template', async () => {
    const byTitle = await call('search_pages', { query: 'Install', item_id: suite.itemId });
    expect(byTitle.pages.map((p: { page_id: number }) => p.page_id)).toEqual([pageId]);
    const byContent = await call('search_pages', { query: 'omit', search_mode: 'content' });
    expect(byContent.pages[0]).toMatchObject({ page_id: pageId });
    expect(byContent.pages[0].snippet).toContain('omit');
    expect((await refused('search_pages', {})).code).toBe(-32602);
    const all = await call('search_all_pages', { keywords: 'FAQ Changelog', limit: 1 });
    expect(all.total).toBe(1);
    expect((await refused('search_all_pages', { keywords: 'FAQ', mode: 'fuzzy' })).code).toBe(
      -32602,
    );
    const template = await call('get_page_template', { type: 'database' });
    expect(template.type).toBe('database');
    expect(template.template).toContain('| Field');
    // An unknown type falls back to the API template, as ShowDoc does.
    expect((await call('get_page_template', { type: 'poem' })).template).toContain('**URL:**');
  });

  test('create_page_by_comment', async () => {
    const made = await call('create_page_by_comment', {
      item_id: suite.itemId,
      comment_content: [
        '/**',
        ' * showdoc',
        ' * @catalog API/Users',
        ' * @title Register',
        ' * @method post',
        ' * @url https://example.com/api/register',
        ' * @param username required string The name',
        ' * @return {"error_code":0}',
        ' */',
      ].join('\n'),
    });
    expect(made).toMatchObject({ page_title: 'Register', message: 'Page created' });
    const page = await call('get_page', { page_id: made.page_id });
    expect(page.page_content).toContain('https://example.com/api/register');
    expect(page.page_content).toContain('| username | yes | string | The name |');
    expect(
      (
        await refused('create_page_by_comment', {
          item_id: suite.itemId,
          comment_content: 'showdoc',
        })
      ).code,
    ).toBe(-32602);
  });

  test('history: versions, one version, a diff, a restore', async () => {
    const history = await call('get_page_history', { page_id: pageId });
    expect(history.total).toBeGreaterThanOrEqual(2);
    const [newest, older] = history.history;
    expect(newest).toMatchObject({ author: suite.owner.username });
    const version = await call('get_page_version', {
      page_id: pageId,
      version_id: older.version_id,
    });
    expect(version.content).toContain('npm install');
    expect((await refused('get_page_version', { page_id: pageId, version_id: 999999 })).code).toBe(
      -32006,
    );
    const diff = await call('diff_page_versions', {
      page_id: pageId,
      version_id_1: older.version_id,
      version_id_2: newest.version_id,
    });
    expect(diff.diff.summary).toEqual({ added: 1, removed: 1 });
    expect((await refused('diff_page_versions', { page_id: pageId, version_id_1: 1 })).code).toBe(
      -32602,
    );
    expect((await refused('get_page_history', { page_id: -1 })).code).toBe(-32602);
    const restored = await call('restore_page_version', {
      page_id: pageId,
      version_id: older.version_id,
    });
    expect(restored).toMatchObject({ page_id: pageId, page_title: 'Install' });
    expect((await call('get_page', { page_id: pageId })).page_content).toContain('npm install');
    expect(
      (await refused('restore_page_version', { page_id: pageId, version_id: 999999 })).code,
    ).toBe(-32006);
  });

  test('single-page links: create, get (and open by unique_key), delete', async () => {
    const link = await call('create_single_page_link', { page_id: pageId, expire_days: 3 });
    expect(link.unique_key).toMatch(/^[0-9a-f]{32}$/);
    expect(link.share_url).toBe(`${suite.server.url}/p/${link.unique_key}`);
    expect(link.expire_time).toBeGreaterThan(Date.now() / 1000);
    expect((await refused('create_single_page_link', {})).code).toBe(-32602);
    expect(await call('get_single_page_link', { page_id: pageId })).toMatchObject({
      has_link: true,
      unique_key: link.unique_key,
    });
    expect((await call('get_page', { unique_key: link.unique_key })).page_id).toBe(pageId);
    expect((await refused('get_single_page_link', { page_id: 'x' })).code).toBe(-32602);
    await call('delete_single_page_link', { page_id: pageId });
    expect((await call('get_single_page_link', { page_id: pageId })).has_link).toBe(false);
    expect((await refused('delete_single_page_link', { page_id: 999999 })).code).toBe(-32006);
  });

  test('delete_page', async () => {
    const made = await call('create_page', {
      item_id: suite.itemId,
      page_title: 'Temporary',
      page_content: 'bye',
    });
    expect(await call('delete_page', { page_id: made.page_id })).toMatchObject({
      page_id: made.page_id,
    });
    expect((await refused('delete_page', { page_id: made.page_id })).code).toBe(-32006);
  });
});

describe('rights come from the same access rules as the REST API', () => {
  test('a read-only member cannot write; a catalog-restricted member sees only its catalogs', async () => {
    const readerToken = (await makeAiToken(suite.server, suite.reader)).token;
    const reader = await connect(readerToken, 'Cursor');
    expect((await call('get_item', { item_id: suite.itemId }, reader)).role).toBe('readonly');
    expect(
      (
        await refused(
          'create_page',
          { item_id: suite.itemId, page_title: 'R', page_content: 'r' },
          reader,
        )
      ).code,
    ).toBe(-32004);

    const item = await makeItem(suite.owner, { item_name: 'Restricted' });
    const owner = await connect((await makeAiToken(suite.server, suite.owner)).token);
    const open = await call(
      'create_page',
      {
        item_id: item.item_id,
        page_title: 'Open',
        page_content: 'o',
        cat_name: 'Open',
      },
      owner,
    );
    const hidden = await call(
      'create_page',
      {
        item_id: item.item_id,
        page_title: 'Hidden',
        page_content: 'h',
        cat_name: 'Hidden',
      },
      owner,
    );
    await addMember(item.item_id, suite.stranger, 1, [open.cat_id]);
    const stranger = await connect((await makeAiToken(suite.server, suite.stranger)).token);
    const listed = await call('list_pages', { item_id: item.item_id }, stranger);
    expect(listed.pages.map((p: { page_title: string }) => p.page_title)).toEqual(['Open']);
    expect((await refused('get_page', { page_id: hidden.page_id }, stranger)).code).toBe(-32006);
    expect(
      (await refused('update_page', { page_id: hidden.page_id, page_content: 'x' }, stranger)).code,
    ).toBe(-32006);
    expect((await refused('get_item', { item_id: suite.itemId }, stranger)).code).toBe(-32003);
  });
});
