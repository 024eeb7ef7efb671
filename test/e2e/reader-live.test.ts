/**
 * Live reading in Chromium: a second browser (another member, acting through the API as any
 * client would) saves the page being read, adds a page, takes and releases the page's lock, and
 * opens the same page — and the first browser shows it without being reloaded: a fresh version
 * (at once when the reader has not scrolled, else behind a "reload" note), the new page in the
 * tree, who is editing, and who else is reading.
 */
import { describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';

import type { TestUser } from '../helpers/users';
import { eventually, GUIDE_DOMAIN, loginAs, readerSuite, shot, waitForPage } from './readerFixture';

const suite = readerSuite();

async function reader(user: TestUser, path: string, title: string): Promise<Page> {
  const tp = await suite.open();
  await loginAs(tp, user);
  await tp.page.goto(`${suite.server.url}${path}`);
  await waitForPage(tp.page, title);
  return tp.page;
}

/** An API call from inside a browser page, as the web app (or any ShowDoc client) makes it. */
async function call(
  page: Page,
  user: TestUser,
  route: string,
  params: Record<string, string | number>,
) {
  const body = { ...params, user_token: user.user_token };
  const answer = await page.evaluate(
    async ({ route, body }) => {
      const form = new URLSearchParams();
      for (const [k, v] of Object.entries(body)) form.set(k, String(v));
      const response = await fetch(`/api/${route}`, { method: 'POST', body: form });
      return (await response.json()) as { error_code: number; error_message?: string };
    },
    { route, body },
  );
  expect(answer.error_code === 0 ? 'ok' : answer.error_message).toBe('ok');
}

describe('live reading', () => {
  test('presence and the lock holder show up; a save replaces the unscrolled page; the tree follows a new page', async () => {
    const path = `/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`;
    const a = await reader(suite.fx.viewer, path, 'Alpha page');
    const b = await reader(suite.fx.editor, path, 'Alpha page');

    // Both watch the page: each sees the other.
    await eventually(() => a.getByTestId('presence-user').count(), 1);
    await eventually(() => b.getByTestId('presence-user').count(), 1);
    await expect(a.getByTestId('presence').textContent()).resolves.toContain(
      suite.fx.editor.username,
    );

    // The editor takes the page's lock (opening the editor does this): the reader sees who edits.
    await call(b, suite.fx.editor, 'page/setLock', {
      page_id: suite.fx.guide.alpha,
      item_id: suite.fx.guide.itemId,
    });
    await a.getByTestId('lock-holder').waitFor();
    await expect(a.getByTestId('lock-holder').textContent()).resolves.toBe(
      `${suite.fx.editor.username} is editing this page`,
    );
    await shot(a, 'reader-live-lock-presence');

    // A save while the reader is at the top of the page: the new version replaces the old one.
    await call(b, suite.fx.editor, 'page/save', {
      page_id: suite.fx.guide.alpha,
      item_id: suite.fx.guide.itemId,
      page_title: 'Alpha page',
      page_content: '# Alpha\n\nRewritten live by the editor.',
      cat_id: suite.fx.guide.chapterA,
    });
    await a.getByTestId('markdown').getByText('Rewritten live by the editor.').waitFor();
    await expect(a.getByTestId('live-updated').count()).resolves.toBe(0);

    // The lock is released: the note goes away.
    await call(b, suite.fx.editor, 'page/setLock', {
      page_id: suite.fx.guide.alpha,
      item_id: suite.fx.guide.itemId,
      lock_to: 1000,
    });
    await eventually(() => a.getByTestId('lock-holder').count(), 0);

    // A new page at the item root appears in the reader's tree in place.
    await call(b, suite.fx.editor, 'page/save', {
      page_id: 0,
      item_id: suite.fx.guide.itemId,
      page_title: 'Fresh page',
      page_content: 'Brand new.',
      cat_id: 0,
    });
    await a.getByTestId('reader-sidebar').getByText('Fresh page', { exact: true }).waitFor();
    // The reader stayed where it was.
    await expect(a.getByTestId('page-title').textContent()).resolves.toBe('Alpha page');

    // The editor leaves: the reader's presence list empties.
    await b.goto(`${suite.server.url}/`);
    await eventually(() => a.getByTestId('presence-user').count(), 0);
  });

  test('a reader who has scrolled gets a note naming the author and reloads when they choose', async () => {
    const path = `/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`;
    const a = await reader(suite.fx.viewer, path, 'Welcome');
    const b = await reader(suite.fx.editor, path, 'Welcome');
    await eventually(() => a.getByTestId('presence-user').count(), 1);
    await a.evaluate(() => window.scrollTo(0, 600));
    await eventually(() => a.evaluate(() => window.scrollY > 100), true);

    await call(b, suite.fx.editor, 'page/save', {
      page_id: suite.fx.guide.welcome,
      item_id: suite.fx.guide.itemId,
      page_title: 'Welcome',
      page_content: '# Welcome\n\nA much shorter welcome.',
      cat_id: 0,
    });
    const note = a.getByTestId('live-updated');
    await note.waitFor();
    await expect(note.textContent()).resolves.toContain(
      `${suite.fx.editor.username} saved a newer version of this page.`,
    );
    // Still the old text until the reader asks.
    await expect(a.getByTestId('markdown').textContent()).resolves.toContain(
      'Every step is described',
    );
    // Back at the top, and the screen re-renders (the owner comes to read too): the note
    // stays until the reader chooses.
    await a.evaluate(() => window.scrollTo(0, 0));
    await reader(suite.fx.owner, path, 'Welcome');
    await eventually(() => a.getByTestId('presence-user').count(), 2);
    await expect(a.getByTestId('live-updated').count()).resolves.toBe(1);
    await shot(a, 'reader-live-updated');
    await a.getByTestId('live-reload').click();
    await a.getByTestId('markdown').getByText('A much shorter welcome.').waitFor();
    await expect(a.getByTestId('live-updated').count()).resolves.toBe(0);
  });
});
