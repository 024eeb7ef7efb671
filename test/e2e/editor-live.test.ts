/**
 * The editor with two people at once, in two real browser profiles: the lock (the second editor
 * is told who holds it, may watch live read-only, and is told at once — and gets the lock — when
 * it is released), a closed tab's lock released by its beacon, the live draft surviving a killed
 * suite.browser, and co-editing with both cursors when the item allows simultaneous editing.
 */
import { expect, test } from '@jest/globals';
import { Item } from '../../models/items/schemas/item';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { PageDraft } from '../../models/pages/schemas/pageDraft';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';
import { editorText, openEditor, typeAtEnd } from './editorHelpers';
import { eventually } from './readerFixture';
import { forgetCachedReads } from '../../models/platform';

let owner: TestUser;
let editor: TestUser;
let reader: TestUser;
let itemId: number;

const lockHolder = async (pageId: number) => {
  const row = await PageLock.findOne({ page_id: pageId }).lean();
  return row && row.lock_to > Date.now() / 1000 ? row.lock_uid : 0;
};

const suite = browserSuite({
  setup: async () => {
    owner = await makeUser({ name: 'Olive Owner' });
    editor = await makeUser({ name: 'Eddie Editor' });
    reader = await makeUser({ name: 'Rita Reader' });
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Live handbook' }));
    await addMember(itemId, editor, 1);
    await addMember(itemId, reader, 0);
  },
});

test('a locked page: the second editor is told who holds it, watches live, and gets it on release', async () => {
  const page = await makePage(owner, itemId, { title: 'Locked', content: 'Line one' });
  const first = await openEditor(suite, owner, itemId, page.page_id);
  await eventually(() => lockHolder(page.page_id), owner.uid);

  const second = await openEditor(suite, editor, itemId, page.page_id, {
    wait: false,
  });
  const alert = second.locator('.ant-modal-confirm', { hasText: 'Locking' });
  await alert.getByText(`${owner.username} is editing this page`).waitFor();
  // Leaving is the default (focused) answer; this user chooses to watch.
  await alert.getByRole('button', { name: 'Watch live (read-only)' }).click();
  await second.locator('[data-testid="editor-screen"][data-phase="watching"]').waitFor();
  await second.getByTestId('editor-watching').waitFor();
  expect(
    await second.locator('[data-testid="editor-cm"] .cm-content').getAttribute('contenteditable'),
  ).toBe('false');

  await typeAtEnd(first, ' and two');
  await eventually(() => editorText(second), 'Line one and two');
  await screenshot(second, 'editor-watching');

  await first.getByTestId('editor-back').click();
  await first.getByRole('button', { name: 'Leave', exact: true }).click(); // unsaved changes: leave anyway
  await second.getByText('The page is free').waitFor();
  await second.locator('[data-testid="editor-screen"][data-phase="editing"]').waitFor();
  await eventually(() => lockHolder(page.page_id), editor.uid);
  await typeAtEnd(second, ' and three');
  await second.getByTestId('editor-save').click();
  await second.locator('[data-testid="editor-state"][data-state="saved"]').waitFor();
  expect((await PageModel.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
    'Line one and two and three',
  );
});

test('leaving is the default answer to a foreign lock', async () => {
  const page = await makePage(owner, itemId, { title: 'Busy', content: 'Busy page' });
  await openEditor(suite, owner, itemId, page.page_id);
  await eventually(() => lockHolder(page.page_id), owner.uid);
  const second = await openEditor(suite, editor, itemId, page.page_id, {
    wait: false,
  });
  await second.locator('.ant-modal-confirm', { hasText: 'Locking' }).waitFor();
  await second.keyboard.press('Enter');
  await second.waitForURL(`**/${itemId}/${page.page_id}`);
  expect(await lockHolder(page.page_id)).toBe(owner.uid);
});

test('closing the tab releases the lock (beacon)', async () => {
  const page = await makePage(owner, itemId, { title: 'Closed tab', content: 'Body' });
  const tab = await openEditor(suite, editor, itemId, page.page_id);
  await eventually(() => lockHolder(page.page_id), editor.uid);
  await tab.close({ runBeforeUnload: true });
  await eventually(() => lockHolder(page.page_id), 0);
});

test('unsaved text survives a killed browser as the live draft, and can be dropped', async () => {
  const page = await makePage(owner, itemId, { title: 'Crash', content: 'Saved body' });
  const first = await openEditor(suite, editor, itemId, page.page_id);
  await typeAtEnd(first, ' plus unsaved words');
  // The shared document is stored (debounced) as the page's live draft.
  await eventually(
    async () => (await PageDraft.findOne({ page_id: page.page_id }).lean())?.text,
    'Saved body plus unsaved words',
  );
  await suite.opened.pop()!.context.close(); // the browser goes away without saving

  const again = await openEditor(suite, editor, itemId, page.page_id);
  await eventually(() => editorText(again), 'Saved body plus unsaved words');
  await again.getByTestId('editor-live-draft').waitFor();
  await screenshot(again, 'editor-live-draft');
  expect((await PageModel.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
    'Saved body',
  );
  await again.getByTestId('editor-live-draft-discard').click();
  await eventually(() => editorText(again), 'Saved body');
});

test('with simultaneous editing on, two editors type together and see each other’s cursor', async () => {
  const { item_id: coItem } = await makeItem(owner, { item_name: 'Co-edited' });
  await addMember(coItem, editor, 1);
  await Item.updateOne({ item_id: coItem }, { $set: { co_edit: 1 } });
  forgetCachedReads();
  const page = await makePage(owner, coItem, { title: 'Together', content: 'Start.' });

  const a = await openEditor(suite, owner, coItem, page.page_id);
  const b = await openEditor(suite, editor, coItem, page.page_id);
  // No lock dance: both edit.
  for (const p of [a, b])
    await p.locator('[data-testid="editor-screen"][data-phase="editing"]').waitFor();
  expect(await lockHolder(page.page_id)).toBe(0);

  await typeAtEnd(a, ' Alpha.');
  await eventually(() => editorText(b), 'Start. Alpha.');
  await typeAtEnd(b, ' Beta.');
  await eventually(() => editorText(a), 'Start. Alpha. Beta.');

  // Each sees the other's caret, labelled with their name, and their avatar.
  await b.locator('.cm-ySelectionInfo', { hasText: 'Olive Owner' }).waitFor({ state: 'attached' });
  await a.locator('.cm-ySelectionInfo', { hasText: 'Eddie Editor' }).waitFor({ state: 'attached' });
  await a.getByTestId('editor-coeditors').waitFor();
  await screenshot(a, 'editor-co-editing');

  await a.getByTestId('editor-save').click();
  await eventually(
    async () => (await PageModel.findOne({ page_id: page.page_id }).lean())?.page_content,
    'Start. Alpha. Beta.',
  );
});

test('a page saved by a script over REST appears live in the open editor', async () => {
  const page = await makePage(owner, itemId, { title: 'Scripted', content: 'Before the script.' });
  const tab = await openEditor(suite, editor, itemId, page.page_id);
  await tab.locator('[data-testid="editor-screen"][data-phase="editing"]').waitFor();
  await suite.server.api.withToken(owner.user_token).ok('page/save', {
    page_id: page.page_id,
    item_id: itemId,
    page_title: 'Scripted',
    page_content: 'After the script.',
  });
  await eventually(() => editorText(tab), 'After the script.');
});

test('a read-only member cannot open the editor', async () => {
  const page = await makePage(owner, itemId, { title: 'Not yours', content: 'Body' });
  const tab = await openEditor(suite, reader, itemId, page.page_id, {
    wait: false,
  });
  await tab.getByText('You cannot edit here').waitFor();
  expect(await tab.locator('[data-testid="editor-screen"]').count()).toBe(0);
  expect(await lockHolder(page.page_id)).toBe(0);
});
