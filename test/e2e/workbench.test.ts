/**
 * The API workbench in a real browser, in Chinese (the language that offers the HTTP test tool):
 * two environments and their variables are defined from the HTTP test dialog, a request using
 * `{{host}}` goes to the chosen environment's server and to the other one after switching (the
 * choice is remembered for the user); a two-step test flow built from the item's API pages runs
 * against local servers (reached through HTTP_RELAY_ALLOW_HOSTS), step 2 sending the token
 * extracted from step 1's answer, both steps passing — and with the other environment, the other
 * server is called. A secret variable is shown masked. Typing a parameter name in a Markdown
 * API table offers the parameter library's entry and fills its type and description.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { eventually } from '../helpers/embedded';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { editorReady, editorText, openEditor, typeAtEnd } from './editorHelpers';
import { browserSuite, screenshot } from './helpers';

interface Target {
  url: string;
  seen: { method: string; path: string; authorization: string; body: string; origin: string }[];
  close(): Promise<void>;
}

/**
 * A JSON API: POST /login answers a token naming this server, GET /me echoes the credentials.
 * With `cors`, any origin may read its answers (preflights answered).
 */
async function startTarget(name: string, cors = false): Promise<Target> {
  const seen: Target['seen'] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      seen.push({
        method: req.method ?? '',
        path: req.url ?? '',
        authorization: req.headers.authorization ?? '',
        body,
        origin: req.headers.origin ?? '',
      });
      if (cors) {
        res.setHeader('access-control-allow-origin', '*');
        res.setHeader('access-control-allow-headers', 'authorization, content-type, x-global');
        res.setHeader('access-control-allow-methods', 'GET, POST');
        if (req.method === 'OPTIONS') return res.end();
      }
      res.setHeader('content-type', 'application/json');
      if (req.url === '/login')
        return res.end(JSON.stringify({ data: { token: `${name}-token-${seen.length}` } }));
      res.end(JSON.stringify({ server: name, auth: req.headers.authorization ?? null }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let owner: TestUser;
let itemId: number;
let dev: Target;
let prod: Target;
let open: Target;
let loginPage: number;
let mePage: number;

const suite = browserSuite({
  env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' },
  setup: async () => {
    owner = await makeUser({ name: 'Wanda Bench' });
    itemId = (await makeItem(owner, { item_name: 'Workbench' })).item_id;
    [dev, prod, open] = await Promise.all([
      startTarget('dev'),
      startTarget('prod'),
      startTarget('open', true),
    ]);
    loginPage = (
      await makePage(owner, itemId, {
        title: '登录',
        content: JSON.stringify({
          info: { method: 'POST', url: '{{host}}/login', title: '登录' },
          request: { params: { mode: 'json', json: '{"user":"ann"}' } },
        }),
      })
    ).page_id;
    mePage = (
      await makePage(owner, itemId, {
        title: '我的信息',
        content: JSON.stringify({
          info: { method: 'GET', url: '{{host}}/me', title: '我的信息' },
          request: { headers: [{ name: 'Authorization', value: 'Bearer {{token}}' }] },
        }),
      })
    ).page_id;
  },
});

afterAll(async () => {
  await dev?.close();
  await prod?.close();
  await open?.close();
});

const CORS_NOISE = [/CORS policy/, /Failed to load resource/, /net::ERR_FAILED/];

async function editInChinese(pageId: number): Promise<Page> {
  const page = await openEditor(suite, owner, itemId, pageId, { wait: false, ignore: CORS_NOISE });
  await page.evaluate(() => localStorage.setItem('help_lang', 'zh_cn'));
  await page.reload();
  await editorReady(page);
  return page;
}

/** Picks `label` in the antd select `testId` (its open dropdown). */
async function choose(page: Page, scope: string, testId: string, label: string) {
  await page.locator(`${scope} [data-testid="${testId}"]`).click();
  await page
    .locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${label}"]`)
    .click();
}

async function addEnvWithHost(page: Page, name: string, host: string) {
  const modal = page.locator('[data-testid="workbench-env-modal"]');
  await modal.locator('[data-testid="workbench-env-name"]').fill(name);
  await modal.locator('[data-testid="workbench-env-add"]').click();
  await modal.locator(`[data-testid="workbench-env-tab-${name}"]`).waitFor();
  await modal.locator('[data-testid="workbench-var-name"]:visible').fill('host');
  await modal.locator('[data-testid="workbench-var-value"]:visible').fill(host);
  await modal.locator('[data-testid="workbench-var-add"]:visible').click();
  await modal.locator('[data-testid="workbench-var-host"]:visible').waitFor();
}

test('environments: {{host}} goes to the chosen environment; switching calls the other host', async () => {
  const page = await editInChinese(loginPage);
  await page.locator('[data-testid="editor-tool-http"]').click();
  const dialog = page.locator('[data-testid="http-test-dialog"]');
  await dialog.locator('[data-testid="workbench-env-bar"]').waitFor();
  await dialog.locator('[data-testid="workbench-env-manage"]').click();
  await addEnvWithHost(page, 'Dev', dev.url);
  // A secret: shown masked, its value not on screen.
  const modal = page.locator('[data-testid="workbench-env-modal"]');
  await modal.locator('[data-testid="workbench-var-secret"]:visible').click();
  await modal.locator('[data-testid="workbench-var-name"]:visible').fill('apikey');
  await modal.locator('[data-testid="workbench-var-value"]:visible').fill('k-secret-123');
  await modal.locator('[data-testid="workbench-var-add"]:visible').click();
  await modal
    .locator('[data-testid="workbench-var-apikey"]:visible [data-testid="workbench-var-masked"]')
    .waitFor();
  expect(await page.locator('[data-testid="workbench-env-modal"]').innerText()).not.toContain(
    'k-secret-123',
  );
  await addEnvWithHost(page, 'Prod', prod.url);
  await screenshot(page, 'workbench-environments');
  await page.keyboard.press('Escape');
  await page.locator('[data-testid="workbench-env-modal"]').waitFor({ state: 'detached' });

  await choose(page, '[data-testid="http-test-dialog"]', 'workbench-env-select', 'Dev');
  await dialog.locator('[data-testid="http-test-send"]').click();
  await dialog.locator('[data-testid="http-test-answer"]', { hasText: 'dev-token' }).waitFor();
  // (A JSON POST is first tried from the browser: its CORS preflight reaches the server too.)
  const sent = (target: Target) => target.seen.filter((s) => s.method !== 'OPTIONS');
  expect(sent(dev).map((s) => [s.method, s.path, s.body])).toEqual([
    ['POST', '/login', '{"user":"ann"}'],
  ]);

  await choose(page, '[data-testid="http-test-dialog"]', 'workbench-env-select', 'Prod');
  await dialog.locator('[data-testid="http-test-send"]').click();
  await dialog.locator('[data-testid="http-test-answer"]', { hasText: 'prod-token' }).waitFor();
  expect(sent(prod).map((s) => s.path)).toEqual(['/login']);
  expect(sent(dev)).toHaveLength(1);

  // The choice is remembered for the user.
  const envs = await suite.server.api
    .withToken(owner.user_token)
    .ok<{ id: number; env_name: string }[]>('runapi/getEnvList', { item_id: itemId });
  const selected = await suite.server.api
    .withToken(owner.user_token)
    .ok<{ env_id: number }>('runapi/getSelectEnv', { item_id: itemId });
  expect(envs.find((e) => e.id === selected.env_id)?.env_name).toBe('Prod');
});

test('a two-step flow passes a token from step 1 to step 2; the other environment calls the other host', async () => {
  dev.seen.length = 0;
  prod.seen.length = 0;
  const page = await editInChinese(loginPage);
  await page.locator('[data-testid="editor-tool-flow"]').click();
  const dialog = page.locator('[data-testid="workbench-flow-dialog"]');
  await dialog.locator('[data-testid="workbench-flow-name"]').fill('登录流程');
  await dialog.locator('[data-testid="workbench-flow-create"]').click();
  await dialog.locator('[data-testid="workbench-flow-run"]').waitFor();
  for (const title of ['登录', '我的信息']) {
    await choose(page, '[data-testid="workbench-flow-dialog"]', 'workbench-flow-page', title);
    await dialog.locator('[data-testid="workbench-flow-add-step"]').click();
  }
  const first = dialog.locator(`[data-testid="workbench-flow-step-${loginPage}"]`);
  await first.waitFor();
  await dialog.locator(`[data-testid="workbench-flow-step-${mePage}"]`).waitFor();
  await first.locator('[data-testid="workbench-flow-extract-var"]').fill('token');
  await first.locator('[data-testid="workbench-flow-extract-path"]').fill('$.data.token');
  await first.locator('[data-testid="workbench-flow-extract-add"]').click();
  await first.locator('[data-testid="workbench-flow-rule"]').waitFor();
  await choose(page, '[data-testid="workbench-flow-dialog"]', 'workbench-flow-env', 'Dev');

  await dialog.locator('[data-testid="workbench-flow-run"]').click();
  const result = dialog.locator('[data-testid="workbench-flow-run-result"][data-passed="2"]');
  await result.waitFor();
  expect(await result.getAttribute('data-failed')).toBe('0');
  expect(
    await result.locator('[data-testid="workbench-flow-result"][data-pass="true"]').count(),
  ).toBe(2);
  expect(dev.seen.map((s) => [s.method, s.path])).toEqual([
    ['POST', '/login'],
    ['GET', '/me'],
  ]);
  expect(dev.seen[1].authorization).toBe('Bearer dev-token-1');
  // The run's progress came over the live connection too.
  await dialog.locator('[data-testid="workbench-flow-live"][data-finished="true"]').waitFor();
  await screenshot(page, 'workbench-flow-run');

  await choose(page, '[data-testid="workbench-flow-dialog"]', 'workbench-flow-env', 'Prod');
  await dialog.locator('[data-testid="workbench-flow-run"]').click();
  await dialog
    .locator('[data-testid="workbench-flow-result-url"]', { hasText: `${prod.url}/login` })
    .waitFor();
  await dialog.locator('[data-testid="workbench-flow-run-result"][data-passed="2"]').waitFor();
  expect(prod.seen.map((s) => [s.path, s.authorization])).toEqual([
    ['/login', ''],
    ['/me', 'Bearer prod-token-1'],
  ]);
  expect(dev.seen).toHaveLength(2);
});

test('typing a parameter name in an API table suggests the library entry and fills the row', async () => {
  const api = suite.server.api.withToken(owner.user_token);
  const entry = await api.ok<{ id: string }>('paramDescLib/addEntry', {
    itemId,
    name: 'user_id',
    type: 'int',
    description: 'The user id',
  });
  const made = await makePage(owner, itemId, {
    title: 'Params',
    content: '|参数名|必选|类型|说明|\n|:---|:---|:---|:---|',
  });
  const page = await openEditor(suite, owner, itemId, made.page_id);
  await typeAtEnd(page, '\n|user_');
  const tooltip = page.locator('.cm-tooltip-autocomplete');
  await tooltip.getByText('user_id').waitFor();
  // CodeMirror ignores accepting within its interactionDelay (75 ms) of the list opening.
  await page.waitForTimeout(200);
  await page.keyboard.press('Enter');
  await page.waitForFunction(() =>
    document.querySelector('[data-testid="editor-cm"]')?.textContent?.includes('The user id|'),
  );
  expect((await editorText(page)).split('\n').pop()).toBe('|user_id| |int|The user id|');
  const stats = async () =>
    (
      await api.ok<{ data: { id: string; usageCount: number }[] }>('paramDescLib/getEntries', {
        itemId,
        name: 'user_id',
      })
    ).data;
  await eventually(async () =>
    expect((await stats()).map((e) => [e.id, e.usageCount])).toEqual([[entry.id, 1]]),
  );
});

test('the parameter library dialog promotes a learnt entry and imports new ones', async () => {
  const api = suite.server.api.withToken(owner.user_token);
  await api.ok('paramDescLib/addTempEntry', { itemId, name: 'order_no', description: '订单号' });
  const page = await editInChinese(loginPage);
  await page.locator('[data-testid="editor-tool-library"]').click();
  const dialog = page.locator('[data-testid="workbench-lib-dialog"]');
  const learnt = dialog.locator('[data-testid="workbench-lib-entry-order_no"]');
  await learnt.locator('[data-testid="workbench-lib-temp"]').waitFor();
  await learnt.locator('[data-testid="workbench-lib-promote"]').click();
  await learnt.locator('[data-testid="workbench-lib-temp"]').waitFor({ state: 'detached' });

  await dialog
    .locator('[data-testid="workbench-lib-text"]')
    .fill('session_id: 会话标识\norder_no: 重复');
  await dialog.locator('[data-testid="workbench-lib-preview"]').click();
  await dialog.locator('[data-testid="workbench-lib-confirm"]').click();
  await dialog
    .locator('[data-testid="workbench-lib-entry-session_id"]', { hasText: '会话标识' })
    .waitFor();
  const entries = await api.ok<{ data: { name: string; status: string; description: string }[] }>(
    'paramDescLib/getEntries',
    { itemId, pageSize: 50 },
  );
  expect(
    entries.data
      .filter((e) => e.name !== 'user_id')
      .map((e) => [e.name, e.status, e.description])
      .sort(),
  ).toEqual([
    ['order_no', 'permanent', '订单号'],
    ['session_id', 'permanent', '会话标识'],
  ]);
  await screenshot(page, 'workbench-parameter-library');
});

test('flow steps are dragged into order (saved); a run shows each step as it comes, here and to another watcher', async () => {
  const api = suite.server.api.withToken(owner.user_token);
  const [flow] = await api.ok<{ id: number }[]>('flow/getList', { item_id: itemId });
  // Two rounds a second apart: the run is visibly under way between them.
  await api.ok('flow/save', { id: flow.id, times: 2, time_interval: 1 });
  const order = async () =>
    (await api.ok<{ page_id: number }[]>('flow/getFlowPageList', { flow_id: flow.id })).map(
      (s) => s.page_id,
    );
  expect(await order()).toEqual([loginPage, mePage]);

  const watcher = await editInChinese(mePage);
  await watcher.locator('[data-testid="editor-tool-flow"]').click();
  const watching = watcher.locator('[data-testid="workbench-flow-dialog"]');
  await watching.locator(`[data-testid="workbench-flow-step-${mePage}"]`).waitFor();

  const page = await editInChinese(loginPage);
  await page.locator('[data-testid="editor-tool-flow"]').click();
  const dialog = page.locator('[data-testid="workbench-flow-dialog"]');
  const stepOf = (id: number) => dialog.locator(`[data-testid="workbench-flow-step-${id}"]`);
  await stepOf(mePage).waitFor();

  // Drag "我的信息" by its handle above "登录".
  const handle = await stepOf(mePage).locator('[data-testid="workbench-flow-drag"]').boundingBox();
  const target = await stepOf(loginPage).boundingBox();
  if (!handle || !target) throw new Error('steps not laid out');
  await page.mouse.move(handle.x + handle.width / 2, handle.y + handle.height / 2);
  await page.mouse.down();
  await page.mouse.move(handle.x + handle.width / 2, target.y + 4, { steps: 12 });
  await page.mouse.move(handle.x + handle.width / 2, target.y + 2, { steps: 2 });
  await page.mouse.up();
  await eventually(async () => expect(await order()).toEqual([mePage, loginPage]));
  const titles = () =>
    dialog
      .locator('[data-testid^="workbench-flow-step-"]')
      .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-testid')));
  expect(await titles()).toEqual([
    `workbench-flow-step-${mePage}`,
    `workbench-flow-step-${loginPage}`,
  ]);
  // The buttons stay for keyboard users: "登录" back up.
  await stepOf(loginPage).getByRole('button', { name: '上移' }).click();
  await eventually(async () => expect(await order()).toEqual([loginPage, mePage]));

  await dialog.locator('[data-testid="workbench-flow-run"]').click();
  const liveRows = dialog.locator(
    '[data-testid="workbench-flow-live-results"] [data-testid="workbench-flow-result"]',
  );
  await liveRows.first().waitFor();
  // Seen while the run goes on: its final answer has not come yet.
  expect(await dialog.locator('[data-testid="workbench-flow-run-result"]').count()).toBe(0);
  await screenshot(page, 'workbench-flow-live');

  // Another member's screen follows every step, without the answers' contents.
  const watchedRows = watching.locator(
    '[data-testid="workbench-flow-live-results"] [data-testid="workbench-flow-result"][data-pass="true"]',
  );
  await eventually(async () => expect(await watchedRows.count()).toBe(4));
  expect(await watching.innerText()).not.toContain('-token-');

  const result = dialog.locator('[data-testid="workbench-flow-run-result"][data-passed="4"]');
  await result.waitFor();
  await dialog
    .locator('[data-testid="workbench-flow-live-results"]')
    .waitFor({ state: 'detached' });
  // save_change (on by default): the login page's example now holds this run's token.
  await dialog.locator('[data-testid="workbench-flow-saved"]').waitFor();
  await api.ok('flow/save', { id: flow.id, times: 1, time_interval: 0 });
});

test('a flow run from the browser sends directly where CORS allows, with the same extraction and pass/fail', async () => {
  const api = suite.server.api.withToken(owner.user_token);
  const { env_id } = await api.ok<{ env_id: number }>('runapi/addEnv', {
    item_id: itemId,
    env_name: 'Open',
  });
  await api.ok('itemVariable/save', {
    item_id: itemId,
    env_id,
    var_name: 'host',
    var_value: open.url,
  });
  const [flow] = await api.ok<{ id: number }[]>('flow/getList', { item_id: itemId });
  await api.ok('flow/save', { id: flow.id, env_id });
  const page = await editInChinese(loginPage);
  await page.locator('[data-testid="editor-tool-flow"]').click();
  const dialog = page.locator('[data-testid="workbench-flow-dialog"]');
  await dialog.locator(`[data-testid="workbench-flow-step-${mePage}"]`).waitFor();
  await dialog.locator('[data-testid="workbench-flow-from-browser"]').click();
  await dialog.locator('[data-testid="workbench-flow-run"]').click();
  const result = dialog.locator('[data-testid="workbench-flow-run-result"][data-passed="2"]');
  await result.waitFor();
  expect(
    await result.locator('[data-testid="workbench-flow-result"][data-via="browser"]').count(),
  ).toBe(2);
  // Sent by the page itself (its origin on every request), step 2 with step 1's token.
  const sent = open.seen.filter((s) => s.method !== 'OPTIONS');
  expect(sent.map((s) => [s.method, s.path, s.origin])).toEqual([
    ['POST', '/login', suite.server.url],
    ['GET', '/me', suite.server.url],
  ]);
  expect(sent[1].authorization).toMatch(/^Bearer open-token-\d+$/);
});
