/**
 * Suggest mode in a real Chromium (issue #41): Ada turns "Suggesting" on in the editor and types
 * an insertion and a deletion — the page's text does not change, the suggestions show in her
 * editor, and Ben, reading the page, sees them appear live; Ben accepts one and rejects the other
 * from the reader, the saved page (and every version) holds only the accepted text, and Ada's
 * editor takes the accepted text live. Then an AI agent's update_page under a default token, on
 * an item in suggest mode, appears live as a suggestion in the open editor and the reader; and a
 * read-only member of that item opens the editor to suggest only (no lock, no save, the text as it
 * was) and her suggestion reaches the page.
 */
import { expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { forgetCachedReads } from '../../models/platform';
import { addMember, makeItem } from '../helpers/factories';
import { callTool, makeAiToken } from '../helpers/mcp';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';
import { openEditor } from './editorHelpers';
import { eventually } from './readerFixture';

let ada: TestUser;
let ben: TestUser;
let cleo: TestUser;
let itemId: number;

const suite = browserSuite({
  setup: async () => {
    ben = await makeUser({ name: 'Ben Owner' });
    ada = await makeUser({ name: 'Ada Editor' });
    ({ item_id: itemId } = await makeItem(ben, { item_name: 'Suggested handbook' }));
    await addMember(itemId, ada, 1);
    cleo = await makeUser({ name: 'Cleo Reader' });
    await addMember(itemId, cleo, 0);
  },
});

const ORIGINAL = 'Alpha line.\nBeta line.\nGamma line.';
const stored = async (pageId: number) =>
  (await PageModel.findOne({ page_id: pageId }).lean())?.page_content;

test('A suggests in the editor, B sees it live in the reader, accepts one and rejects another', async () => {
  const page = await makePage(ben, itemId, { title: 'Greek letters', content: ORIGINAL });
  const reader = await suite.openAs(ben, `/${itemId}/${page.page_id}`);
  await reader.getByText('Beta line.').waitFor();

  const editor = await openEditor(suite, ada, itemId, page.page_id);
  await editor.getByTestId('suggest-switch').click();
  await editor.getByTestId('suggest-panel').waitFor();
  const content = editor.locator('[data-testid="editor-cm"] .cm-content');
  await content.click();
  // An insertion at the end of the first line …
  await editor.keyboard.press('Control+Home');
  await editor.keyboard.press('End');
  await editor.keyboard.type(' First');
  await editor.locator('.cm-suggest-ins', { hasText: ' First' }).waitFor();
  // … and a deletion of "line." on the second (Backspace five times).
  await editor.keyboard.press('ArrowDown');
  await editor.keyboard.press('End');
  for (let i = 0; i < 5; i++) await editor.keyboard.press('Backspace');
  await editor.locator('.cm-suggest-del', { hasText: 'line.' }).waitFor();
  const panelItems = editor.getByTestId('suggest-panel').getByTestId('suggestion-item');
  await eventually(() => panelItems.count(), 2);
  // Nothing reached the page itself.
  expect(await stored(page.page_id)).toBe(ORIGINAL);
  await screenshot(editor, 'suggest-editor');

  // Ben's reader shows both, live.
  const box = reader.getByTestId('reader-suggestions');
  await box.waitFor();
  const items = box.getByTestId('suggestion-item');
  await eventually(() => items.count(), 2);
  await screenshot(reader, 'suggest-reader');
  const insertion = items.filter({ hasText: 'First' });
  const deletion = items.filter({ hasNotText: 'First' });
  await insertion.getByTestId('suggestion-accept').click();
  await eventually(() => items.count(), 1);
  await deletion.getByTestId('suggestion-reject').click();
  await box.waitFor({ state: 'detached' });

  const accepted = 'Alpha line. First\nBeta line.\nGamma line.';
  await eventually(() => stored(page.page_id), accepted);
  const history = await suite.server.api
    .withToken(ben.user_token)
    .ok<Array<{ page_content: string }>>('page/history', { page_id: page.page_id });
  expect(history.length).toBeGreaterThan(0);
  for (const version of history) expect(version.page_content).toBe(ORIGINAL);
  // The reader shows the accepted text; Ada's editor took it live, and her list emptied.
  await reader.getByText('Alpha line. First').waitFor();
  await editor.locator('.cm-line', { hasText: 'Alpha line. First' }).waitFor();
  await eventually(() => panelItems.count(), 0);
  expect(await editor.locator('.cm-suggest-ins, .cm-suggest-del').count()).toBe(0);
}, 120_000);

test('an MCP write under a default token on an item in suggest mode appears live as a suggestion', async () => {
  await Item.updateOne({ item_id: itemId }, { $set: { suggest_only_readers: 1 } });
  forgetCachedReads();
  const page = await makePage(ben, itemId, { title: 'Agent target', content: ORIGINAL });
  const { token } = await makeAiToken(suite.server, ada, { name: 'docs-bot' });
  const editor = await openEditor(suite, ben, itemId, page.page_id);
  const reader = await suite.openAs(ada, `/${itemId}/${page.page_id}`);
  await reader.getByText('Gamma line.').waitFor();

  const answer = await callTool(suite.server, token, 'update_page', {
    page_id: page.page_id,
    page_content: ORIGINAL.replace('Gamma line.', 'Gamma line, reviewed.'),
  });
  expect(answer.data).toMatchObject({ suggested: true });
  expect(await stored(page.page_id)).toBe(ORIGINAL);

  // Live in the editor: highlighted in the text and listed with the agent's name …
  await editor.locator('.cm-suggest-ins', { hasText: ', reviewed' }).waitFor();
  const listed = editor.getByTestId('suggest-panel').getByTestId('suggestion-item');
  await listed.first().waitFor();
  expect(await listed.first().textContent()).toContain("via token 'docs-bot'");
  // … and in the reader.
  await reader.getByTestId('reader-suggestions').getByTestId('suggestion-item').first().waitFor();
  await screenshot(editor, 'suggest-agent');
}, 90_000);

test('a read-only member of an item in suggest mode opens the editor to suggest only', async () => {
  await Item.updateOne({ item_id: itemId }, { $set: { suggest_only_readers: 1 } });
  forgetCachedReads();
  const page = await makePage(ben, itemId, { title: 'Open to suggestions', content: ORIGINAL });
  const editor = await openEditor(suite, cleo, itemId, page.page_id);
  const toggle = editor.getByTestId('suggest-switch');
  await toggle.waitFor();
  // Always on, and nothing to save or lock.
  expect(await toggle.getAttribute('aria-checked')).toBe('true');
  expect(await toggle.isDisabled()).toBe(true);
  expect(await editor.getByTestId('editor-save').isDisabled()).toBe(true);
  await editor.locator('[data-testid="editor-cm"] .cm-content').click();
  await editor.keyboard.press('Control+End');
  await editor.keyboard.type(' Proposed.');
  const listed = editor.getByTestId('suggest-panel').getByTestId('suggestion-item');
  await listed.first().waitFor();
  expect(await listed.first().textContent()).toContain('Proposed.');
  // No review buttons for her, the page's text unchanged, and nobody holds its lock.
  expect(await editor.getByTestId('suggestion-accept').count()).toBe(0);
  expect(await stored(page.page_id)).toBe(ORIGINAL);
  const lock = await suite.server.api
    .withToken(ben.user_token)
    .ok<{ lock: number | string }>('page/isLock', { page_id: page.page_id, item_id: itemId });
  expect(Number(lock.lock)).toBe(0);
  await screenshot(editor, 'suggest-read-only-member');
}, 90_000);
