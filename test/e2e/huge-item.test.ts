/**
 * The reader on a big item (3,000 pages in 300 catalogs, bulk-seeded): the catalog tree shows the
 * top level from item/info's lazy menu, fetches a catalog's level (catalog/menuChildren) only when
 * it is expanded, and is a virtual list — the DOM holds the rows on screen, not every row of the
 * expanded tree. What is asserted is behaviour (which requests, which rows), never a timing.
 */
import { describe, expect, test } from '@jest/globals';
import type { Page } from 'playwright-core';
import { seedHugeItem, type HugeItem } from '../../scripts/bench/hugeItem';
import { pageTitle } from '../../scripts/bench/content';
import { actorOf, makeItem } from '../helpers/factories';
import { makeUser } from '../helpers/users';
import { browserSuite } from './helpers';
import { eventually, waitForPage } from './readerFixture';

const TOP = 100;
const SECOND = 200;
let itemId = 0;
let huge: HugeItem;

const suite = browserSuite({
  setup: async () => {
    const owner = await makeUser();
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Huge handbook' }));
    huge = await seedHugeItem(await actorOf(owner), itemId, {
      pages: 3000,
      catalogLevels: [TOP, SECOND],
      shortPages: true,
    });
  },
});

const treeRows = (page: Page) => page.locator('[data-testid="catalog-tree"] .ant-tree-treenode');
const catalogRow = (page: Page, name: string) =>
  page.getByTestId('tree-catalog').filter({ hasText: new RegExp(`^${name.replace('.', '\\.')}$`) });

interface LazyMenuCatalog {
  cat_name: string;
  lazy?: number;
  pages: unknown[];
  catalogs: unknown[];
}

describe('a 3,000-page item in the reader', () => {
  test('shows the top level, loads a catalog lazily on expand, and keeps the DOM to a bounded number of rows', async () => {
    const { page } = await suite.open();
    const levelRequests: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/catalog/menuChildren'))
        levelRequests.push(request.postData() ?? '');
    });
    const infoAnswer = page.waitForResponse((r) => r.url().includes('/api/item/info'));
    await page.goto(`${suite.server.url}/${itemId}`);
    const info = (await (await infoAnswer).json()) as {
      data: { menu: { pages: unknown[]; catalogs: LazyMenuCatalog[] } };
    };
    // The answer holds the top level only: every catalog lazy and empty.
    expect(info.data.menu.catalogs).toHaveLength(TOP);
    expect(info.data.menu.catalogs.every((c) => c.lazy === 1 && c.pages.length === 0)).toBe(true);

    await waitForPage(page, pageTitle(1000)); // the first root page opens
    await catalogRow(page, 'Guide 1.1').waitFor();
    const topLevelRows = huge.pagesByCat.get(0)!.length + TOP;
    const rendered = await treeRows(page).count();
    expect(rendered).toBeGreaterThan(0);
    expect(rendered).toBeLessThan(topLevelRows); // a virtual list: not every top-level row
    expect(await catalogRow(page, 'Guide 2.1').count()).toBe(0);
    expect(levelRequests).toEqual([]);

    // Expanding the first catalog fetches its level, and only it.
    await catalogRow(page, 'Guide 1.1').click();
    await catalogRow(page, 'Guide 2.1').waitFor();
    await catalogRow(page, 'Guide 2.2').waitFor();
    expect(levelRequests).toHaveLength(1);
    expect(new URLSearchParams(levelRequests[0]).get('cat_id')).toBe(String(huge.levels[0][0]));
    const firstPageOfCatalog = huge.pagesByCat.get(huge.levels[0][0])![0];
    const pageNumber = huge.pageIds.indexOf(firstPageOfCatalog) + 1;
    await page
      .getByTestId('tree-page')
      .filter({ hasText: pageTitle(pageNumber) })
      .waitFor();

    // A sub-catalog expands the same way, one more request.
    await catalogRow(page, 'Guide 2.1').click();
    await eventually(() => levelRequests.length, 2);
    expect(new URLSearchParams(levelRequests[1]).get('cat_id')).toBe(String(huge.levels[1][0]));

    // Still a bounded number of rows; scrolled to the end, the last top-level catalog is drawn
    // and the first one is no longer in the DOM.
    expect(await treeRows(page).count()).toBeLessThan(topLevelRows);
    await page
      .locator('[data-testid="catalog-tree"] .ant-tree-list-holder')
      .evaluate((holder) => holder.scrollTo({ top: holder.scrollHeight }));
    await catalogRow(page, `Guide 1.${TOP}`).waitFor();
    expect(await catalogRow(page, 'Guide 1.1').count()).toBe(0);
    expect(await treeRows(page).count()).toBeLessThan(topLevelRows);

    // Opening a page from a lazily loaded catalog works as from any other.
    await page
      .locator('[data-testid="catalog-tree"] .ant-tree-list-holder')
      .evaluate((holder) => holder.scrollTo({ top: 0 }));
    await page
      .getByTestId('tree-page')
      .filter({ hasText: pageTitle(pageNumber) })
      .click();
    await waitForPage(page, pageTitle(pageNumber));
  });
});
