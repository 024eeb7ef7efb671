/**
 * The public square on the start page in a real browser: absent while the admin setting is off;
 * on, it lists the open items (never one with a visit password) and searches them, and an entry
 * opens the item. No console errors.
 */
import { expect, test } from '@jest/globals';
import { setSettings } from '../../models/settings';
import { makeItem } from '../helpers/factories';
import { makeUser } from '../helpers/users';
import { browserSuite } from './helpers';

const suite = browserSuite();

test('the start page lists and searches open items only when the square is on', async () => {
  const owner = await makeUser();
  await makeItem(owner, { item_name: 'Open cookbook', item_description: 'Recipes for all' });
  await makeItem(owner, { item_name: 'Open garden board', item_type: 5 });
  await makeItem(owner, { item_name: 'Open vault', password: 'hidden' });

  const { page } = await suite.open();
  await page.goto(`${suite.server.url}/`);
  await page.getByText('Documentation your team writes together, live.').waitFor();
  expect(await page.getByTestId('public-square').count()).toBe(0);

  await setSettings({ enable_public_square: '1' });
  await page.reload();
  const square = page.getByTestId('public-square');
  await square.getByText('Open cookbook').waitFor();
  await square.getByText('Open garden board').waitFor();
  await square.getByText('Whiteboard').waitFor();
  expect(await square.getByText('Open vault').count()).toBe(0);

  await page.getByTestId('public-square-search').locator('input').fill('recipes');
  await page.keyboard.press('Enter');
  await square.getByText('Open garden board').waitFor({ state: 'detached' });
  expect(await square.getByTestId('public-square-item').count()).toBe(1);

  await square.getByRole('link', { name: 'Open cookbook' }).click();
  await page.waitForURL(/\/\d+$/);
  await setSettings({ enable_public_square: '0' });
});
