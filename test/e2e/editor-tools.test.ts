/**
 * The editor's document tools in Chromium as an item editor (issue "Web: editing", part B): JSON
 * to table (and its 'Json parse failed' alert), beautify JSON (valid and not), paste-insert table,
 * SQL to Markdown table through the server, the history dialog (list, remark edited in place and
 * stored, restore into the editor, compare in a new window), and the diff screen opened by its
 * address. No test may leave a console error behind, in any window.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { sqlToMarkdownTable } from '../../models/pages/sqlTable';
import { makePage, updatePage } from '../helpers/pages';
import type { TestUser } from '../helpers/users';
import { editedItem, editorText, openEditor } from './editorHelpers';
import { browserSuite, openPage, screenshot } from './helpers';
import { eventually, loginAs } from './readerFixture';

let owner: TestUser, editor: TestUser, itemId: number;

const suite = browserSuite({
  setup: async () => {
    ({ owner, editor, itemId } = await editedItem('Tools'));
  },
});

/** The editor on a fresh page (no lock or draft left by another test), as the item editor. */
async function editFreshPage(content = '# Tools'): Promise<Page> {
  const made = await makePage(owner, itemId, { content });
  const page = await openEditor(suite, editor, itemId, made.page_id);
  await page.locator('[data-testid="editor-screen"][data-phase="editing"]').waitFor();
  return page;
}

/** Opens a text tool, enters `input` and presses Insert. */
async function runTool(page: Page, tool: string, input: string): Promise<void> {
  await page.getByTestId(`tool-${tool}`).click();
  await page.getByTestId(`${tool}-input`).fill(input);
  await page.getByTestId(`${tool}-ok`).click();
}

async function editorContains(page: Page, expected: string): Promise<void> {
  await eventually(async () => (await editorText(page)).includes(expected), true);
}

test('JSON to table inserts a parameter table; invalid JSON alerts and changes nothing', async () => {
  const page = await editFreshPage();
  await runTool(page, 'json-table', '{"error_code": 0, "data": {"uid": 7, "tags": ["a"]}}');
  await page.getByTestId('json-table-dialog').waitFor({ state: 'detached' });
  await editorContains(
    page,
    [
      '| Parameter | Type | Description |',
      '| :--- | :--- | :--- |',
      '| error_code | number | none |',
      '| data | object | none |',
      '| data.uid | number | none |',
      '| data.tags | array | none |',
    ].join('\n'),
  );
  const before = await editorText(page);

  await runTool(page, 'json-table', '{"error_code": 0,');
  const alert = page.locator('.ant-modal-confirm', { hasText: 'Json parse failed' });
  await alert.waitFor();
  await screenshot(page, 'editor-tools-json-parse-failed');
  await alert.getByRole('button', { name: 'OK' }).click();
  await alert.waitFor({ state: 'detached' });
  // The dialog keeps the text to fix; the editor is untouched.
  await expect(page.getByTestId('json-table-input').inputValue()).resolves.toBe(
    '{"error_code": 0,',
  );
  await page
    .getByRole('dialog', { name: 'JSON to table' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  expect(await editorText(page)).toBe(before);
});

test('beautify JSON inserts a pretty fenced block, or the raw text when it is not JSON', async () => {
  const page = await editFreshPage();
  await runTool(page, 'json-beautify', '{"name":"Ann","roles":["admin"]}');
  await editorContains(
    page,
    ['```json', '{', '  "name": "Ann",', '  "roles": [', '    "admin"', '  ]', '}', '```'].join(
      '\n',
    ),
  );
  await runTool(page, 'json-beautify', "{name: 'not json'}");
  await editorContains(page, "```\n{name: 'not json'}");
  await page.getByTestId('json-beautify-dialog').waitFor({ state: 'detached' });
});

test('paste-insert table turns tab-separated cells into a Markdown table', async () => {
  const page = await editFreshPage();
  await runTool(page, 'paste-table', 'Name\tAge\tCity\nAnn\t31\tParis\nBob|Jr\t\tOslo');
  await editorContains(
    page,
    [
      '| Name | Age | City |',
      '| :--- | :--- | :--- |',
      '| Ann | 31 | Paris |',
      '| Bob\\|Jr |  | Oslo |',
    ].join('\n'),
  );
});

test("SQL to Markdown table inserts the server's table for a CREATE TABLE", async () => {
  const page = await editFreshPage();
  const sql = [
    'CREATE TABLE `user` (',
    "  `uid` int(11) NOT NULL AUTO_INCREMENT COMMENT 'User id',",
    "  `username` varchar(50) NOT NULL DEFAULT '' COMMENT 'Login name',",
    '  PRIMARY KEY (`uid`)',
    ") ENGINE=InnoDB COMMENT='Users';",
  ].join('\n');
  await runTool(page, 'sql-table', sql);
  await page.getByTestId('sql-table-dialog').waitFor({ state: 'detached' });
  const expected = (await sqlToMarkdownTable(sql)).trim();
  expect(expected).toContain('| uid |');
  await editorContains(page, expected);

  // Not a CREATE TABLE: the server's message is alerted and the dialog stays open.
  const before = await editorText(page);
  await runTool(page, 'sql-table', 'SELECT 1');
  await page.locator('.ant-modal-confirm', { hasText: 'No CREATE TABLE' }).waitFor();
  await page.locator('.ant-modal-confirm').getByRole('button', { name: 'OK' }).click();
  await page
    .getByRole('dialog', { name: 'SQL to Markdown table' })
    .getByRole('button', { name: 'Cancel' })
    .click();
  expect(await editorText(page)).toBe(before);
});

test('history: versions listed, a remark edited and stored, a version restored, compared in a new window', async () => {
  const V1 = '# Plan\n\nFirst draft of the plan.';
  const V2 = '# Plan\n\nSecond draft, with budget.';
  const V3 = '# Plan\n\nFinal plan, approved.';
  const made = await makePage(owner, itemId, { title: 'Plan', content: V1 });
  await updatePage(editor, made, V2, 'Plan');
  await updatePage(editor, made, V3, 'Plan');
  const versions = await PageHistory.find({ page_id: made.page_id })
    .sort({ page_history_id: 1 })
    .lean();
  expect(versions.map((v) => v.page_content)).toEqual([V1, V2]);
  const [first, second] = versions.map((v) => v.page_history_id);

  const page = await openEditor(suite, editor, itemId, made.page_id);
  await page.locator('[data-testid="editor-screen"][data-phase="editing"]').waitFor();
  await editorContains(page, V3);
  await page.getByTestId('tool-history').click();
  const dialog = page.locator('.ant-modal', { hasText: 'Page history' });
  await dialog.locator(`tr[data-row-key="${first}"]`).waitFor();
  await expect(dialog.locator('tr.ant-table-row').count()).resolves.toBe(2);
  await expect(dialog.locator(`tr[data-row-key="${second}"]`).textContent()).resolves.toContain(
    editor.username,
  );

  // The remark, edited in place, is stored.
  const remark = dialog.getByTestId(`history-remark-${first}`);
  await remark.getByRole('button', { name: 'Edit remark' }).click();
  const input = dialog.locator(`tr[data-row-key="${first}"] textarea`);
  await input.fill('Before the budget');
  await input.press('Enter');
  await page.getByText('Remark saved').waitFor();
  await expect(dialog.getByTestId(`history-remark-${first}`).textContent()).resolves.toBe(
    'Before the budget',
  );
  await eventually(
    async () => (await PageHistory.findOne({ page_history_id: first }).lean())?.page_comments,
    'Before the budget',
  );
  await screenshot(page, 'editor-tools-history');

  // Compare opens the diff screen in a new window, logged in from the stored login.
  const [diffWindow] = await Promise.all([
    page.context().waitForEvent('page'),
    dialog.locator(`tr[data-row-key="${first}"]`).getByRole('link', { name: 'Compare' }).click(),
  ]);
  const diffErrors: string[] = [];
  diffWindow.on('console', (m) => m.type() === 'error' && diffErrors.push(m.text()));
  diffWindow.on('pageerror', (e) => diffErrors.push(e.message));
  await diffWindow.waitForURL(`${suite.server.url}/page/diff/${made.page_id}/${first}`);
  await checkDiffScreen(diffWindow, 'Plan', V3, V1);
  await expect(diffWindow.getByTestId('diff-history-label').textContent()).resolves.toContain(
    'Before the budget',
  );
  await screenshot(diffWindow, 'editor-tools-diff-window');
  await diffWindow.close();
  expect(diffErrors).toEqual([]);

  // Restore: after a confirm, the old text replaces the editor's; saving is left to the author.
  await dialog.getByTestId(`history-restore-${first}`).click();
  const confirm = page.locator('.ant-modal-confirm', { hasText: 'Restore this version?' });
  await confirm.getByRole('button', { name: 'Restore' }).click();
  await dialog.waitFor({ state: 'detached' });
  await eventually(() => editorText(page), V1);
  await page.getByText('Version restored into the editor').waitFor();
});

test('history of a page never saved is disabled; an empty history closes the dialog with a note', async () => {
  const page = await openEditor(suite, editor, itemId, 0, {
    wait: false,
  });
  await expect(page.getByTestId('tool-history').isDisabled()).resolves.toBe(true);

  const fresh = await editFreshPage('# Only one version');
  await fresh.getByTestId('tool-history').click();
  await fresh.getByText('This page has no earlier versions.').waitFor();
  await fresh.locator('.ant-modal', { hasText: 'Page history' }).waitFor({ state: 'detached' });
});

/** The diff screen shows the page title, both labels, and both texts side by side. */
async function checkDiffScreen(
  page: Page,
  title: string,
  current: string,
  history: string,
): Promise<void> {
  await page.getByTestId('diff-screen').waitFor();
  await expect(page.getByTestId('diff-title').textContent()).resolves.toContain(title);
  await expect(page.getByTestId('diff-current-label').textContent()).resolves.toContain(
    'Current newest version',
  );
  await expect(page.getByTestId('diff-history-label').textContent()).resolves.toContain(
    'History version',
  );
  const sides = page.locator('.cm-mergeView .cm-content');
  await expect(sides.count()).resolves.toBe(2);
  const text = (side: number) =>
    sides
      .nth(side)
      .evaluate((el) =>
        Array.from(el.querySelectorAll('.cm-line'), (line) => line.textContent).join('\n'),
      );
  await expect(text(0)).resolves.toBe(current);
  await expect(text(1)).resolves.toBe(history);
  // The changed lines are marked on both sides.
  await expect(page.locator('.cm-mergeView .cm-changedLine').count()).resolves.toBeGreaterThan(0);
}

test('the diff screen by its address: both versions side by side; a missing version says so', async () => {
  const made = await makePage(owner, itemId, { title: 'Notes', content: 'alpha\nbeta\ngamma' });
  await updatePage(owner, made, 'alpha\nBETA\ngamma\ndelta', 'Notes v2');
  const version = await PageHistory.findOne({ page_id: made.page_id }).lean();

  const tp = await openPage(suite.browser);
  suite.opened.push(tp);
  await loginAs(tp, editor);
  await tp.page.goto(`${suite.server.url}/page/diff/${made.page_id}/${version!.page_history_id}`);
  await checkDiffScreen(tp.page, 'Notes v2', 'alpha\nBETA\ngamma\ndelta', 'alpha\nbeta\ngamma');
  await eventually(() => tp.page.title(), 'Notes v2 - Compare versions');
  await screenshot(tp.page, 'editor-tools-diff');

  await tp.page.goto(`${suite.server.url}/page/diff/${made.page_id}/99999999`);
  await tp.page.getByTestId('diff-error').waitFor();
  await expect(tp.page.getByTestId('diff-error').textContent()).resolves.toContain(
    'History version does not exist',
  );
  await tp.page.goto(`${suite.server.url}/page/diff/${made.page_id}/abc`);
  await tp.page.getByText('This address does not name a page and a history version.').waitFor();
});
