/**
 * The reader in Chromium (issue "Web: reading"): opening an item by id and by custom domain, the
 * catalog tree and its search, the table of contents, full screen, the mobile layout, language
 * prefixes, the document title, what each role sees, and the special item types. No test may
 * leave a console error behind.
 */
import { describe, expect, test } from '@jest/globals';

import {
  eventually,
  GUIDE_DOMAIN,
  loginAs,
  readerSuite,
  renderingDone,
  shot,
  waitForPage,
} from './readerFixture';

const suite = readerSuite();
const { open } = suite;

describe('opening an item', () => {
  test('a cold load asks for the item and the page once each (the route takes over the requests the entry started)', async () => {
    const { page } = await open();
    const asked: string[] = [];
    page.on('request', (request) => {
      const call = /\/api\/(item\/info|page\/info)\b/.exec(request.url())?.[1];
      if (call) asked.push(call);
    });
    await page.goto(`${suite.server.url}/${suite.fx.guide.itemId}/${suite.fx.guide.alpha}`);
    await waitForPage(page, 'Alpha page');
    await page.waitForLoadState('networkidle');
    expect(asked.sort()).toEqual(['item/info', 'page/info']);
  });

  test('by id and by custom domain it shows the first page, the tree and the titles', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${suite.fx.guide.itemId}`);
    await waitForPage(page, 'Welcome');
    await expect(page.getByTestId('item-name').textContent()).resolves.toBe('Guide');
    expect(await page.title()).toBe('Welcome - Guide');
    await expect(page.getByTestId('tree-catalog').first().textContent()).resolves.toBe('Chapter A');

    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    await shot(page, 'reader-desktop');

    // A page by id, and one by its custom page id.
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
    await waitForPage(page, 'Alpha page');
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/gamma`);
    await waitForPage(page, 'Gamma page');
    // …and the page_id query.
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}?page_id=${suite.fx.guide.beta}`);
    await waitForPage(page, 'Beta page');
  });

  test('an unknown page id goes back to the item root', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/no-such-page`);
    await page.waitForURL(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
  });

  test('the document title is reset when the reader is left', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    await page.getByRole('link', { name: 'Quire', exact: true }).click();
    await page.waitForURL(`${suite.server.url}/`);
    await eventually(() => page.title(), 'Quire');
  });

  test('an empty item says so', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${suite.fx.blank.itemId}`);
    await page.getByTestId('empty-item').waitFor();
    await expect(page.getByTestId('empty-item').textContent()).resolves.toContain('no pages yet');
  });
});

describe('the catalog tree', () => {
  test('opens catalogs three levels deep; picking a page replaces the address', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    const tree = page.getByTestId('reader-sidebar');
    await tree.getByText('Chapter A', { exact: true }).click();
    await tree.getByText('Section B', { exact: true }).click();
    await tree.getByText('Part C', { exact: true }).click();
    await tree.getByText('Gamma page', { exact: true }).click();
    await waitForPage(page, 'Gamma page');
    expect(page.url()).toBe(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.gamma}`);
    // The address was replaced, not pushed: going back leaves the item.
    await tree.getByText('Alpha page', { exact: true }).click();
    await waitForPage(page, 'Alpha page');
    expect(page.url()).toBe(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
  });

  test('a page opened by address has its catalogs expanded and is selected', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.gamma}`);
    await waitForPage(page, 'Gamma page');
    const selected = page.locator('.ant-tree-treenode-selected');
    await expect(selected.textContent()).resolves.toBe('Gamma page');
  });

  test('search runs on Enter and ends when the box is cleared; no match says so', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    const box = page.getByRole('searchbox', { name: 'Search this item (Enter)' });
    await box.fill('zebra');
    await expect(page.getByTestId('search-results').count()).resolves.toBe(0); // not before Enter
    await box.press('Enter');
    await page.getByTestId('search-result').first().waitFor();
    await expect(page.getByTestId('search-result').allTextContents()).resolves.toEqual([
      'Beta page',
    ]);
    await page.getByTestId('search-result').click();
    await waitForPage(page, 'Beta page');

    await box.fill('nothing-matches-this');
    await box.press('Enter');
    await page.getByTestId('search-results').getByText('No search results').waitFor();

    await box.fill('');
    await page.getByTestId('catalog-tree').waitFor();
    await expect(page.getByTestId('search-results').count()).resolves.toBe(0);
  });
});

describe('reading a page', () => {
  test('the table of contents lists the headings, jumps to them, and is open on wide screens', async () => {
    const { page } = await open({ viewport: { width: 1400, height: 800 } });
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
    await waitForPage(page, 'Welcome');
    const entries = page.getByTestId('toc-entry');
    await entries.first().waitFor();
    await expect(entries.allTextContents()).resolves.toEqual([
      'Welcome',
      'Install',
      'Configure',
      'Details',
      'FAQ',
    ]);
    await entries.filter({ hasText: 'Configure' }).click();
    // The heading lands just under the header (130 px scroll offset).
    await eventually(
      () => page.locator('#configure').evaluate((h) => Math.round(h.getBoundingClientRect().top)),
      130,
    );
    expect(page.url()).toContain('#configure');
    await shot(page, 'reader-toc');

    // Closing and opening it again.
    await page.getByRole('button', { name: 'Contents' }).click();
    await expect(page.getByTestId('toc').count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Contents' }).click();
    await page.getByTestId('toc').waitFor();
  });

  test('full screen hides the header, menu and contents, narrows the page and enlarges the text', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
    await waitForPage(page, 'Welcome');
    const fontSize = () =>
      page.getByTestId('markdown').evaluate((e) => getComputedStyle(e).fontSize);
    await expect(fontSize()).resolves.toBe('14px');
    await page.getByTestId('fullscreen-toggle').click();
    await page.locator('[data-layout="fullscreen"]').waitFor();
    await expect(page.getByTestId('reader-sidebar').count()).resolves.toBe(0);
    await expect(page.getByTestId('reader-header').count()).resolves.toBe(0);
    await expect(page.getByTestId('toc').count()).resolves.toBe(0);
    await expect(fontSize()).resolves.toBe('16px');
    const width = await page
      .getByTestId('page-article')
      .evaluate((e) => e.getBoundingClientRect().width);
    expect(width).toBeLessThanOrEqual(860);
    await shot(page, 'reader-fullscreen');
    await page.getByTestId('fullscreen-toggle').click();
    await page.getByTestId('reader-sidebar').waitFor();
  });

  test('the back-to-top button appears once the page is scrolled, and takes the reader back up', async () => {
    const { page } = await open();
    // A low window: the page scrolls past the button's 400 px threshold.
    await page.setViewportSize({ width: 1280, height: 200 });
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.rendering}`);
    await waitForPage(page, 'Rendering');
    await expect(page.getByTestId('back-to-top').count()).resolves.toBe(0);
    // To the bottom until past the threshold (diagrams and formulas may still be growing the page).
    await eventually(
      () =>
        page.evaluate(() => {
          window.scrollTo(0, document.documentElement.scrollHeight);
          return window.scrollY >= 400;
        }),
      true,
    );
    await page.getByTestId('back-to-top').click();
    await eventually(() => page.evaluate(() => window.scrollY), 0);
  });

  test('Markdown: table, task list, highlighted code, KaTeX, a mermaid diagram and an API document', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.rendering}`);
    await waitForPage(page, 'Rendering');
    await renderingDone(page);
    const md = page.getByTestId('markdown');
    await shot(page, 'reader-rendering');

    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
    await waitForPage(page, 'Welcome');
    await expect(md.locator('table td').first().textContent()).resolves.toBe('port');
    await expect(md.locator('input[type="checkbox"][disabled]').count()).resolves.toBe(2);

    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.apiDoc}`);
    await waitForPage(page, 'Login API');
    await expect(md.locator('h5').allTextContents()).resolves.toEqual([
      'Description',
      'Status',
      'Request URL',
      'Method',
      'Body parameters',
      'Success response example',
      'Success response fields',
    ]);
    await expect(md.locator('code').first().textContent()).resolves.toBe('/api/user/login');
  });

  test('mermaid is loaded only for pages that have a diagram', async () => {
    const { page } = await open();
    const scripts: string[] = [];
    page.on('request', (r) => r.resourceType() === 'script' && scripts.push(r.url()));
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
    await waitForPage(page, 'Welcome');
    await page.waitForLoadState('networkidle');
    expect(scripts.filter((u) => /mermaid/i.test(u))).toEqual([]);
    await page.getByTestId('reader-sidebar').getByText('Chapter A', { exact: true }).click();
    await page.getByTestId('reader-sidebar').getByText('Rendering', { exact: true }).click();
    await page.locator('.md-mermaid[data-drawn="yes"]').waitFor();
    expect(scripts.filter((u) => /mermaidRenderer/.test(u))).toHaveLength(1);
  });
});

describe('layouts and languages', () => {
  test('under 1000 px: a compact header with the item name, a catalog drawer and a language drawer', async () => {
    const { page } = await open({ viewport: { width: 390, height: 780 } });
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    await page.locator('[data-layout="mobile"]').waitFor();
    await expect(page.getByTestId('mobile-title').textContent()).resolves.toBe('Guide');
    await expect(page.getByTestId('reader-sidebar').count()).resolves.toBe(0);
    await expect(page.getByTestId('fullscreen-toggle').count()).resolves.toBe(0);
    await expect(page.getByTestId('toc').count()).resolves.toBe(0);
    await shot(page, 'reader-mobile');

    await page.getByTestId('mobile-catalog').click();
    const drawer = page.locator('.ant-drawer-open');
    await drawer.getByText('Chapter A', { exact: true }).click();
    await drawer.getByText('Alpha page', { exact: true }).click();
    await waitForPage(page, 'Alpha page');
    await eventually(() => page.locator('.ant-drawer-open').count(), 0);

    await page.getByTestId('mobile-language').click();
    await page.getByTestId('mobile-languages').getByText('Deutsch').click();
    await page.getByRole('button', { name: 'Katalog' }).waitFor();
    await shot(page, 'reader-mobile-german');
  });

  test('a language code before the item selects the language, and switching rewrites it', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/cn/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
    await waitForPage(page, 'Alpha page');
    await page.getByRole('searchbox', { name: '搜索本项目（回车）' }).waitFor();
    expect(await page.evaluate(() => localStorage.getItem('help_lang'))).toBe('zh_cn');

    await page.getByTestId('language-switch').click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await page.waitForURL(`${suite.server.url}/en/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
    await page.getByRole('searchbox', { name: 'Search this item (Enter)' }).waitFor();

    // Tree navigation keeps the prefix.
    await page.getByTestId('reader-sidebar').getByText('Welcome', { exact: true }).click();
    await page.waitForURL(`${suite.server.url}/en/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
  });

  test("an anonymous reader fetches only the catalogue's reader part; the login screen then has its texts", async () => {
    const { page } = await open();
    const catalogues: string[] = [];
    page.on('request', (request) => {
      const name = /\/(catalogue-[a-z_]+-(?:reader|rest))-/.exec(request.url())?.[1];
      if (name) catalogues.push(name);
    });
    await page.goto(`${suite.server.url}/cn/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
    await waitForPage(page, 'Alpha page');
    await page.getByRole('searchbox', { name: '搜索本项目（回车）' }).waitFor();
    expect(catalogues).toEqual(['catalogue-zh_cn-reader']);

    await page.getByTestId('header-actions').getByTestId('login').click();
    await page.getByRole('textbox', { name: '用户名' }).waitFor();
    await page.getByRole('button', { name: /登\s*录/ }).waitFor();
    expect(catalogues).toEqual(['catalogue-zh_cn-reader', 'catalogue-zh_cn-rest']);
  });
});

describe('what each role sees', () => {
  test('anonymous visitors: share, login and about; no editing, no manager menu', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(page, 'Welcome');
    const actions = page.getByTestId('header-actions');
    await expect(actions.getByTestId('share').count()).resolves.toBe(1);
    await expect(actions.getByTestId('login').count()).resolves.toBe(1);
    await expect(actions.getByRole('button', { name: 'About' }).count()).resolves.toBe(1);
    await expect(actions.getByTestId('edit-page').count()).resolves.toBe(0);
    await expect(actions.getByTestId('manage-menu').count()).resolves.toBe(0);
    await expect(page.getByTestId('editor-bar').count()).resolves.toBe(0);
    await expect(page.getByTestId('back-to-items').count()).resolves.toBe(0);
    await actions.getByTestId('login').click();
    await page.waitForURL(/\/user\/login\?redirect=%2Fguide/);
  });

  test('a read-only member: notices and user centre, no edit tools', async () => {
    const tp = await open();
    await loginAs(tp, suite.fx.viewer);
    await tp.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
    await waitForPage(tp.page, 'Welcome');
    const actions = tp.page.getByTestId('header-actions');
    await actions.getByTestId('notices-icon').waitFor();
    await expect(actions.getByTestId('user-centre').count()).resolves.toBe(1);
    await expect(actions.getByTestId('login').count()).resolves.toBe(0);
    await expect(actions.getByTestId('edit-page').count()).resolves.toBe(0);
    await expect(tp.page.getByTestId('editor-bar').count()).resolves.toBe(0);
    await expect(tp.page.getByTestId('back-to-items').count()).resolves.toBe(1);
  });

  test('an editor: edit button and the bottom bar, whose buttons lead to the editor screens', async () => {
    const tp = await open();
    await loginAs(tp, suite.fx.editor);
    await tp.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.alpha}`);
    await waitForPage(tp.page, 'Alpha page');
    await expect(tp.page.getByTestId('manage-menu').count()).resolves.toBe(0);
    await tp.page.getByTestId('editor-more').click();
    await tp.page.getByRole('menuitem', { name: 'Page info' }).click();
    const dialog = tp.page.getByRole('dialog');
    await expect(dialog.textContent()).resolves.toContain(String(suite.fx.guide.alpha));
    await tp.page.keyboard.press('Escape');
    await tp.page.getByTestId('edit-page').click();
    await tp.page.waitForURL(
      `${suite.server.url}/page/edit/${suite.fx.guide.itemId}/${suite.fx.guide.alpha}`,
    );
  });

  test('the owner: the manager menu with its entries; the change log lists what was done', async () => {
    const tp = await open();
    await loginAs(tp, suite.fx.owner);
    await tp.page.goto(`${suite.server.url}/${GUIDE_DOMAIN}/${suite.fx.guide.welcome}`);
    await waitForPage(tp.page, 'Welcome');
    await tp.page.getByTestId('manage-menu').click();
    // The menu's code loads on first use: read the entries once the menu is shown.
    await tp.page.getByRole('menuitem').first().waitFor();
    const entries = await tp.page.getByRole('menuitem').allTextContents();
    expect(entries).toEqual([
      'Import',
      'Export',
      'Members',
      'Recycle bin',
      'Update base info',
      'Change log',
      'Transfer',
      'Archive',
      'Delete item',
    ]);
    await tp.page.getByRole('menuitem', { name: 'Change log' }).click();
    await tp.page.locator('.ant-modal', { hasText: 'Change log' }).waitFor();
    const rows = tp.page.locator('.ant-modal .ant-table-tbody tr.ant-table-row');
    await eventually(() => rows.count(), 10); // 10 a page (spec 001 §9)
    await expect(tp.page.locator('.ant-modal').textContent()).resolves.toContain('Chapter A');
    await shot(tp.page, 'reader-change-log');
  });
});

describe('item types', () => {
  test('a single-page item shows its page alone with contents and full screen', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${suite.fx.solo.itemId}`);
    await waitForPage(page, 'Solo');
    await page.getByTestId('single-page').waitFor();
    await expect(page.getByTestId('reader-sidebar').count()).resolves.toBe(0);
    await expect(page.getByTestId('toc-entry').allTextContents()).resolves.toEqual([
      'Solo',
      'Part one',
      'Part two',
    ]);
    await expect(page.getByTestId('fullscreen-toggle').count()).resolves.toBe(1);
    expect(await page.title()).toBe('Solo');
    await shot(page, 'reader-single-page-item');
  });

  test('a page by id (/page/:id) is shown on its own', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/page/${suite.fx.guide.beta}`);
    await waitForPage(page, 'Beta page');
    await page.getByTestId('single-page').waitFor();
    await expect(page.getByTestId('reader-sidebar').count()).resolves.toBe(0);
    expect(await page.title()).toBe('Beta page');
  });

  test('a spreadsheet item shows its sheets as tabs over a read-only grid', async () => {
    const { page } = await open();
    await page.goto(`${suite.server.url}/${suite.fx.sheet.itemId}`);
    const rows = page.locator('[data-testid="sheet-grid"] .ht_master tbody tr');
    await rows.first().waitFor();
    await expect(page.getByRole('tab').allTextContents()).resolves.toEqual(['Prices', 'Notes']);
    const texts = async (row: number) =>
      (await rows.nth(row).locator('td').allTextContents()).slice(0, 2);
    await expect(texts(0)).resolves.toEqual(['Plan', 'Price']);
    await expect(texts(1)).resolves.toEqual(['Basic', '10']);
    // An anonymous visitor cannot edit: no lock is asked for, the cells are read-only.
    await expect(page.getByTestId('sheet-editing').count()).resolves.toBe(0);
    await expect(page.getByRole('button', { name: 'Import Excel' }).count()).resolves.toBe(0);
    await shot(page, 'reader-spreadsheet');
  });
});
