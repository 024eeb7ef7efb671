/**
 * Ranked search in the reader (Chromium): a logged-in member searches with two words in any
 * order, sees the page with the snippet around the match and the words marked, page markup shown
 * as text (never run), and the "skip code blocks" toggle leaves a page whose only hit is code.
 */
import { beforeAll, expect, test } from '@jest/globals';
import { makePages } from '../helpers/pages';
import { GUIDE_DOMAIN, loginAs, readerSuite, waitForPage } from './readerFixture';

const suite = readerSuite();

beforeAll(async () => {
  await makePages(suite.fx.owner, suite.fx.guide.itemId, [
    {
      title: 'Island notes',
      content: 'Intro.\n\nThe habitat of the quokka is <b>Rottnest</b> island.\n',
    },
    { title: 'Code notes', content: 'Setup.\n\n```\nquokka_feed(habitat);\n```\n' },
  ]);
});

test('a member searches the item: ranked hits with a highlighted snippet; skip code blocks', async () => {
  const tp = await suite.open();
  await loginAs(tp, suite.fx.viewer);
  const { page } = tp;
  await page.goto(`${suite.server.url}/${GUIDE_DOMAIN}`);
  await waitForPage(page, 'Welcome');
  const box = page.getByRole('searchbox', { name: 'Search this item (Enter)' });
  await box.fill('quokka habitat');
  await box.press('Enter');
  await page.getByTestId('search-result').first().waitFor();
  // prose above code
  await expect(page.getByTestId('search-result').allTextContents()).resolves.toEqual([
    'Island notes',
    'Code notes',
  ]);
  const snippet = page.getByTestId('search-snippet').first();
  await expect(snippet.textContent()).resolves.toContain(
    'The habitat of the quokka is <b>Rottnest</b> island.',
  );
  await expect(snippet.locator('mark').allTextContents()).resolves.toEqual(['habitat', 'quokka']);
  await expect(snippet.locator('b').count()).resolves.toBe(0);

  await page.getByLabel('Skip code blocks').check();
  await page.waitForFunction(
    () => document.querySelectorAll('[data-testid="search-result"]').length === 1,
  );
  await expect(page.getByTestId('search-result').allTextContents()).resolves.toEqual([
    'Island notes',
  ]);

  await page.getByTestId('search-result').click();
  await waitForPage(page, 'Island notes');
});
