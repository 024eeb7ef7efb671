/**
 * The editor's Mock dialog in a real browser (spec 001 §5, reference pages §7), in Chinese (the
 * only language that offers it): the template starts from the page's ```json example, saving
 * closes the dialog, reopening shows the mock URLs, and the shown path URL — fetched from here
 * like any API client would — answers the Mock.js expansion. A regex path comes back without its
 * `~`, with the checkbox ticked. (A page not saved yet gets the "save first" alert: covered in
 * editor-assets.test.ts.)
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { Mock } from '../../models/mocks/schemas/mock';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { openEditor } from './editorHelpers';
import { browserSuite, screenshot } from './helpers';

let owner: TestUser;
let itemId: number;

const suite = browserSuite({
  setup: async () => {
    owner = await makeUser({ name: 'Mia Mock' });
    itemId = (await makeItem(owner, { item_name: 'Mock API' })).item_id;
  },
});

async function editInChinese(pageId: number): Promise<Page> {
  const page = await openEditor(suite, owner, itemId, pageId, { wait: false });
  await page.evaluate(() => localStorage.setItem('help_lang', 'zh_cn'));
  await page.reload();
  await page.locator('[data-testid="editor-screen"][data-ready="true"]').waitFor();
  return page;
}

async function openMockDialog(page: Page) {
  await page.locator('[data-testid="editor-tool-mock"]').click();
  const dialog = page.locator('[data-testid="mock-dialog"]');
  await dialog.locator('[data-testid="mock-template"]').waitFor();
  return dialog;
}

test('save a mock for a saved page; its URL answers the expanded JSON', async () => {
  const made = await makePage(owner, itemId, {
    content: '# 用户\n\n返回示例：\n\n```json\n{"id|1-10": 1, "name": "@name"}\n```\n',
  });
  const page = await editInChinese(made.page_id);

  let dialog = await openMockDialog(page);
  // Prefilled from the page's JSON example; no URLs before the first save.
  expect(await dialog.locator('[data-testid="mock-template"]').inputValue()).toBe(
    '{"id|1-10": 1, "name": "@name"}',
  );
  await dialog.getByText('保存后即可获得 Mock 地址').waitFor();
  await dialog.locator('[data-testid="mock-path"]').fill('/users/info');
  await page.locator('[data-testid="mock-save"]').click();
  await page.getByText('Mock 已保存').waitFor();
  await dialog.waitFor({ state: 'detached' });
  const row = await Mock.findOne({ page_id: made.page_id }).lean();
  expect(row).toMatchObject({ path: '/users/info', item_id: itemId, uid: owner.uid });

  // Reopened: the URLs, of which the path one answers the Mock.js expansion.
  dialog = await openMockDialog(page);
  const pathUrl = (await dialog.locator('[data-testid="mock-path-url"]').innerText()).trim();
  expect(pathUrl).toBe(`${suite.server.url}/server/mock-path/${itemId}?path=/users/info`);
  expect((await dialog.locator('[data-testid="mock-key-url"]').innerText()).trim()).toBe(
    `${suite.server.url}/server/mock-data/${row?.unique_key}`,
  );
  await screenshot(page, 'editor-mock-dialog');
  const response = await fetch(pathUrl);
  expect(response.status).toBe(200);
  const body = (await response.json()) as { id: number; name: string };
  expect(body.id).toBeGreaterThanOrEqual(1);
  expect(body.id).toBeLessThanOrEqual(10);
  expect(body.name).toMatch(/^[A-Z][a-z]+ [A-Z][a-z]+$/);

  // A regex path: typed without `~`, stored with it, shown without it again.
  await dialog.locator('[data-testid="mock-path"]').fill('/users/\\d+');
  await dialog.locator('[data-testid="mock-regex"]').check();
  await page.locator('[data-testid="mock-save"]').click();
  await dialog.waitFor({ state: 'detached' });
  expect((await Mock.findOne({ page_id: made.page_id }).lean())?.path).toBe('~/users/\\d+');
  const byRegex = await fetch(`${suite.server.url}/server/mock-path/${itemId}?path=/users/42`);
  expect(byRegex.status).toBe(200);
  dialog = await openMockDialog(page);
  expect(await dialog.locator('[data-testid="mock-path"]').inputValue()).toBe('/users/\\d+');
  expect(await dialog.locator('[data-testid="mock-regex"]').isChecked()).toBe(true);
});

test('a template that is not JSON is refused in the dialog, nothing is saved', async () => {
  const made = await makePage(owner, itemId, { content: '# 空\n' });
  const page = await editInChinese(made.page_id);
  const dialog = await openMockDialog(page);
  await dialog.locator('[data-testid="mock-template"]').fill('{"a": ');
  await page.locator('[data-testid="mock-save"]').click();
  await dialog.getByText('只允许 JSON 格式').waitFor();
  expect(await Mock.countDocuments({ page_id: made.page_id })).toBe(0);
});
