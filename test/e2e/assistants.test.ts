/**
 * The editor's assistants in a real browser, in Chinese (the language that offers them, spec 001
 * §2): the AI dialog streams a local OpenAI-compatible stub's answer into its output area and
 * inserts it at the cursor; the HTTP test tool sends the request the page documents to a local
 * server — from the browser when the server allows CORS, else through the server relay (here
 * allowed to reach 127.0.0.1 by HTTP_RELAY_ALLOW_HOSTS) — and shows status and formatted body;
 * the relay's refusal of the cloud metadata address, of a private one and of a redirect to one
 * is shown as such.
 */
import { afterAll, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { setSettings } from '../../models/settings/settings';
import {
  type AiStub,
  type HttpTarget,
  startAiStub,
  startHttpTarget,
} from '../helpers/assistantServers';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { editorReady, editorText, openEditor } from './editorHelpers';
import { browserSuite, screenshot } from './helpers';

let owner: TestUser;
let itemId: number;
let stub: AiStub;
let target: HttpTarget;

const suite = browserSuite({
  env: { HTTP_RELAY_ALLOW_HOSTS: '127.0.0.1' },
  setup: async () => {
    owner = await makeUser({ name: 'Ada Assist' });
    itemId = (await makeItem(owner, { item_name: 'Assistants' })).item_id;
    [stub, target] = await Promise.all([startAiStub(), startHttpTarget()]);
    await setSettings({ open_ai_key: 'sk-e2e-secret', open_ai_host: stub.url });
  },
});

afterAll(async () => {
  await stub?.close();
  await target?.close();
});

// A target without CORS is first tried from the browser, which reports the refusal in the console.
const CORS_NOISE = [/CORS policy/, /Failed to load resource/, /net::ERR_FAILED/];

async function editInChinese(pageId: number): Promise<Page> {
  const page = await openEditor(suite, owner, itemId, pageId, { wait: false, ignore: CORS_NOISE });
  await page.evaluate(() => localStorage.setItem('help_lang', 'zh_cn'));
  await page.reload();
  await editorReady(page);
  return page;
}

test('the AI dialog streams the answer and inserts it at the cursor', async () => {
  const made = await makePage(owner, itemId, { content: '# 接口文档\n' });
  const page = await editInChinese(made.page_id);
  stub.answer({ pieces: ['## 登录接口', '\n\n- 请求方式：POST'] });

  await page.locator('[data-testid="editor-tool-ai"]').click();
  const dialog = page.locator('[data-testid="ai-dialog"]');
  await dialog.locator('[data-testid="ai-input"]').fill('写一个登录接口的文档');
  await page.locator('[data-testid="ai-generate"]').click();
  // The answer is complete when the stream has ended (the dialog is no longer running).
  await page.waitForFunction(
    (expected) =>
      document.querySelector('[data-testid="ai-dialog"]')?.getAttribute('data-running') ===
        'false' &&
      (document.querySelector('[data-testid="ai-output"]') as HTMLTextAreaElement | null)?.value ===
        expected,
    '## 登录接口\n\n- 请求方式：POST',
  );
  expect(await dialog.locator('[data-testid="ai-output"]').inputValue()).toBe(
    '## 登录接口\n\n- 请求方式：POST',
  );
  expect(stub.requests[stub.requests.length - 1].body.messages[1].content).toBe(
    '写一个登录接口的文档',
  );
  await screenshot(page, 'assistants-ai-dialog');

  await page.locator('[data-testid="ai-insert"]').click();
  await dialog.waitFor({ state: 'detached' });
  const text = await editorText(page);
  expect(text).toContain('## 登录接口');
  expect(text).toContain('- 请求方式：POST');
  expect(text).toContain('# 接口文档');
});

test('HTTP test: a CORS-enabled server is called from the browser and its answer shown', async () => {
  const doc = {
    info: { url: `${target.url}/cors/echo?page=2`, method: 'get', title: '回显' },
    request: {
      headers: [{ name: 'X-Trace', value: 'e2e', disable: '0' }],
      query: [{ name: 'q', value: '中文' }],
    },
  };
  const made = await makePage(owner, itemId, { content: JSON.stringify(doc) });
  const page = await editInChinese(made.page_id);
  await page.locator('[data-testid="editor-tool-http"]').click();
  const dialog = page.locator('[data-testid="http-test-dialog"]');
  expect(await dialog.locator('[data-testid="http-test-url"]').inputValue()).toBe(
    `${target.url}/cors/echo`,
  );
  await dialog.locator('[data-testid="http-test-send"]').click();
  const answer = dialog.locator('[data-testid="http-test-answer"]');
  await answer.waitFor();
  expect(await answer.getAttribute('data-via')).toBe('browser');
  expect(await dialog.locator('[data-testid="http-test-status"]').innerText()).toContain('201');
  await dialog.getByText('由浏览器直接发送').waitFor();
  const body = await dialog.locator('[data-testid="http-test-body"]').innerText();
  // Pretty-printed JSON: the query as sent, the header as sent.
  expect(body).toContain('"q": "中文"');
  expect(body).toContain('"page": "2"');
  expect(body).toContain('"x-trace": "e2e"');
  await screenshot(page, 'assistants-http-test');
});

test('HTTP test: a server without CORS answers through the relay; a form POST goes only there', async () => {
  const made = await makePage(owner, itemId, {
    content: `##### 请求URL\n\n- \` ${target.url}/echo \`\n\n##### 请求方式\n\n- POST\n\n##### 参数\n\n|参数名|必选|类型|说明|\n|:---|:---|:---|:---|\n|username|是|string|用户名|\n`,
  });
  const page = await editInChinese(made.page_id);
  await page.locator('[data-testid="editor-tool-http"]').click();
  const dialog = page.locator('[data-testid="http-test-dialog"]');
  await dialog.getByRole('tab', { name: '请求体' }).click();
  await dialog.locator('[data-testid="http-test-form"] input[aria-label="参数值"]').fill('ann');
  const seen = target.seen.length;
  await dialog.locator('[data-testid="http-test-send"]').click();
  const answer = dialog.locator('[data-testid="http-test-answer"]');
  await answer.waitFor();
  expect(await answer.getAttribute('data-via')).toBe('relay');
  await dialog.getByText('经服务器中转发送').waitFor();
  expect(await dialog.locator('[data-testid="http-test-body"]').innerText()).toContain(
    '"body": "username=ann"',
  );
  // Sent once: the browser did not try it first.
  expect(target.seen.length).toBe(seen + 1);

  // A GET the browser may send but not read is sent again through the relay.
  await dialog.locator('[data-testid="http-test-method"]').click();
  await page.locator('.ant-select-item-option[title="GET"]').click();
  await dialog.locator('[data-testid="http-test-url"]').fill(`${target.url}/echo?from=get`);
  await dialog.locator('[data-testid="http-test-send"]').click();
  await dialog
    .locator('[data-testid="http-test-answer"][data-via="relay"]', { hasText: '"from": "get"' })
    .waitFor();
});

test('HTTP test: the relay refuses cloud metadata, private addresses and redirects to them', async () => {
  const made = await makePage(owner, itemId, { content: '# 空白\n' });
  const page = await editInChinese(made.page_id);
  await page.locator('[data-testid="editor-tool-http"]').click();
  const dialog = page.locator('[data-testid="http-test-dialog"]');
  const problem = dialog.locator('[data-testid="http-test-problem"]');

  // A form POST goes straight to the relay.
  await dialog.locator('[data-testid="http-test-method"]').click();
  await page.locator('.ant-select-item-option[title="POST"]').click();
  await dialog.getByRole('tab', { name: '请求体' }).click();
  await dialog.locator('[data-testid="http-test-form-add"]').click();
  await dialog.locator('[data-testid="http-test-form"] input[aria-label="参数名"]').fill('a');

  for (const [url, why] of [
    ['http://169.254.169.254/latest/meta-data/', 'link-local'],
    ['http://192.168.10.20/', 'private network'],
    [`${target.url}/redirect?to=${encodeURIComponent('http://10.0.0.1/admin')}`, '10.0.0.1'],
  ]) {
    await dialog.locator('[data-testid="http-test-url"]').fill(url);
    await dialog.locator('[data-testid="http-test-send"]').click();
    await problem.filter({ hasText: why }).waitFor();
    const text = await problem.innerText();
    expect(text).toContain('服务器中转拒绝了该请求');
    expect(text).toContain('The relay does not connect to');
  }
  await screenshot(page, 'assistants-http-refused');

  await dialog.locator('[data-testid="http-test-url"]').fill('xx.com/api');
  await dialog.locator('[data-testid="http-test-send"]').click();
  await problem.filter({ hasText: '请输入以 http:// 或 https:// 开头的地址' }).waitFor();
});
