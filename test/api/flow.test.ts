/**
 * flow/* over real HTTP against ShowDoc's answers (save answers the flow row, getFlowPageList
 * adds page_title, deletes answer {success: true}) with the rules per action (anonymous → 10102,
 * bad input → 10101 with nothing written, readers and strangers → 10303 for writes), and Quire's
 * flow/run: a two-step flow against a local HTTP server (allowed through HTTP_RELAY_ALLOW_HOSTS)
 * where step 2 sends a token extracted from step 1's answer, `{{var}}` from the environment,
 * global headers, stop/continue on error, progress pushed to the item's watchers — and a private
 * address the allow-list does not name is never reached.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Page, PageHistory } from '../../models/pages';
import { RunapiFlow, RunapiFlowPage } from '../../models/workbench/schemas';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser } from '../helpers/users';
import { closeAllSockets, connectClient } from '../helpers/sockets';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}
const seen: Seen[] = [];
let target: Server;
let targetPort = 0;

const suite = apiSuite({
  env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' },
  teardown: () => closeAllSockets(),
});
const { as } = suite;

beforeAll(async () => {
  target = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      res.setHeader('content-type', 'application/json');
      if (req.url?.startsWith('/login'))
        return res.end(JSON.stringify({ data: { token: `tok-${seen.length}` } }));
      if (req.url?.startsWith('/fail')) {
        res.statusCode = 500;
        return res.end('{}');
      }
      res.end(JSON.stringify({ ok: req.headers.authorization ?? null }));
    });
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  targetPort = (target.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => target.close(resolve));
});

async function newItem(): Promise<number> {
  const { item_id } = await makeItem(suite.owner, { password: 'secret' });
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  return item_id;
}

function apiPage(method: string, url: string, extra: Record<string, unknown> = {}) {
  return JSON.stringify({ info: { method, url, title: url }, request: { headers: [], ...extra } });
}

async function flowOf(itemId: number, settings: Record<string, string | number> = {}) {
  return as(suite.editor).ok<{ id: number }>('flow/save', {
    item_id: itemId,
    flow_name: 'Login then read',
    ...settings,
  });
}

describe('flow/save, getList, delete', () => {
  test('save creates with ShowDoc defaults and the first environment, updates only what is sent', async () => {
    const itemId = await newItem();
    const { env_id } = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    const flow = await as(suite.editor).ok<Record<string, unknown>>('flow/save', {
      item_id: itemId,
      flow_name: 'F',
    });
    expect(flow).toMatchObject({
      flow_name: 'F',
      item_id: itemId,
      env_id,
      uid: suite.editor.uid,
      username: suite.editor.username,
      times: 1,
      time_interval: 0,
      error_continue: 1,
      save_change: 1,
    });
    const updated = await as(suite.owner).ok<Record<string, unknown>>('flow/save', {
      id: flow.id as number,
      times: '3',
    });
    expect(updated).toMatchObject({ id: flow.id, flow_name: 'F', times: 3, error_continue: 1 });
    const second = await flowOf(itemId);
    const list = await as(suite.reader).ok<{ id: number }[]>('flow/getList', { item_id: itemId });
    expect(list.map((f) => f.id)).toEqual([second.id, flow.id]);
    expect(await as(suite.owner).ok('flow/delete', { id: second.id })).toEqual({ success: true });
    expect(await RunapiFlow.countDocuments({ item_id: itemId })).toBe(1);
  });

  test('refusals: anonymous, missing item or flow, bad numbers, reader, stranger — nothing written', async () => {
    const itemId = await newItem();
    const flow = await flowOf(itemId);
    expect((await suite.server.api.fail('flow/save', { item_id: itemId })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('flow/save', { flow_name: 'x' })).error_code).toBe(10101);
    expect((await as(suite.editor).fail('flow/save', { id: 999999 })).error_code).toBe(10101);
    expect(
      (
        await as(suite.editor).fail(
          'flow/save',
          { id: flow.id, times: { a: 1 } as never },
          { json: true },
        )
      ).error_code,
    ).toBe(10101);
    expect((await as(suite.reader).fail('flow/save', { item_id: itemId })).error_code).toBe(10303);
    expect(
      (await as(suite.stranger).fail('flow/save', { id: flow.id, flow_name: 'Hijack' })).error_code,
    ).toBe(10303);
    expect((await suite.server.api.fail('flow/getList', { item_id: itemId })).error_code).toBe(
      10102,
    );
    expect((await as(suite.editor).fail('flow/getList', {})).error_code).toBe(10101);
    expect((await as(suite.stranger).fail('flow/getList', { item_id: itemId })).error_code).toBe(
      10303,
    );
    expect((await suite.server.api.fail('flow/delete', { id: flow.id })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('flow/delete', { id: 0 })).error_code).toBe(10101);
    expect((await as(suite.reader).fail('flow/delete', { id: flow.id })).error_code).toBe(10303);
    expect(await RunapiFlow.countDocuments({ item_id: itemId })).toBe(1);
    expect((await RunapiFlow.findOne({ id: flow.id }).lean())?.flow_name).toBe('Login then read');
  });
});

describe('flow pages', () => {
  test('add in order, list with titles, sort, enable a subset, set extractions, delete', async () => {
    const itemId = await newItem();
    const flow = await flowOf(itemId);
    const p1 = await makePage(suite.owner, itemId, { title: 'Login' });
    const p2 = await makePage(suite.owner, itemId, { title: 'Read' });
    const a = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', {
      flow_id: flow.id,
      page_id: p1.page_id,
    });
    const b = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', {
      flow_id: flow.id,
      page_id: p2.page_id,
    });
    let list = await as(suite.reader).ok<Record<string, unknown>[]>('flow/getFlowPageList', {
      flow_id: flow.id,
    });
    expect(list.map((r) => [r.id, r.s_number, r.page_title, r.enabled])).toEqual([
      [a.id, 1, 'Login', 1],
      [b.id, 2, 'Read', 1],
    ]);
    expect(
      await as(suite.editor).ok('flow/saveSort', {
        flow_id: flow.id,
        orders: JSON.stringify([
          { id: a.id, s_number: 2 },
          { id: b.id, s_number: 1 },
        ]),
      }),
    ).toEqual([]);
    expect(
      await as(suite.editor).ok('flow/setFlowPageEnabled', {
        flow_id: flow.id,
        ids: JSON.stringify([b.id]),
      }),
    ).toEqual([]);
    list = await as(suite.editor).ok('flow/getFlowPageList', { flow_id: flow.id });
    expect(list.map((r) => [r.id, r.enabled])).toEqual([
      [b.id, 1],
      [a.id, 0],
    ]);
    expect(
      await as(suite.editor).ok('flow/setFlowPageExtract', {
        id: a.id,
        extract: JSON.stringify([{ var: 'token', path: '$.data.token' }]),
      }),
    ).toEqual([]);
    expect((await RunapiFlowPage.findOne({ id: a.id }).lean())?.extract).toContain('$.data.token');
    expect(await as(suite.owner).ok('flow/deleteFlowPage', { id: a.id })).toEqual({
      success: true,
    });
    expect(await RunapiFlowPage.countDocuments({ flow_id: flow.id })).toBe(1);
  });

  test('refusals for each page action: anonymous, bad input, reader/stranger, another item’s page', async () => {
    const itemId = await newItem();
    const foreign = await makeItem(suite.stranger);
    const flow = await flowOf(itemId);
    const page = await makePage(suite.owner, itemId);
    const foreignPage = await makePage(suite.stranger, foreign.item_id);
    const add = { flow_id: flow.id, page_id: page.page_id };
    expect((await suite.server.api.fail('flow/addFlowPage', add)).error_code).toBe(10102);
    expect((await as(suite.editor).fail('flow/addFlowPage', { flow_id: flow.id })).error_code).toBe(
      10101,
    );
    expect(
      (await as(suite.editor).fail('flow/addFlowPage', { ...add, page_id: foreignPage.page_id }))
        .error_code,
    ).toBe(10303);
    expect((await as(suite.reader).fail('flow/addFlowPage', add)).error_code).toBe(10303);
    expect(await RunapiFlowPage.countDocuments({ flow_id: flow.id })).toBe(0);
    const { id } = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', add);
    for (const [route, params] of [
      ['flow/deleteFlowPage', { id }],
      ['flow/getFlowPageList', { flow_id: flow.id }],
      ['flow/saveSort', { flow_id: flow.id, orders: JSON.stringify([{ id, s_number: 5 }]) }],
      ['flow/setFlowPageEnabled', { flow_id: flow.id, ids: '[]' }],
      ['flow/setFlowPageExtract', { id, extract: '[]' }],
    ] as const) {
      expect((await suite.server.api.fail(route, params)).error_code).toBe(10102);
      expect((await as(suite.stranger).fail(route, params)).error_code).toBe(10303);
      if (route !== 'flow/getFlowPageList')
        expect((await as(suite.reader).fail(route, params)).error_code).toBe(10303);
    }
    expect((await as(suite.editor).fail('flow/deleteFlowPage', { id: 0 })).error_code).toBe(10101);
    expect((await as(suite.editor).fail('flow/getFlowPageList', {})).error_code).toBe(10101);
    expect(
      (await as(suite.editor).fail('flow/saveSort', { flow_id: flow.id, orders: '{bad' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('flow/setFlowPageEnabled', { flow_id: flow.id, ids: 'x' }))
        .error_code,
    ).toBe(10101);
    expect(
      (await as(suite.editor).fail('flow/setFlowPageExtract', { id, extract: '[{"var":""}]' }))
        .error_code,
    ).toBe(10101);
    expect(await RunapiFlowPage.findOne({ id }).lean()).toMatchObject({
      s_number: 1,
      enabled: 1,
      extract: '',
    });
  });
});

describe('catalog restriction', () => {
  test('a member limited to some catalogs neither adds, sees the title of, nor runs a page outside them', async () => {
    const itemId = await newItem();
    const open = await makeCatalog(suite.owner, itemId, 'Open');
    const closed = await makeCatalog(suite.owner, itemId, 'Closed');
    const limited = await makeUser();
    await addMember(itemId, limited, 1, [open]);
    const hidden = await makePage(suite.owner, itemId, {
      title: 'Hidden',
      catId: closed,
      content: apiPage('GET', `http://127.0.0.1:${targetPort}/hidden`),
    });
    const visible = await makePage(suite.owner, itemId, { title: 'Visible', catId: open });
    const flow = await flowOf(itemId);
    expect(
      (await as(limited).fail('flow/addFlowPage', { flow_id: flow.id, page_id: hidden.page_id }))
        .error_code,
    ).toBe(10101);
    await as(suite.editor).ok('flow/addFlowPage', { flow_id: flow.id, page_id: hidden.page_id });
    await as(limited).ok('flow/addFlowPage', { flow_id: flow.id, page_id: visible.page_id });
    const steps = await as(limited).ok<{ page_id: number; page_title: unknown }[]>(
      'flow/getFlowPageList',
      { flow_id: flow.id },
    );
    expect(steps.map((s) => [s.page_id, s.page_title])).toEqual([
      [hidden.page_id, false],
      [visible.page_id, 'Visible'],
    ]);
    seen.length = 0;
    const run = await as(limited).ok<{ steps: { page_id: number; error: string; url: string }[] }>(
      'flow/run',
      { flow_id: flow.id },
    );
    expect(run.steps[0]).toMatchObject({
      page_id: hidden.page_id,
      error: 'Page not found',
      url: '',
    });
    expect(seen.filter((s) => s.url === '/hidden')).toEqual([]);
  });
});

describe('flow/run', () => {
  async function twoStepFlow(itemId: number, errorContinue = 1) {
    const dev = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: dev.env_id,
      var_name: 'host',
      var_value: `http://127.0.0.1:${targetPort}`,
    });
    await as(suite.editor).ok('runapi/updateGlobalParam', {
      item_id: itemId,
      param_type: 'header',
      content_json_str: JSON.stringify([{ name: 'X-Global', value: 'g-{{host}}' }]),
    });
    const login = await makePage(suite.owner, itemId, {
      title: 'Login',
      content: apiPage('POST', '{{host}}/login', {
        params: { mode: 'json', json: '{"user":"{{user}}"}' },
      }),
    });
    const read = await makePage(suite.owner, itemId, {
      title: 'Read',
      content: apiPage('GET', '{{host}}/me', {
        headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
        query: [{ name: 'q', value: '1' }],
      }),
    });
    const flow = await flowOf(itemId, { env_id: dev.env_id, error_continue: errorContinue });
    const first = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', {
      flow_id: flow.id,
      page_id: login.page_id,
    });
    await as(suite.editor).ok('flow/addFlowPage', { flow_id: flow.id, page_id: read.page_id });
    await as(suite.editor).ok('flow/setFlowPageExtract', {
      id: first.id,
      extract: JSON.stringify([{ var: 'token', path: '$.data.token' }]),
    });
    return { flow, dev, login, read };
  }

  test('runs both steps in order; step 2 carries the token extracted from step 1; watchers see progress', async () => {
    const itemId = await newItem();
    const { flow } = await twoStepFlow(itemId);
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      var_name: 'user',
      var_value: 'ann',
    });
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    expect(await watcher.watch({ item_id: itemId })).toEqual({ ok: true });
    seen.length = 0;
    const run = await as(suite.editor).ok<{
      passed: number;
      failed: number;
      stopped: boolean;
      steps: Record<string, unknown>[];
      variables: Record<string, string>;
    }>('flow/run', { flow_id: flow.id, run_id: 'r1' });
    expect(run).toMatchObject({ passed: 2, failed: 0, stopped: false });
    expect(run.steps.map((s) => [s.page_title, s.method, s.status, s.pass])).toEqual([
      ['Login', 'POST', 200, true],
      ['Read', 'GET', 200, true],
    ]);
    expect(run.steps[0].extracted).toEqual({ token: 'tok-1' });
    expect(run.variables.token).toBe('tok-1');
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/login'],
      ['GET', '/me?q=1'],
    ]);
    expect(seen[0].body).toBe('{"user":"ann"}');
    expect(seen[0].headers['content-type']).toBe('application/json');
    expect(seen[1].headers.authorization).toBe('Bearer tok-1');
    expect(seen[1].headers['x-global']).toBe(`g-http://127.0.0.1:${targetPort}`);
    const done = await watcher.waitFor('flow:progress', (p) => p.finished && p.run_id === 'r1');
    expect(done).toMatchObject({
      item_id: itemId,
      flow_id: flow.id,
      done: 2,
      total: 2,
      by_uid: suite.editor.uid,
    });
    const steps = watcher.all('flow:progress').filter((p) => p.step);
    expect(steps.map((p) => [p.step?.page_title, p.step?.pass])).toEqual([
      ['Login', true],
      ['Read', true],
    ]);
    watcher.close();
  });

  test('times rounds; a failing step stops the run unless the flow continues on error', async () => {
    const itemId = await newItem();
    const { flow, login } = await twoStepFlow(itemId, 0);
    const failing = await makePage(suite.owner, itemId, {
      title: 'Fail',
      content: apiPage('GET', '{{host}}/fail'),
    });
    const row = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', {
      flow_id: flow.id,
      page_id: failing.page_id,
    });
    await as(suite.editor).ok('flow/saveSort', {
      flow_id: flow.id,
      orders: JSON.stringify([{ id: row.id, s_number: 0 }]),
    });
    const stopped = await as(suite.editor).ok<{
      stopped: boolean;
      steps: { pass: boolean; error: string }[];
    }>('flow/run', { flow_id: flow.id });
    expect(stopped.stopped).toBe(true);
    expect(stopped.steps).toEqual([expect.objectContaining({ pass: false, error: 'HTTP 500' })]);
    await as(suite.editor).ok('flow/save', { id: flow.id, error_continue: 1, times: 2 });
    const all = await as(suite.editor).ok<{
      passed: number;
      failed: number;
      steps: { round: number; page_id: number }[];
    }>('flow/run', { flow_id: flow.id });
    expect(all).toMatchObject({ passed: 4, failed: 2 });
    expect(all.steps.map((s) => s.round)).toEqual([1, 1, 1, 2, 2, 2]);
    expect(all.steps[1].page_id).toBe(login.page_id);
  });

  test('another environment calls its own host', async () => {
    const itemId = await newItem();
    const { flow } = await twoStepFlow(itemId);
    const other = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Other',
    });
    // Same server under another spelling of the allowed address: the env's own value is used.
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: other.env_id,
      var_name: 'host',
      var_value: `http://127.0.0.1:${targetPort}/v2`,
    });
    seen.length = 0;
    const run = await as(suite.editor).ok<{ env_id: number; steps: { url: string }[] }>(
      'flow/run',
      { flow_id: flow.id, env_id: other.env_id },
    );
    expect(run.env_id).toBe(other.env_id);
    expect(seen.map((s) => s.url)).toEqual(['/v2/login', '/v2/me?q=1']);
  });

  test('a private address the allow-list does not name is refused, never reached', async () => {
    const itemId = await newItem();
    const flow = await flowOf(itemId);
    const page = await makePage(suite.owner, itemId, {
      content: apiPage('GET', 'http://10.1.2.3:9/x'),
    });
    await as(suite.editor).ok('flow/addFlowPage', { flow_id: flow.id, page_id: page.page_id });
    const run = await as(suite.editor).ok<{
      failed: number;
      steps: { pass: boolean; status: number; error: string }[];
    }>('flow/run', { flow_id: flow.id });
    expect(run.failed).toBe(1);
    expect(run.steps[0]).toMatchObject({ pass: false, status: 0 });
    expect(run.steps[0].error).toMatch(/private|not allowed|10\.1\.2\.3/i);
  });

  test('refusals: anonymous, no flow, no enabled step, reader, stranger', async () => {
    const itemId = await newItem();
    const flow = await flowOf(itemId);
    expect((await suite.server.api.fail('flow/run', { flow_id: flow.id })).error_code).toBe(10102);
    expect((await as(suite.editor).fail('flow/run', { flow_id: 0 })).error_code).toBe(10101);
    expect((await as(suite.editor).fail('flow/run', { flow_id: flow.id })).error_code).toBe(10101);
    expect((await as(suite.reader).fail('flow/run', { flow_id: flow.id })).error_code).toBe(10303);
    expect((await as(suite.stranger).fail('flow/run', { flow_id: flow.id })).error_code).toBe(
      10303,
    );
  });
});

describe('save_change: the last answers become the pages’ response examples', () => {
  const markdownApi = (url: string) =>
    [
      '##### 简要描述',
      '',
      '- 登录',
      '',
      '##### 请求URL',
      '',
      `- \` ${url} \``,
      '',
      '##### 请求方式',
      '',
      '- POST',
      '',
      '##### 返回示例',
      '',
      '```json',
      '{"old": true}',
      '```',
      '',
      '##### 返回参数说明',
      '',
      '|参数名|类型|说明|',
    ].join('\n');

  async function exampleFlow(itemId: number, saveChange: number, cats: number[] = []) {
    const dev = await as(suite.editor).ok<{ env_id: number }>('runapi/addEnv', {
      item_id: itemId,
      env_name: 'Dev',
    });
    await as(suite.editor).ok('itemVariable/save', {
      item_id: itemId,
      env_id: dev.env_id,
      var_name: 'host',
      var_value: `http://127.0.0.1:${targetPort}`,
    });
    const login = await makePage(suite.owner, itemId, {
      title: 'Login (Markdown)',
      catId: cats[0],
      content: markdownApi('{{host}}/login'),
    });
    const read = await makePage(suite.owner, itemId, {
      title: 'Read (RunApi)',
      catId: cats[1],
      content: apiPage('GET', '{{host}}/me', {
        headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }],
      }),
    });
    const flow = await flowOf(itemId, { env_id: dev.env_id, save_change: saveChange });
    const first = await as(suite.editor).ok<{ id: number }>('flow/addFlowPage', {
      flow_id: flow.id,
      page_id: login.page_id,
    });
    await as(suite.editor).ok('flow/addFlowPage', { flow_id: flow.id, page_id: read.page_id });
    await as(suite.editor).ok('flow/setFlowPageExtract', {
      id: first.id,
      extract: JSON.stringify([{ var: 'token', path: '$.data.token' }]),
    });
    return { flow, login, read };
  }

  const contentOf = async (pageId: number) =>
    (await Page.findOne({ page_id: pageId }).lean())?.page_content ?? '';
  const versions = (pageId: number) => PageHistory.countDocuments({ page_id: pageId });

  test('save_change=1 writes each page’s answer through savePage: Markdown section and RunApi field, a new history version', async () => {
    const itemId = await newItem();
    const { flow, login, read } = await exampleFlow(itemId, 1);
    const before = await contentOf(login.page_id);
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    expect(await watcher.watch({ item_id: itemId })).toEqual({ ok: true });
    seen.length = 0;
    const run = await as(suite.editor).ok<{ passed: number; saved_pages: number[] }>('flow/run', {
      flow_id: flow.id,
      run_id: 'save-1',
    });
    expect(run.passed).toBe(2);
    expect(seen.map((s) => [s.method, s.url])).toEqual([
      ['POST', '/login'],
      ['GET', '/me'],
    ]);
    expect(run.saved_pages).toEqual([login.page_id, read.page_id]);

    const markdown = await contentOf(login.page_id);
    expect(markdown).toContain('```json\n{\n  "data": {\n    "token": "tok-1"\n  }\n}\n```');
    expect(markdown).not.toContain('"old"');
    expect(markdown).toContain('##### 返回参数说明');
    const runApi = JSON.parse(await contentOf(read.page_id)) as {
      info: { url: string };
      response: { responseExample: string };
    };
    expect(runApi.info.url).toBe('{{host}}/me');
    expect(JSON.parse(runApi.response.responseExample)).toEqual({ ok: 'Bearer tok-1' });

    // savePage's trail: the replaced text is a history version, the save is the editor's, pushed.
    expect(await versions(login.page_id)).toBe(1);
    expect((await PageHistory.findOne({ page_id: login.page_id }).lean())?.page_content).toBe(
      before,
    );
    expect((await Page.findOne({ page_id: read.page_id }).lean())?.author_uid).toBe(
      suite.editor.uid,
    );
    // Watchers follow each step as it comes: which step, and why it failed, never the contents.
    const pushed = watcher.all('flow:progress').filter((p) => p.run_id === 'save-1' && p.step);
    expect(pushed.map((p) => p.step)).toEqual([
      expect.objectContaining({
        page_id: login.page_id,
        flow_page_id: expect.any(Number),
        error: '',
      }),
      expect.objectContaining({ page_id: read.page_id, pass: true, error: '' }),
    ]);
    expect(JSON.stringify(pushed)).not.toContain('tok-1');
    watcher.close();

    // The same answers again: nothing to change, no new version.
    seen.length = 0;
    const again = await as(suite.editor).ok<{ saved_pages: number[] }>('flow/run', {
      flow_id: flow.id,
    });
    expect(again.saved_pages).toEqual([]);
    expect(await versions(login.page_id)).toBe(1);
    expect(await versions(read.page_id)).toBe(1);
  });

  test('a watcher limited to some catalogs follows the run without the titles of pages outside them', async () => {
    const itemId = await newItem();
    const open = await makeCatalog(suite.owner, itemId, 'Open');
    const hidden = await makeCatalog(suite.owner, itemId, 'Hidden');
    const { flow } = await exampleFlow(itemId, 0, [hidden, hidden]);
    const limited = await makeUser();
    await addMember(itemId, limited, 0, [open]);
    const full = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    const partial = await connectClient(suite.server.url, { user_token: limited.user_token });
    expect(await full.watch({ item_id: itemId })).toEqual({ ok: true });
    expect(await partial.watch({ item_id: itemId })).toEqual({ ok: true });
    await as(suite.editor).ok('flow/run', { flow_id: flow.id, run_id: 'titles' });
    await partial.waitFor('flow:progress', (p) => p.finished && p.run_id === 'titles');
    await full.waitFor('flow:progress', (p) => p.finished && p.run_id === 'titles');
    const titles = (client: typeof full) =>
      client
        .all('flow:progress')
        .filter((p) => p.run_id === 'titles' && p.step)
        .map((p) => p.step?.page_title);
    expect(titles(full)).toEqual(['Login (Markdown)', 'Read (RunApi)']);
    expect(titles(partial)).toEqual(['', '']);
    full.close();
    partial.close();
  });

  test('save_change=0 leaves the pages alone', async () => {
    const itemId = await newItem();
    const { flow, login, read } = await exampleFlow(itemId, 0);
    const before = [await contentOf(login.page_id), await contentOf(read.page_id)];
    const run = await as(suite.editor).ok<{ passed: number; saved_pages: number[] }>('flow/run', {
      flow_id: flow.id,
    });
    expect(run).toMatchObject({ passed: 2, saved_pages: [] });
    expect([await contentOf(login.page_id), await contentOf(read.page_id)]).toEqual(before);
    expect(await versions(login.page_id)).toBe(0);
    expect(await versions(read.page_id)).toBe(0);
  });

  test('a read-only member’s run writes nothing; a restricted member’s run skips pages outside their catalogs', async () => {
    const itemId = await newItem();
    const open = await makeCatalog(suite.owner, itemId, 'Open');
    const closed = await makeCatalog(suite.owner, itemId, 'Closed');
    const { flow, login, read } = await exampleFlow(itemId, 1, [open, closed]);
    expect((await as(suite.reader).fail('flow/run', { flow_id: flow.id })).error_code).toBe(10303);
    expect(await versions(login.page_id)).toBe(0);
    expect(await versions(read.page_id)).toBe(0);

    const limited = await makeUser();
    await addMember(itemId, limited, 1, [open]);
    const before = await contentOf(read.page_id);
    const run = await as(limited).ok<{ saved_pages: number[]; steps: { error: string }[] }>(
      'flow/run',
      { flow_id: flow.id },
    );
    expect(run.steps.map((s) => s.error)).toEqual(['', 'Page not found']);
    expect(run.saved_pages).toEqual([login.page_id]);
    expect(await contentOf(read.page_id)).toBe(before);
    expect(await versions(read.page_id)).toBe(0);
  });
});
