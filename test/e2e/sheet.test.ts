/**
 * The spreadsheet item (type 4) in real browsers: one member edits and saves cells while another
 * sees them arrive live and is told who holds the lock when trying to edit; a closed tab releases
 * the lock; a killed browser's unsaved cells come back as the local draft; an .xlsx made here with
 * exceljs is imported and saved; the export downloads showdoc.xlsx with the sheet's cells.
 */
import { expect, test } from '@jest/globals';
import ExcelJS from 'exceljs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { unescapeFromClient } from '../../models/pages/pageContent';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeUser, type TestUser } from '../helpers/users';
import { savePage } from '../../models/pages';
import { BROWSER_UA } from '../helpers/client';
import { browserSuite, openPage, screenshot, type TestPage } from './helpers';
import { eventually, loginAs } from './readerFixture';

let owner: TestUser;
let editor: TestUser;

const suite = browserSuite({
  setup: async () => {
    owner = await makeUser();
    editor = await makeUser();
  },
});

/** A fresh spreadsheet item with the editor as a member; its page id. */
async function sheetItem(name: string): Promise<{ itemId: number; pageId: number }> {
  const { item_id: itemId } = await makeItem(owner, { item_name: name, item_type: 4 });
  await addMember(itemId, editor, 1);
  const page = await PageModel.findOne({ item_id: itemId, is_del: 0 }).lean();
  return { itemId, pageId: page!.page_id };
}

const lockHolder = async (pageId: number) => {
  const row = await PageLock.findOne({ page_id: pageId }).lean();
  return row && row.lock_to > Date.now() / 1000 ? row.lock_uid : 0;
};

/** The stored workbook's cell texts: sheet name → "r:c" → text. */
async function storedCells(pageId: number): Promise<Record<string, Record<string, string>>> {
  const page = await PageModel.findOne({ page_id: pageId }).lean();
  const content = page?.page_content ?? '';
  if (!content) return {};
  const sheets = JSON.parse(content) as Array<{
    name: string;
    rows: Record<string, { cells?: Record<string, { text?: string }> }>;
  }>;
  return Object.fromEntries(
    sheets.map((sheet) => {
      const cells: Record<string, string> = {};
      for (const [r, row] of Object.entries(sheet.rows ?? {}))
        for (const [c, cell] of Object.entries(row?.cells ?? {}))
          if (cell.text) cells[`${r}:${c}`] = cell.text;
      return [sheet.name, cells];
    }),
  );
}

async function openSheet(
  user: TestUser,
  itemId: number,
  options: { ignore?: RegExp[]; storage?: string; clock?: boolean } = {},
): Promise<{ tp: TestPage; page: Page }> {
  let tp: TestPage;
  if (options.storage) {
    const context = await suite.browser.newContext({
      userAgent: BROWSER_UA,
      locale: 'en-US',
      viewport: { width: 1280, height: 860 },
      storageState: options.storage,
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    tp = { context, page, errors, close: () => context.close() };
  } else tp = await openPage(suite.browser, { ignore: options.ignore });
  suite.opened.push(tp);
  await loginAs(tp, user);
  // Timers must be the fake clock's from the start, so the 30 s draft timer can be run forward.
  if (options.clock) await tp.page.clock.install();
  await tp.page.goto(`${suite.server.url}/${itemId}`);
  await tp.page.locator('[data-testid="sheet-grid"] .ht_master tbody tr').first().waitFor();
  return { tp, page: tp.page };
}

const cell = (page: Page, row: number, col: number) =>
  page.locator('[data-testid="sheet-grid"] .ht_master tbody tr').nth(row).locator('td').nth(col);

const cellText = async (page: Page, row: number, col: number) =>
  ((await cell(page, row, col).textContent()) ?? '').trim();

/** Selects a cell and types into it as a user does (typing opens the editor; Enter commits). */
async function typeInto(page: Page, row: number, col: number, text: string): Promise<void> {
  await cell(page, row, col).click();
  await page.keyboard.type(text);
  await page.keyboard.press('Enter');
}

test('one member edits and saves, the other sees each cell live and is told who holds the lock; closing the tab releases it', async () => {
  const { itemId, pageId } = await sheetItem('Live sheet');
  const { page: first } = await openSheet(owner, itemId);
  await first.getByTestId('sheet-editing').waitFor();
  await eventually(() => lockHolder(pageId), owner.uid);
  // Spec 002 §9: rows of 25 px, the view as high as the window minus 90.
  const rowBox = await cell(first, 1, 0).boundingBox();
  expect(Math.round(rowBox!.height)).toBe(25);
  const view = await first
    .locator('[data-testid="sheet-grid"] .handsontable')
    .first()
    .boundingBox();
  expect(Math.round(view!.height)).toBe(860 - 90);
  // Edited in place: no way into the Markdown editor, which does not take spreadsheets.
  await expect(first.getByTestId('edit-page').count()).resolves.toBe(0);

  const { page: second } = await openSheet(editor, itemId);
  const alert = `The current page is being locked and edited by other members, editor: ${owner.username}`;
  await second.getByText(alert).first().waitFor();
  await second.getByTestId('sheet-lock-holder').getByText(`${owner.username} is editing`).waitFor();

  await typeInto(first, 0, 0, 'Hello');
  await typeInto(first, 1, 2, '42');
  await eventually(async () => (await storedCells(pageId)).sheet1, { '0:0': 'Hello', '1:2': '42' });
  await eventually(() => cellText(second, 0, 0), 'Hello');
  await eventually(() => cellText(second, 1, 2), '42');
  await first.getByText('Do not remind again').click();
  expect(await first.evaluate(() => localStorage.getItem('table_item_auto_save_tips'))).toBe('1');

  // The second member tries to edit: refused, told who holds the lock, nothing saved.
  await second.getByText(alert).first().waitFor({ state: 'detached' });
  await cell(second, 0, 0).dblclick();
  await second.getByText(alert).first().waitFor();
  await second.keyboard.type('Nope');
  await second.keyboard.press('Enter');
  expect(await cellText(second, 0, 0)).toBe('Hello');
  expect((await storedCells(pageId)).sheet1['0:0']).toBe('Hello');
  await screenshot(second, 'sheet-live-viewer');

  // Ctrl+S saves at once too.
  await cell(first, 2, 0).click();
  await first.keyboard.type('Third');
  await first.keyboard.press('Tab');
  await first.keyboard.press('Control+s');
  await eventually(async () => (await storedCells(pageId)).sheet1['2:0'], 'Third');
  await eventually(() => cellText(second, 2, 0), 'Third');

  await first.close({ runBeforeUnload: true });
  await eventually(() => lockHolder(pageId), 0);
});

test('a killed browser: the unsaved cells are kept as the local draft and offered back', async () => {
  const { itemId, pageId } = await sheetItem('Draft sheet');
  const { tp, page } = await openSheet(editor, itemId, {
    ignore: [/Failed to load resource/],
    clock: true,
  });
  await page.getByTestId('sheet-editing').waitFor();
  await eventually(() => lockHolder(pageId), editor.uid);
  // The network goes away: saves fail, the cells stay only in this browser.
  await page.route('**/api/page/save', (route) => route.abort());
  await typeInto(page, 0, 0, 'Unsaved');
  await page.locator('.ant-modal').first().waitFor(); // the failed save's alert
  await page.clock.runFor(31_000);
  await eventually(
    () => page.evaluate((key) => localStorage.getItem(key) !== null, `quire.sheet.draft.${pageId}`),
    true,
  );
  const storage = path.join(os.tmpdir(), `quire-sheet-${process.pid}-${pageId}.json`);
  await tp.context.storageState({ path: storage });
  await tp.context.close(); // killed: no unload, no beacon

  const again = await openSheet(editor, itemId, { storage });
  await again.page.getByTestId('sheet-editing').waitFor();
  fs.rmSync(storage, { force: true });
  await again.page.locator('.ant-modal-confirm-title', { hasText: 'Restore the draft?' }).waitFor();
  await again.page.getByRole('button', { name: 'Restore' }).click();
  await eventually(() => cellText(again.page, 0, 0), 'Unsaved');
  expect(
    await again.page.evaluate((key) => localStorage.getItem(key), `quire.sheet.draft.${pageId}`),
  ).toBeNull();
  // The next edit saves the restored cells with it.
  await typeInto(again.page, 0, 1, 'Then saved');
  await eventually(async () => (await storedCells(pageId)).sheet1, {
    '0:0': 'Unsaved',
    '0:1': 'Then saved',
  });
});

test('a save by someone else never silently overwrites cells edited here and not saved yet', async () => {
  const { itemId, pageId } = await sheetItem('Conflict sheet');
  const { page } = await openSheet(editor, itemId, { ignore: [/Failed to load resource/] });
  await page.getByTestId('sheet-editing').waitFor();
  await page.route('**/api/page/save', (route) => route.abort());
  await typeInto(page, 0, 0, 'Mine');
  await page.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();

  // Another client (an API script, which takes no lock) saves the same cell and another one.
  const workbook = JSON.stringify([
    { name: 'sheet1', rows: { 0: { cells: { 0: { text: 'Theirs' }, 1: { text: 'Other' } } } } },
  ]);
  await savePage(
    await actorOf(owner),
    { pageId, itemId, title: 'Conflict sheet', content: workbook },
    { origin: 'rest' },
  );
  await eventually(() => cellText(page, 0, 1), 'Other');
  const conflict = page.getByTestId('sheet-conflict');
  await conflict.getByText('Someone saved 1 cell(s) that you have also changed').waitFor();
  expect(await cellText(page, 0, 0)).toBe('Mine');
  await conflict.getByRole('button', { name: 'Take theirs' }).click();
  await eventually(() => cellText(page, 0, 0), 'Theirs');
  await expect(conflict.count()).resolves.toBe(0);
});

test('import of an .xlsx fills the sheets and saves; export downloads showdoc.xlsx with the same cells', async () => {
  const { itemId, pageId } = await sheetItem('Excel sheet');
  const workbook = new ExcelJS.Workbook();
  const prices = workbook.addWorksheet('Prices');
  prices.getCell('A1').value = 'Plan';
  prices.getCell('B1').value = 'Price';
  prices.getCell('A2').value = 'Basic';
  prices.getCell('B2').value = 10;
  prices.getCell('A3').value = 'Total';
  prices.getCell('B3').value = { formula: 'SUM(B2:B2)', result: 10 };
  prices.getCell('A5').value = 'Merged title';
  prices.mergeCells('A5:C5');
  workbook.addWorksheet('Notes').getCell('A1').value = 'Second sheet';
  const file = path.join(os.tmpdir(), `quire-import-${process.pid}.xlsx`);
  await workbook.xlsx.writeFile(file);

  const { page } = await openSheet(owner, itemId);
  await page.getByTestId('sheet-editing').waitFor();
  await eventually(() => lockHolder(pageId), owner.uid);
  // The browser reads the chosen file later: it stays until the import was saved.
  await page.getByTestId('sheet-import-file').setInputFiles(file);
  await eventually(async () => await storedCells(pageId), {
    Prices: {
      '0:0': 'Plan',
      '0:1': 'Price',
      '1:0': 'Basic',
      '1:1': '10',
      '2:0': 'Total',
      '2:1': '10',
      '4:0': 'Merged title',
    },
    Notes: { '0:0': 'Second sheet' },
  });
  fs.rmSync(file, { force: true });
  const stored = JSON.parse(
    unescapeFromClient((await PageModel.findOne({ page_id: pageId }).lean())!.page_content),
  ) as Array<{ merges: string[] }>;
  expect(stored[0].merges).toEqual(['A5:C5']);
  await expect(page.getByRole('tab').allTextContents()).resolves.toEqual(['Prices', 'Notes']);
  expect(await cellText(page, 1, 0)).toBe('Basic');
  await screenshot(page, 'sheet-imported');

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export Excel' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('showdoc.xlsx');
  const saved = path.join(os.tmpdir(), `quire-export-${process.pid}.xlsx`);
  await download.saveAs(saved);
  const exported = new ExcelJS.Workbook();
  await exported.xlsx.readFile(saved);
  fs.rmSync(saved, { force: true });
  expect(exported.worksheets.map((w) => w.name)).toEqual(['Prices', 'Notes']);
  const sheet = exported.getWorksheet('Prices')!;
  const texts = ['A1', 'B1', 'A2', 'B2', 'A3', 'B3', 'A5'].map((a) =>
    String(sheet.getCell(a).value),
  );
  expect(texts).toEqual(['Plan', 'Price', 'Basic', '10', 'Total', '10', 'Merged title']);
  expect(sheet.getCell('C5').isMerged).toBe(true);
  expect(String(exported.getWorksheet('Notes')!.getCell('A1').value)).toBe('Second sheet');
});
