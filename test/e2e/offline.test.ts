/**
 * Offline items (issue #41) in real Chromium with the network switched off: an item made available
 * offline opens and reads its pages from the service worker's cache, two pages are edited in the
 * editor on the kept documents, another member saves one of them online meanwhile, and on
 * reconnect both offline edits are saved, the concurrent one merged in, and the report names the
 * page changed online with links to the diff screen.
 */
import { expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import * as Y from 'yjs';
import { PAGE_TEXT } from '../../realtime/collabProtocol';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { ShowdocClient } from '../helpers/client';
import { addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { editorReady, editorText, typeAtEnd } from './editorHelpers';
import { browserSuite, screenshot } from './helpers';
import { eventually, loginAs } from './readerFixture';

let owner: TestUser;
let colleague: TestUser;
let itemId: number;

const suite = browserSuite({
  setup: async () => {
    owner = await makeUser({ name: 'Olive Owner' });
    colleague = await makeUser({ name: 'Eddie Editor' });
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Field guide' }));
    await addMember(itemId, colleague, 1);
  },
});

/** What the browser logs while the network is off (failed loads, sockets that cannot connect). */
const OFFLINE_NOISE = [/ERR_INTERNET_DISCONNECTED/, /Failed to load resource/, /WebSocket/i];

/**
 * The text of the page's document as this browser keeps it: y-indexeddb's `updates` store read
 * from the page, merged here with Yjs.
 */
async function keptText(page: Page, pageId: number): Promise<string> {
  const rows = await page.evaluate(async (name) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const open = indexedDB.open(name);
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
    try {
      return await new Promise<number[][]>((resolve, reject) => {
        const all = db.transaction('updates').objectStore('updates').getAll();
        all.onsuccess = () => resolve(all.result.map((row: Uint8Array) => Array.from(row)));
        all.onerror = () => reject(all.error);
      });
    } finally {
      db.close();
    }
  }, `quire-page-${pageId}`);
  const doc = new Y.Doc();
  for (const row of rows) Y.applyUpdate(doc, Uint8Array.from(row));
  const text = doc.getText(PAGE_TEXT).toString();
  doc.destroy();
  return text;
}

/** Types at the end of the open editor and waits until the browser keeps the new text. */
async function typeKept(page: Page, pageId: number, text: string): Promise<void> {
  const before = await keptText(page, pageId);
  await typeAtEnd(page, text);
  await eventually(() => keptText(page, pageId), before + text);
}

const stored = async (pageId: number) =>
  (await PageModel.findOne({ page_id: pageId }).lean())?.page_content ?? '';

test('an offline item is read and edited with no network; on reconnect both edits are saved, merged with a concurrent online edit, and reported', async () => {
  const alpha = await makePage(owner, itemId, { title: 'Alpha', content: 'Alpha line' });
  const beta = await makePage(owner, itemId, { title: 'Beta', content: 'Beta line' });
  const tp = await suite.open({ ignore: OFFLINE_NOISE });
  const { page, context } = tp;
  await loginAs(tp, owner);
  const url = suite.server.url;

  // Make the item available offline from the reader's header.
  await page.goto(`${url}/${itemId}/${alpha.page_id}`);
  await page.getByText('Alpha line', { exact: true }).first().waitFor();
  await page.getByTestId('offline-menu').click();
  await page.getByTestId('offline-make').click();
  await page
    .locator('[data-testid="offline-dialog"][data-state="ready"]')
    .waitFor({ timeout: 90_000 });
  expect(await page.evaluate(() => !!navigator.serviceWorker.controller)).toBe(true);

  await context.setOffline(true);
  expect(await page.evaluate(() => navigator.onLine)).toBe(false);

  // Reading: a fresh load of another page of the item comes from the cache.
  await page.goto(`${url}/${itemId}/${beta.page_id}`);
  await page.getByText('Beta line', { exact: true }).first().waitFor();

  // Editing two pages on their kept documents.
  await page.goto(`${url}/page/edit/${itemId}/${alpha.page_id}`);
  await editorReady(page);
  await page.locator('[data-testid="editor-state"][data-state="offline"]').waitFor();
  await typeKept(page, alpha.page_id, ' typed offline');
  await page.goto(`${url}/page/edit/${itemId}/${beta.page_id}`);
  await editorReady(page);
  await typeKept(page, beta.page_id, ' also offline');
  expect(await editorText(page)).toBe('Beta line also offline');
  await screenshot(page, 'offline-editing');

  // Nothing reached the server; meanwhile a colleague saves Alpha online.
  expect(await stored(alpha.page_id)).toBe('Alpha line');
  expect(await stored(beta.page_id)).toBe('Beta line');
  await new ShowdocClient(url, colleague.user_token).ok('page/save', {
    page_id: alpha.page_id,
    item_id: itemId,
    page_title: 'Alpha',
    page_content: 'Online first\nAlpha line',
    cat_id: 0,
  });

  // Back to the reader (still offline), then online: the edits are merged and saved, and the
  // report says what happened.
  await page.goto(`${url}/${itemId}/${alpha.page_id}`);
  await page.getByText('Alpha line', { exact: true }).first().waitFor();
  await context.setOffline(false);
  const report = page.getByTestId('offline-report');
  await report.waitFor({ timeout: 60_000 });
  await screenshot(page, 'offline-report');

  await eventually(() => stored(alpha.page_id), 'Online first\nAlpha line typed offline');
  await eventually(() => stored(beta.page_id), 'Beta line also offline');

  const alphaRow = report.locator(
    `[data-testid="offline-report-row"][data-page-id="${alpha.page_id}"]`,
  );
  const betaRow = report.locator(
    `[data-testid="offline-report-row"][data-page-id="${beta.page_id}"]`,
  );
  expect(await alphaRow.getAttribute('data-kind')).toBe('saved');
  expect(await alphaRow.getAttribute('data-changed-online')).toBe('yes');
  expect(await alphaRow.textContent()).toContain(colleague.username);
  expect(await betaRow.getAttribute('data-changed-online')).toBe('no');

  // The links compare the merged page with the version the offline edits started from, and with
  // the colleague's version.
  const history = await new ShowdocClient(url, owner.user_token).ok<
    { page_history_id: string; page_content: string }[]
  >('page/history', { page_id: alpha.page_id });
  const base = history.find((row) => row.page_content === 'Alpha line');
  const theirs = history.find((row) => row.page_content === 'Online first\nAlpha line');
  expect(base && theirs).toBeTruthy();
  expect(await alphaRow.getByTestId('offline-report-diff').getAttribute('href')).toBe(
    `/page/diff/${alpha.page_id}/${base!.page_history_id}`,
  );
  expect(await alphaRow.getByTestId('offline-report-online-diff').getAttribute('href')).toBe(
    `/page/diff/${alpha.page_id}/${theirs!.page_history_id}`,
  );
  const betaDiff = await betaRow.getByTestId('offline-report-diff').getAttribute('href');
  expect(betaDiff).toMatch(new RegExp(`^/page/diff/${beta.page_id}/\\d+$`));

  // Nothing is left waiting, and the lock taken for the save was given back.
  expect(
    await page.evaluate(() => JSON.parse(localStorage.getItem('quire.offline') ?? '{}').pending),
  ).toEqual({});
  for (const id of [alpha.page_id, beta.page_id]) {
    const lock = await PageLock.findOne({ page_id: id }).lean();
    expect(!lock || lock.lock_to < Date.now() / 1000).toBe(true);
  }
}, 240_000);
