/**
 * The page editor in Chromium: the new-page popup and its rules, editing and saving (button and
 * Ctrl+S), a taken page ID, the preview limit, paste rules, the local-draft restore question, and
 * leaving. Two-browser locks, live drafts and co-editing are in editor-live.test.ts.
 */
import { expect, test } from '@jest/globals';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import type { TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';
import {
  editedItem,
  editorReady,
  editorText,
  openEditor,
  pasteInto,
  typeAtEnd,
} from './editorHelpers';
import { eventually } from './readerFixture';

let owner: TestUser, editor: TestUser, itemId: number;
/** Custom page IDs and item names are unique in the suite's one database: numbered per use. */
let attempt = 0;

/** A 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const suite = browserSuite({
  setup: async () => {
    ({ owner, editor, itemId } = await editedItem('Handbook'));
  },
});

test('a new page asks for its page ID and title, saves with Ctrl+S and moves to its page ID', async () => {
  const customId = `getting-started-${++attempt}`;
  const page = await openEditor(suite, editor, itemId, 0, {
    wait: false,
  });
  const popup = page.locator('.ant-modal', { hasText: 'New page' });
  await popup.waitFor();
  await popup.getByRole('button', { name: 'OK' }).click();
  await page.getByText('Please enter the article ID').waitFor();
  await page.getByTestId('page-meta-id').fill(customId);
  await popup.getByRole('button', { name: 'OK' }).click();
  await page.getByText('Please enter the article title').waitFor();
  expect(await popup.isVisible()).toBe(true);
  await page.getByTestId('page-meta-title').fill('Getting started');
  await popup.getByRole('button', { name: 'OK' }).click();
  await popup.waitFor({ state: 'hidden' });
  await editorReady(page);
  expect(await page.getByTestId('editor-title').textContent()).toContain('Getting started');

  await typeAtEnd(page, '# Getting started\n\nInstall it.');
  await page.keyboard.press('Control+s');
  await page.getByText('Saved', { exact: true }).first().waitFor();
  await page.waitForURL(`**/page/edit/${itemId}/${customId}`);
  await editorReady(page);

  const row = await PageModel.findOne({
    item_id: itemId,
    page_custom_id: customId,
  }).lean();
  expect(row?.page_title).toBe('Getting started');
  expect(row?.page_content).toBe('# Getting started\n\nInstall it.');
  // After the address change the page is the shared document, with the saved text.
  await eventually(() => editorText(page), '# Getting started\n\nInstall it.');
  await screenshot(page, 'editor-new-page');
});

test('a page ID that is already taken clears the field and says so; nothing is saved', async () => {
  const taken = `taken-${++attempt}`;
  const free = `free-${attempt}`;
  await makePage(owner, itemId, { title: 'Taken', customId: taken });
  const before = await PageModel.countDocuments({ item_id: itemId });
  const page = await openEditor(suite, editor, itemId, 0, {
    wait: false,
  });
  await page.getByTestId('page-meta-id').fill(taken);
  await page.getByTestId('page-meta-title').fill('Another');
  await page.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();
  await editorReady(page);
  await typeAtEnd(page, 'Some text');
  await page.getByTestId('editor-save').click();
  const popup = page.locator('.ant-modal', { hasText: 'New page' });
  await popup.getByText(/already exists/i).waitFor();
  expect(await page.getByTestId('page-meta-id').inputValue()).toBe('');
  expect(await PageModel.countDocuments({ item_id: itemId })).toBe(before);
  // A free ID then saves.
  await page.getByTestId('page-meta-id').fill(free);
  await popup.getByRole('button', { name: 'OK' }).click();
  await page.getByTestId('editor-save').click();
  await page.waitForURL(`**/page/edit/${itemId}/${free}`);
  expect(await PageModel.countDocuments({ item_id: itemId })).toBe(before + 1);
});

test('editing an existing page saves a new version; the state tag follows the text', async () => {
  const saved = await makePage(owner, itemId, { title: 'Release notes', content: '# Notes' });
  const page = await openEditor(suite, editor, itemId, saved.page_id);
  expect(await editorText(page)).toBe('# Notes');
  expect(await page.title()).toBe('Editing: Release notes');
  expect(await page.getByTestId('editor-state').getAttribute('data-state')).toBe('saved');
  await typeAtEnd(page, '\n\n- fixed a bug');
  await page.locator('[data-testid="editor-state"][data-state="dirty"]').waitFor();
  // The catalog chooser and the live preview show the same page.
  await page.getByTestId('editor-preview').getByText('fixed a bug').waitFor();
  // An open page is saved as a command on its live document: no text travels over REST.
  const restSaves: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('page/save')) restSaves.push(request.url());
  });
  await page.getByTestId('editor-save').click();
  await page.locator('[data-testid="editor-state"][data-state="saved"]').waitFor();
  expect(restSaves).toEqual([]);
  const row = await PageModel.findOne({ page_id: saved.page_id }).lean();
  expect(row?.page_content).toBe('# Notes\n\n- fixed a bug');
  expect(await PageHistory.countDocuments({ page_id: saved.page_id })).toBe(1);
  expect(row?.author_uid).toBe(editor.uid);
});

test('the live preview turns itself off above 4000 characters, with one warning', async () => {
  const saved = await makePage(owner, itemId, { title: 'Long', content: 'x'.repeat(3990) });
  const page = await openEditor(suite, editor, itemId, saved.page_id);
  await page.getByTestId('editor-preview').waitFor();
  await typeAtEnd(page, ' more than enough');
  await page.getByText(/live preview is off/).waitFor();
  expect(await page.getByTestId('editor-preview').count()).toBe(0);
  await page.getByTestId('editor-preview-toggle').click();
  await page.getByTestId('editor-preview').waitFor();
  await typeAtEnd(page, '!');
  // Still on: the warning is given once per page.
  expect(await page.getByTestId('editor-preview').count()).toBe(1);
});

test('paste rules: short text as is, long HTML asks Markdown or text, images are uploaded', async () => {
  const saved = await makePage(owner, itemId, { title: 'Paste', content: 'Start' });
  const page = await openEditor(suite, owner, itemId, saved.page_id);
  await pasteInto(page, { text: ' short', html: '<b>short</b>' });
  await eventually(() => editorText(page), 'Start short');

  const words = 'lorem ipsum dolor sit amet '.repeat(9).trim();
  const html = `<h2>Heading</h2><p><strong>${words}</strong></p><ul><li>one</li><li>two</li></ul>`;
  const text = `Heading\n${words}\none\ntwo`;
  await pasteInto(page, { text, html });
  await page.getByTestId('paste-as-markdown').click();
  // turndown's Markdown: ATX heading, strong, a dash list.
  await eventually(
    async () =>
      new RegExp(`## Heading\\n\\n\\*\\*${words}\\*\\*\\n\\n-\\s+one\\n-\\s+two`).test(
        await editorText(page),
      ),
    true,
  );

  await pasteInto(page, { text, html });
  await page.getByTestId('paste-as-text').click();
  await eventually(async () => (await editorText(page)).endsWith(text), true);

  await pasteInto(page, { image: { name: 'dot.png', base64: PNG } });
  const url = await eventually(
    async () =>
      /!\[dot\.png\]\(([^)]+)\)/.exec(await editorText(page))?.[1].length ? true : false,
    true,
  );
  expect(url).toBe(true);
});

test('a local draft that differs is offered back; either answer removes it', async () => {
  const saved = await makePage(owner, itemId, { title: 'Draft me', content: 'Saved text here' });
  const key = `quire.draft.${itemId}.${saved.page_id}`;
  const tpPage = await openEditor(suite, editor, itemId, saved.page_id, {
    wait: false,
  });
  await tpPage.evaluate(
    ([k, v]) => localStorage.setItem(k, v),
    [key, JSON.stringify({ content: 'Draft text from before', title: 'Draft me', at: Date.now() })],
  );
  await tpPage.reload();
  await tpPage.locator('.ant-modal-confirm-title', { hasText: 'Restore the draft?' }).waitFor();
  await tpPage.getByRole('button', { name: 'Restore' }).click();
  await eventually(() => editorText(tpPage), 'Draft text from before');
  expect(await tpPage.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  // Not saved until the user saves.
  expect((await PageModel.findOne({ page_id: saved.page_id }).lean())?.page_content).toBe(
    'Saved text here',
  );
});

test('leaving the editor releases the lock and returns to the page', async () => {
  const saved = await makePage(owner, itemId, { title: 'Leave me', content: 'Body' });
  const page = await openEditor(suite, editor, itemId, saved.page_id);
  const { PageLock } = await import('../../models/pages/schemas/pageLock');
  await eventually(
    async () =>
      ((await PageLock.findOne({ page_id: saved.page_id }).lean())?.lock_uid ?? 0) === editor.uid,
    true,
  );
  await page.getByTestId('editor-back').click();
  await page.waitForURL(`**/${itemId}/${saved.page_custom_id || saved.page_id}`);
  await eventually(async () => {
    const row = await PageLock.findOne({ page_id: saved.page_id }).lean();
    return !row || row.lock_to < Date.now() / 1000;
  }, true);
});

test('a new page is kept as a local draft every 30 s and comes back after the browser was closed', async () => {
  const tp = await openEditor(suite, editor, itemId, 0, {
    wait: false,
  });
  await tp.clock.install();
  await tp.reload();
  await tp.getByTestId('page-meta-id').fill(`drafted-${++attempt}`);
  await tp.getByTestId('page-meta-title').fill('Drafted');
  await tp.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();
  await editorReady(tp);
  await typeAtEnd(tp, 'A page that was');
  const key = `quire.draft.${itemId}.new`;
  await tp.clock.runFor(20_000);
  expect(await tp.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
  // Typing on does not restart the 30 s: the draft is written 30 s after the editor opened.
  await typeAtEnd(tp, ' never saved');
  await tp.clock.runFor(11_000);
  const stored = await tp.evaluate((k) => localStorage.getItem(k), key);
  expect(JSON.parse(stored ?? '{}')).toMatchObject({
    content: 'A page that was never saved',
    title: 'Drafted',
  });

  // The same browser profile opens a new page again: the draft is offered back.
  await tp.goto(`${suite.server.url}/page/edit/${itemId}/0`);
  await tp.getByTestId('page-meta-id').fill(`drafted-again-${attempt}`);
  await tp.getByTestId('page-meta-title').fill('Drafted again');
  await tp.locator('.ant-modal').getByRole('button', { name: 'OK' }).click();
  await tp.locator('.ant-modal-confirm-title', { hasText: 'Restore the draft?' }).waitFor();
  await tp.getByRole('button', { name: 'Restore' }).click();
  await eventually(() => editorText(tp), 'A page that was never saved');
  expect(await tp.evaluate((k) => localStorage.getItem(k), key)).toBeNull();
});

test('sort pages from the editor lists the pages beside this one, also at the top level', async () => {
  const { item_id: small } = await makeItem(owner, { item_name: `Small ${++attempt}` });
  const first = await makePage(owner, small, { title: 'First root page' });
  await makePage(owner, small, { title: 'Second root page' });
  const page = await openEditor(suite, owner, small, first.page_id);
  await page.getByTestId('tool-sort-pages').click();
  const dialog = page.getByRole('dialog', { name: 'Sort pages' });
  await eventually(
    async () => (await dialog.getByTestId('sort-page-row').allTextContents()).map((t) => t.trim()),
    ['First root page', 'Second root page'],
  );
});

test('a catalog made in the manager dialog is offered by the chooser and the page saves into it', async () => {
  const saved = await makePage(owner, itemId, { title: 'Needs a home', content: 'Body' });
  const page = await openEditor(suite, owner, itemId, saved.page_id);
  const name = `Appendix ${++attempt}`;
  await page.getByTestId('editor-manage-catalogs').click();
  const manager = page.getByRole('dialog', { name: 'Catalog manager' });
  await manager.getByTestId('catalog-add').click();
  const form = page.getByRole('dialog', { name: 'New catalog' });
  await form.getByLabel('Catalog name').fill(name);
  await form.getByRole('button', { name: 'Save' }).click();
  await form.waitFor({ state: 'detached' });
  await manager.getByText(name).waitFor();
  await manager.getByRole('button', { name: 'Close' }).click();
  await manager.waitFor({ state: 'detached' });

  const catalog = (await Catalog.findOne({ item_id: itemId, cat_name: name }).lean())!;
  await page.getByTestId('editor-catalog').click();
  await page.getByTitle(name, { exact: true }).click();
  await page.getByTestId('editor-save').click();
  await eventually(
    async () => (await PageModel.findOne({ page_id: saved.page_id }).lean())?.cat_id,
    catalog.cat_id,
  );
});
