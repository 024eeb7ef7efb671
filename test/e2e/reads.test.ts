/**
 * "What changed since I last read it" in Chromium, with two users: A reads two pages (each
 * recorded after it was on screen for a few seconds), B edits both; A then sees a dot on each in
 * the catalog tree (the catalog holding one rolls it up), the item list's "Pages changed: 2",
 * B's changed paragraph highlighted in place under "show changes", and — while A reads — the
 * live "updated by B — show changes" bar after B saves again. "Mark all as read" clears it all.
 */
import { describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { PageRead } from '../../models/readMarkers/schemas';
import { ShowdocClient } from '../helpers/client';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite } from './helpers';
import { eventually, loginAs, shot, waitForPage } from './readerFixture';

let a: TestUser;
let b: TestUser;
let itemId = 0;
let catId = 0;
let intro = 0;
let setup = 0;
let faq = 0;

const suite = browserSuite({
  setup: async () => {
    const owner = await makeUser();
    [a, b] = await Promise.all([makeUser(), makeUser()]);
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Handbook' }));
    await addMember(itemId, a, 0);
    await addMember(itemId, b, 1);
    catId = await makeCatalog(owner, itemId, 'Chapters');
    intro = (
      await makePage(owner, itemId, {
        title: 'Intro',
        content: '# Intro\n\nWelcome aboard.\n\nAsk questions early.',
      })
    ).page_id;
    setup = (
      await makePage(owner, itemId, {
        title: 'Setup',
        content: '# Setup\n\nInstall the tools.',
        catId,
      })
    ).page_id;
    faq = (await makePage(owner, itemId, { title: 'FAQ', content: '# FAQ\n\nNone yet.' })).page_id;
  },
});

const api = (user: TestUser) => new ShowdocClient(suite.server.url, user.user_token);

async function save(user: TestUser, pageId: number, title: string, content: string, cat = 0) {
  await api(user).ok('page/save', {
    page_id: pageId,
    item_id: itemId,
    page_title: title,
    cat_id: cat,
    page_content: content,
  });
}

/** The page ids A has a read marker for. */
async function markedPages(): Promise<string[]> {
  const doc = await PageRead.findOne({ uid: a.uid, item_id: itemId }).lean();
  return Object.keys(doc?.pages ?? {}).sort();
}

async function openTreePage(page: Page, title: string) {
  await page.getByTestId('tree-page').filter({ hasText: title }).click();
  await waitForPage(page, title);
}

describe('reads', () => {
  test('dots, the item count, show changes, the live bar and mark all as read', async () => {
    const tp = await suite.open();
    await loginAs(tp, a);
    const page = tp.page;

    // A reads Intro, then Setup: each is recorded once it has been on screen a little while.
    await page.goto(`${suite.server.url}/${itemId}/${intro}`);
    await waitForPage(page, 'Intro');
    await eventually(markedPages, [String(intro)]);
    await page.getByTestId('tree-catalog').filter({ hasText: 'Chapters' }).click();
    await openTreePage(page, 'Setup');
    await eventually(markedPages, [String(intro), String(setup)].sort());
    await expect(page.getByTestId('read-dot').count()).resolves.toBe(0);

    // B edits both pages.
    await save(
      b,
      intro,
      'Intro',
      '# Intro\n\nWelcome aboard, new colleague.\n\nAsk questions early.',
    );
    await save(b, setup, 'Setup', '# Setup\n\nInstall the tools.\n\nThen run the checks.', catId);

    // A comes back on the FAQ page: both pages carry a dot, the catalog counts its one.
    await page.goto(`${suite.server.url}/${itemId}/${faq}`);
    await waitForPage(page, 'FAQ');
    await page.getByTestId('tree-catalog').filter({ hasText: 'Chapters' }).click();
    await eventually(() => page.getByTestId('read-dot').count(), 2);
    await expect(
      page.getByTestId('tree-catalog').filter({ hasText: 'Chapters' }).textContent(),
    ).resolves.toBe('Chapters1');
    await expect(page.getByTestId('read-summary').textContent()).resolves.toContain(
      'Pages changed: 2',
    );
    await shot(page, 'reads-dots');

    // The item list says so too.
    await page.goto(`${suite.server.url}/item/index`);
    await expect(
      page.locator(`[data-item-id="${itemId}"]`).getByTestId('item-changed-pages').textContent(),
    ).resolves.toBe('Pages changed: 2');

    // Opening Intro offers B's changes; shown, B's paragraph is highlighted with B's name.
    await page.goto(`${suite.server.url}/${itemId}/${intro}`);
    await waitForPage(page, 'Intro');
    const since = page.getByTestId('read-since-bar');
    await since.waitFor();
    await expect(since.textContent()).resolves.toContain(b.username);
    await since.getByTestId('read-show-changes').click();
    const highlighted = page.getByTestId('markdown').locator('[data-read-change]');
    await eventually(() => highlighted.count(), 1);
    await expect(highlighted.textContent()).resolves.toBe('Welcome aboard, new colleague.');
    await expect(highlighted.getAttribute('data-read-by')).resolves.toContain(b.username);
    await expect(since.getByTestId('read-full-diff').getAttribute('href')).resolves.toMatch(
      new RegExp(`^/page/diff/${intro}/\\d+$`),
    );
    await shot(page, 'reads-show-changes');

    // Reading Intro again clears its dot; Setup's stays.
    await eventually(() => page.getByTestId('read-dot').count(), 1);

    // B saves Intro while A reads it: the page follows, and the bar says who and what moved.
    await save(
      b,
      intro,
      'Intro',
      '# Intro\n\nWelcome aboard, new colleague.\n\nAsk questions early.\n\nLunch is at noon.',
    );
    await page.getByTestId('markdown').getByText('Lunch is at noon.').waitFor();
    const bar = page.getByTestId('read-live-bar');
    await bar.waitFor();
    await expect(bar.textContent()).resolves.toContain(`Updated by ${b.username}`);
    await bar.getByTestId('read-show-changes').click();
    await eventually(
      () => page.getByTestId('markdown').locator('[data-read-change]').allTextContents(),
      ['Lunch is at noon.'],
    );
    await shot(page, 'reads-live-bar');

    // Mark all as read: no dot, no count, here and after a reload.
    await page.getByTestId('read-mark-all').click();
    await page.getByTestId('read-summary').waitFor({ state: 'detached' });
    await expect(page.getByTestId('read-dot').count()).resolves.toBe(0);
    await page.reload();
    await waitForPage(page, 'Intro');
    await page.getByTestId('tree-catalog').filter({ hasText: 'Chapters' }).click();
    await page.getByTestId('tree-page').filter({ hasText: 'Setup' }).waitFor();
    await expect(page.getByTestId('read-dot').count()).resolves.toBe(0);
    await expect(page.getByTestId('read-summary').count()).resolves.toBe(0);
  });
});
