/**
 * Data in and out in the browser: a manager imports a Markdown zip into an item from the reader's
 * import dialog and sees the progress bar filled by the server's pushes, the new pages in the
 * menu; then exports Word and Markdown from the export dialog with one catalog chosen, and the
 * downloaded files hold that catalog only; a refused OpenAPI export is explained in the dialog.
 * The same dialog offers PDF beside Word, for one page too.
 */
import { expect, test } from '@jest/globals';
import { readFile } from 'node:fs/promises';
import { strFromU8, strToU8, unzipSync, zipSync } from 'fflate';
import type { Page } from 'playwright-core';
import { makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { readPdf } from '../helpers/pdfReader';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';

const suite = browserSuite();

const loggedIn = (user: TestUser, path: string) => suite.openAs(user, path);

/** Opens an entry of the reader's manager menu (retrying a click swallowed by its animation). */
async function manage(page: Page, entry: string, dialogTitle: string) {
  const dialog = page.locator('.ant-modal', { hasText: dialogTitle });
  for (let attempt = 0; ; attempt++) {
    await page.getByTestId('manage-menu').click();
    await page.getByRole('menuitem', { name: entry }).click();
    try {
      await dialog.waitFor({ timeout: 10_000 });
      return dialog;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

async function downloaded(page: Page, click: () => Promise<void>): Promise<Uint8Array> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  return new Uint8Array(await readFile((await download.path())!));
}

test('a manager imports a Markdown zip with a progress bar, then exports one catalog as Word and Markdown', async () => {
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner, { item_name: 'Handbook' });
  const api = await makeCatalog(owner, itemId, 'API');
  await makePage(owner, itemId, { title: 'Welcome', content: '# Welcome' });
  await makePage(owner, itemId, { title: 'Endpoints', catId: api, content: 'endpoint list' });
  const page = await loggedIn(owner, `/${itemId}`);

  // Import: 30 pages in two folders.
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < 30; i++)
    files[`Guide/${i < 15 ? 'Basics' : 'Advanced'}/Lesson ${String(i).padStart(2, '0')}.md`] =
      strToU8(`# Lesson ${i}\n\nText of lesson ${i}.`);
  const dialog = await manage(page, 'Import', 'Import into this item');
  await dialog.locator('input[type=file]').setInputFiles({
    name: 'guide.zip',
    mimeType: 'application/zip',
    buffer: Buffer.from(zipSync(files)),
  });
  await dialog.getByText('Imported 30 pages into this item.').waitFor();
  await dialog.locator('[data-testid="import-progress"][data-percent="100"]').waitFor();
  await dialog.getByText('Imported 30 of 30 pages').waitFor();
  await screenshot(page, 'import-progress');
  await dialog.getByRole('button', { name: 'Close' }).click();
  // The menu shows the imported catalog.
  await page.getByText('Guide', { exact: true }).first().waitFor();

  // Export with one catalog chosen.
  const exporter = await manage(page, 'Export', 'Export');
  await exporter.getByText('One catalog').click();
  await exporter.getByTestId('export-catalog').click();
  await page.locator('.ant-select-tree-title', { hasText: /^Guide$/ }).click();
  const word = await downloaded(page, () => exporter.getByRole('button', { name: 'Word' }).click());
  const docx = unzipSync(word);
  const xml = strFromU8(docx['word/document.xml']);
  expect(xml).toContain('1、Guide');
  expect(xml).toContain('Lesson 00');
  expect(xml).not.toContain('Endpoints');
  expect(xml).not.toContain('Welcome');

  const markdown = await downloaded(page, () =>
    exporter.getByRole('button', { name: 'Markdown' }).click(),
  );
  const zip = unzipSync(markdown);
  const names = Object.keys(zip);
  expect(names).toContain('info.json');
  expect(names).toContain('Guide/Basics/Lesson 00.md');
  expect(names.filter((n) => n.endsWith('.md'))).toHaveLength(30);
  expect(strFromU8(zip['Guide/Advanced/Lesson 29.md'])).toBe('# Lesson 29\n\nText of lesson 29.');
  // A refusal is shown in the dialog, not as a raw envelope: these pages are no API documents.
  await exporter.getByRole('button', { name: 'OpenAPI' }).click();
  await exporter.getByText('This item has no API document page to describe').waitFor();
  await screenshot(page, 'export-catalog');
});

test('the export dialog offers PDF beside Word, and prints one chosen page', async () => {
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner, { item_name: 'Printable' });
  const guide = await makeCatalog(owner, itemId, 'Guide');
  await makePage(owner, itemId, { title: 'Setup', catId: guide, content: '# 安装\n\nSetup text' });
  await makePage(owner, itemId, { title: 'Usage', catId: guide, content: 'Usage text' });
  const page = await loggedIn(owner, `/${itemId}`);

  const exporter = await manage(page, 'Export', 'Export');
  const buttons = await exporter.getByRole('button').allInnerTexts();
  const formats = buttons.map((text) => text.trim()).filter((t) => ['Word', 'PDF'].includes(t));
  expect(formats).toEqual(['Word', 'PDF']);
  await exporter.getByText('One catalog').click();
  await exporter.getByTestId('export-catalog').click();
  await page.locator('.ant-select-tree-title', { hasText: /^Guide$/ }).click();
  await exporter.getByRole('combobox', { name: 'Page' }).click();
  await page.locator('.ant-select-item-option', { hasText: /^Usage$/ }).click();
  const bytes = await downloaded(page, () => exporter.getByRole('button', { name: 'PDF' }).click());
  expect(Buffer.from(bytes.subarray(0, 5)).toString()).toBe('%PDF-');
  const pdf = await readPdf(bytes);
  // The cover and the chosen page only.
  expect(pdf.pages).toHaveLength(2);
  expect(pdf.pages[0]).toContain('Printable');
  expect(pdf.pages[1]).toContain('Usage text');
  expect(pdf.pages.join('\n')).not.toContain('Setup text');
});
