/**
 * Issue #23's details in Chromium: a private item's page link (`/page/:id`) through the password
 * screen and back; the reader's left tree for editors (drag re-ordering saved and kept after a
 * reload, the catalog manager's right-click menu, the three-level tip) and for anonymous readers
 * (not draggable, the editing chunk never loaded); the item-load overlay (20 s) and the back
 * office's save overlay (30 s) closing on a driven clock; the page-quota alert of a new page;
 * the recycle-bin and change-log tips. No test may leave a console error behind.
 */
import { describe, expect, test } from '@jest/globals';
import type { Page, Route } from 'playwright-core';
import { Catalog } from '../../models/catalogs/schemas/catalog';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { getSetting, setSetting } from '../../models/settings/settings';
import { makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { browserSuite, captchaAnswer, loginViaUi, screenshot } from './helpers';
import { eventually, loginAs, waitForPage } from './readerFixture';

const suite = browserSuite();

async function editorPage(user: TestUser): Promise<Page> {
  const tp = await suite.open();
  await loginAs(tp, user);
  return tp.page;
}

/** The reader tree's row showing `title` (antd renders rows flat: one title per row). */
const treeRow = (page: Page, title: string) =>
  page.locator('[data-testid="catalog-tree"] .ant-tree-treenode', {
    has: page.getByText(title, { exact: true }),
  });

/** The root pages' titles in the order the reader's tree shows them. */
const treePages = (page: Page) =>
  page.locator('[data-testid="catalog-tree"] [data-testid="tree-page"]').allInnerTexts();

const PAUSE_AHEAD_MS = 200;

/**
 * Stops the page's clock where it is (installed clocks run in real time until paused); the few
 * real milliseconds between an overlay's start and this call are why the checks below leave a
 * margin of seconds on either side of the limit.
 */
async function pauseClock(page: Page): Promise<void> {
  // A loaded machine may pass the chosen instant before the call lands ("cannot fast-forward
  // to the past"): aim a little ahead, and again from the new time if even that was too close.
  for (let attempt = 0; ; attempt++) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + PAUSE_AHEAD_MS);
      return;
    } catch (error) {
      if (attempt >= 3 || !/past/i.test(String(error))) throw error;
    }
  }
}

/** Holds every request matching `part` until `release()` (then they go on to the server). */
async function holdRequests(page: Page, part: string) {
  const held: Route[] = [];
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route(
    (url) => url.href.includes(part),
    async (route) => {
      held.push(route);
      await gate;
      await route.continue();
    },
  );
  return {
    count: () => held.length,
    release: async () => {
      release();
      await page.unroute((url) => url.href.includes(part));
    },
  };
}

describe('a private item', () => {
  test('its page link goes to the password screen and, after the right password, back to the page', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { password: 'open-sesame' });
    const secret = await makePage(owner, item_id, { title: 'Secret plans' });
    const { page } = await suite.open();
    await page.goto(`${suite.server.url}/page/${secret.page_id}`);
    await page.waitForURL(/\/item\/password\//);
    const url = new URL(page.url());
    expect(url.pathname).toBe('/item/password/0');
    expect(url.searchParams.get('page_id')).toBe(String(secret.page_id));
    expect(url.searchParams.get('redirect')).toBe(`/page/${secret.page_id}`);

    await page.getByLabel('Visit password').fill('open-sesame');
    await page.getByRole('textbox', { name: 'Captcha' }).fill(await captchaAnswer(page));
    await page.getByRole('button', { name: 'Open the item' }).click();
    await page.waitForURL(`${suite.server.url}/page/${secret.page_id}`);
    await page.getByTestId('single-page').getByText('Secret plans').first().waitFor();
  });
});

describe("the reader's tree", () => {
  test('an editor drags a page; the new order is saved and survives a reload', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Drag in reader' });
    const alpha = await makePage(owner, item_id, { title: 'Alpha' });
    await makePage(owner, item_id, { title: 'Bravo' });
    const charlie = await makePage(owner, item_id, { title: 'Charlie' });
    const page = await editorPage(owner);
    await page.goto(`${suite.server.url}/${item_id}/${alpha.page_id}`);
    await waitForPage(page, 'Alpha');
    await page.getByTestId('reader-tree-editing').waitFor();
    expect(await treePages(page)).toEqual(['Alpha', 'Bravo', 'Charlie']);

    // Alpha straight down onto Charlie: dropped after it, at the same level.
    const from = await treeRow(page, 'Alpha').boundingBox();
    const to = await treeRow(page, 'Charlie').boundingBox();
    if (!from || !to) throw new Error('tree rows not visible');
    const x = from.x + 40;
    const y = from.y + from.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + 4, y + 4, { steps: 2 });
    await page.mouse.move(x, to.y + to.height * 0.75, { steps: 10 });
    await page.mouse.up();

    await eventually(() => treePages(page), ['Bravo', 'Charlie', 'Alpha']);
    await page.locator('[data-testid="reader-tree-editing"][data-busy="false"]').waitFor();
    const stored = await PageModel.find({ item_id }, { page_title: 1, s_number: 1 })
      .sort({ s_number: 1 })
      .lean();
    expect(stored.map((p) => p.page_title)).toEqual(['Bravo', 'Charlie', 'Alpha']);
    expect(charlie.page_id).toBeGreaterThan(0);

    await page.reload();
    await waitForPage(page, 'Alpha');
    expect(await treePages(page)).toEqual(['Bravo', 'Charlie', 'Alpha']);
    await screenshot(page, 'reader-tree-dragged');
  });

  test('right-click on a catalog opens the catalog actions; its edit form shows the three-level tip and renames it', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Menu in reader' });
    const catId = await makeCatalog(owner, item_id, 'Guides');
    const first = await makePage(owner, item_id, { title: 'Intro', catId });
    const page = await editorPage(owner);
    await page.goto(`${suite.server.url}/${item_id}/${first.page_id}`);
    await waitForPage(page, 'Intro');
    await page.getByTestId('reader-tree-editing').waitFor();

    await treeRow(page, 'Guides').click({ button: 'right' });
    const menu = page.getByRole('menu', { name: 'Actions for Guides' });
    await menu.waitFor();
    const entries = (await menu.getByRole('menuitem').allInnerTexts()).map((e) => e.trim());
    expect(entries).toEqual([
      'New sub-catalog',
      'Edit catalog',
      'Sort pages',
      'Copy or move',
      'Delete',
    ]);
    await menu.getByRole('menuitem', { name: 'Edit catalog' }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit catalog' });
    await expect(dialog.getByTestId('catalog-levels-tip').innerText()).resolves.toBe(
      'Catalogs can be nested at most 3 levels deep.',
    );
    await dialog.getByLabel('Catalog name').fill('Handbooks');
    await dialog.getByTestId('catalog-form-save').click();
    await dialog.waitFor({ state: 'detached' });
    await treeRow(page, 'Handbooks').waitFor();
    expect((await Catalog.findOne({ cat_id: catId }).lean())?.cat_name).toBe('Handbooks');
  });

  test('anonymous readers get a plain tree: nothing draggable, no context menu, the editing chunk never loaded', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Public reading' });
    const one = await makePage(owner, item_id, { title: 'One' });
    await makePage(owner, item_id, { title: 'Two' });
    const { page } = await suite.open();
    const scripts: string[] = [];
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(request.url());
    });
    await page.goto(`${suite.server.url}/${item_id}/${one.page_id}`);
    await waitForPage(page, 'One');
    expect(await treePages(page)).toEqual(['One', 'Two']);
    expect(
      await page
        .locator('[data-testid="catalog-tree"] .ant-tree-treenode[draggable="true"]')
        .count(),
    ).toBe(0);
    await treeRow(page, 'Two').click({ button: 'right' });
    expect(await page.getByTestId('catalog-context-menu').count()).toBe(0);
    expect(await page.getByTestId('reader-tree-editing').count()).toBe(0);
    expect(scripts.filter((src) => /ReaderTreeEditing|useTreeEditing/.test(src))).toEqual([]);
  });
});

describe('loading overlays (spec 002 §8), on a driven clock', () => {
  test('the item-load overlay closes after 20 s even while item/info has not answered', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Slow item' });
    const only = await makePage(owner, item_id, { title: 'Eventually here' });
    const { page } = await suite.open();
    await page.clock.install();
    const held = await holdRequests(page, 'item/info');
    await page.goto(`${suite.server.url}/${item_id}/${only.page_id}`);
    const overlay = page.getByRole('status', { name: 'Loading the item…' });
    await overlay.waitFor();
    // At least one item/info is held. (A loaded machine may start a second one: the entry's early
    // request counts as stale once the reader's code took longer than its freshness window.)
    await eventually(() => held.count() >= 1, true);
    await pauseClock(page);
    expect(await overlay.getAttribute('data-limit-ms')).toBe('20000');
    await page.clock.runFor(15_000);
    expect(await overlay.isVisible()).toBe(true);
    await page.clock.runFor(6_000);
    await overlay.waitFor({ state: 'detached' });
    // The answer still arrives and the item shows.
    await held.release();
    await waitForPage(page, 'Eventually here');
  });

  test("the back office's save overlay closes after 30 s; the page quota it saves is stored", async () => {
    const admin = await makeUser({ admin: true, password: 'Admin-pass-1' });
    const { page } = await suite.open();
    await loginViaUi(page, suite.server.url, admin.username, 'Admin-pass-1');
    await page.clock.install();
    await page.goto(`${suite.server.url}/admin/index`);
    await page.getByRole('menuitem', { name: 'Web settings' }).click();
    const quota = page.getByRole('spinbutton', { name: 'Pages per item' });
    await quota.fill('250');
    const held = await holdRequests(page, 'adminSetting/saveConfig');
    await page.getByRole('button', { name: 'Save' }).click();
    const overlay = page.getByRole('status', { name: 'Saving the settings…' });
    await overlay.waitFor();
    // At least one item/info is held. (A loaded machine may start a second one: the entry's early
    // request counts as stale once the reader's code took longer than its freshness window.)
    await eventually(() => held.count() >= 1, true);
    await pauseClock(page);
    expect(await overlay.getAttribute('data-limit-ms')).toBe('30000');
    await page.clock.runFor(25_000);
    expect(await overlay.isVisible()).toBe(true);
    await page.clock.runFor(6_000);
    await overlay.waitFor({ state: 'detached' });
    await held.release();
    await eventually(() => getSetting('page_quota'), '250');
    await setSetting('page_quota', '0');
  });
});

describe('the page quota', () => {
  test('opening a new page in a full item shows the limit with links to the plans and the user centre, then leaves', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Full item' });
    const only = await makePage(owner, item_id, { title: 'The only page' });
    await setSetting('page_quota', '1');
    try {
      const page = await editorPage(owner);
      await page.goto(`${suite.server.url}/page/edit/${item_id}/0`);
      const alert = page.locator('.ant-modal-confirm', { hasText: 'Page limit reached' });
      await alert.waitFor();
      const body = alert.getByTestId('page-quota-alert');
      expect(await body.getByRole('link', { name: 'See the plans' }).getAttribute('href')).toBe(
        '/prices',
      );
      expect(
        await body.getByRole('link', { name: 'Go to the user centre' }).getAttribute('href'),
      ).toBe('/user/setting');
      await screenshot(page, 'editor-page-quota');
      await alert.getByRole('button', { name: 'Leave the editor' }).click();
      await page.waitForURL(`${suite.server.url}/${item_id}`);
      await waitForPage(page, only.page_title);
    } finally {
      await setSetting('page_quota', '0');
    }
  });
});

describe('tip texts', () => {
  test('the recycle bin tells of the 30-day purge and the change log of its 300 entries', async () => {
    const owner = await makeUser();
    const { item_id } = await makeItem(owner, { item_name: 'Tips item' });
    const page1 = await makePage(owner, item_id, { title: 'Tip page' });
    const page = await editorPage(owner);
    await page.goto(`${suite.server.url}/${item_id}/${page1.page_id}`);
    await waitForPage(page, 'Tip page');
    const openManaged = async (entry: string) => {
      await page.getByTestId('manage-menu').click();
      await page.getByRole('menuitem', { name: entry }).click();
    };
    await openManaged('Recycle bin');
    const recycle = page.getByRole('dialog', { name: 'Recycle bin' });
    await expect(recycle.getByTestId('recycle-purge-tip').innerText()).resolves.toBe(
      'Deleted pages stay here for 30 days, then they are removed for good.',
    );
    await recycle.getByRole('button', { name: 'Close' }).click();
    await recycle.waitFor({ state: 'detached' });
    await openManaged('Change log');
    const log = page.getByRole('dialog', { name: 'Change log' });
    await expect(log.getByTestId('change-log-keep-tip').innerText()).resolves.toBe(
      'Only the latest 300 entries are kept.',
    );
  });
});
