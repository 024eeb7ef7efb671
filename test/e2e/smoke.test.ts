/**
 * Browser smoke test: a real Chromium opens the built web app served by a running Quire, sees
 * the landing page, follows the login link (client-side route), and loads a deep link directly.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { ROOT } from '../../scripts/paths';
import { ensureWebBuilt } from '../../scripts/webBuild';
import { BROWSER_UA } from '../helpers/client';
import { startTestServer, type TestServer } from '../helpers/server';

const CHROMIUM = '/usr/bin/chromium';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium`);
  await ensureWebBuilt(ROOT, () => {}); // npm test has built it; a direct jest run may not have
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

test('the landing page says Quire and its login link opens /user/login', async () => {
  expect(fs.existsSync(path.join(ROOT, 'dist', 'index.html'))).toBe(true);
  const context = await browser.newContext({ userAgent: BROWSER_UA, locale: 'en-US' });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(server.url + '/');
  // The start page is its own chunk: wait for it to render (isVisible does not wait).
  const heading = page.getByRole('heading', { name: 'Quire', level: 1 });
  await heading.waitFor();
  await expect(heading.isVisible()).resolves.toBe(true);
  expect(await page.title()).toBe('Quire');

  await page.getByRole('link', { name: 'Log in' }).click();
  await page.waitForURL(`${server.url}/user/login`);
  await page.getByRole('heading', { name: 'Log in' }).waitFor();

  // A deep link loaded directly comes back from the server's SPA fallback.
  await page.goto(server.url + '/no/such/screen');
  await page.getByText('Page not found').waitFor();
  expect(errors).toEqual([]);
  await context.close();
});

test('the interface follows the browser language (Chinese)', async () => {
  const context = await browser.newContext({ userAgent: BROWSER_UA, locale: 'zh-CN' });
  const page = await context.newPage();
  await page.goto(server.url + '/');
  // antd spaces out two-character CJK button labels ("登 录").
  await page.getByRole('link', { name: /^登\s?录$/ }).waitFor();
  expect(await page.evaluate(() => document.documentElement.lang)).toBe('zh-cn');
  await context.close();
});
