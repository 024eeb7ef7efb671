/**
 * The bench's huge-item cell checks itself on a small item (2,500 pages instead of 100,000: above the lazy menu's threshold): it
 * seeds, measures every figure it reports (memory, paint, search, saves, both item/info menus,
 * the page at the body limit saved over HTTP) and formats them. Figures are not asserted: speed
 * is measured by the bench, never by a test.
 */
import { expect, test } from '@jest/globals';
import { DEFAULT_HUGE, formatHuge, measureHugeItem } from '../../scripts/bench/huge';
import { launchBrowser } from '../e2e/helpers';

test('the huge-item cell measures every figure it reports on a 2,500-page item', async () => {
  // Builds the web app for production when stale (the cell's own check would build it under jest's NODE_ENV).
  await (await launchBrowser()).close();
  const cell = await measureHugeItem({
    options: {
      ...DEFAULT_HUGE,
      pages: 2500,
      catalogLevels: [5, 20, 50],
      searches: 3,
      saves: 3,
      paints: 1,
    },
    log: () => {},
  });
  expect(cell.ok).toBe(true);
  expect(cell.catalogs).toBe(75);
  expect(cell.bigPage.saved).toBe(true);
  expect(cell.bigPage.bytes).toBeGreaterThan(1.9 * 1024 * 1024);
  expect(cell.search.hits).toBe(50);
  expect(cell.fcpMs.huge).toBeGreaterThan(0);
  expect(cell.fcpMs.small).toBeGreaterThan(0);
  expect(cell.itemInfo.whole.bytes).toBeGreaterThan(cell.itemInfo.lazy.bytes);
  expect(cell.memory.afterSeed.rssMB).toBeGreaterThan(0);
  expect(formatHuge(cell)).toMatch(/per 10,000 pages/);
}, 300_000);
