/**
 * Browser smoke test: a real Chromium opens the built web app served by a running Quire, sees
 * the landing page, follows the login link (client-side route), and loads a deep link directly.
 */
import { expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../../server/paths';
import { BROWSER_UA } from '../helpers/client';
import { browserSuite } from './helpers';

// Contexts made here directly (not openPage): the app as a person's browser gets it.
const suite = browserSuite();

test('the landing page says Quire and its login link opens /user/login', async () => {
  expect(fs.existsSync(path.join(ROOT, 'dist', 'index.html'))).toBe(true);
  const context = await suite.browser.newContext({ userAgent: BROWSER_UA, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(suite.server.url + '/');
  // The start page is its own chunk: wait for it to render (isVisible does not wait).
  const heading = page.getByRole('heading', { name: 'Quire', level: 1 });
  await heading.waitFor();
  await expect(heading.isVisible()).resolves.toBe(true);
  expect(await page.title()).toBe('Quire');

  await page.getByRole('link', { name: 'Log in' }).click();
  await page.waitForURL(`${suite.server.url}/user/login`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();

  // A deep link loaded directly comes back from the server's SPA fallback.
  await page.goto(suite.server.url + '/no/such/screen');
  await page.getByText('Page not found').waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

test('the interface follows the browser language (Chinese)', async () => {
  const context = await suite.browser.newContext({ userAgent: BROWSER_UA, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(suite.server.url + '/');
  // antd spaces out two-character CJK button labels ("登 录").
  await page.getByRole('link', { name: /^登\s?录$/ }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-cn');
  await context.close();
});
