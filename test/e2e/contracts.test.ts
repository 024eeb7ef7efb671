/**
 * Live API contracts in the browser: a manager follows an OpenAPI URL (served by a local server,
 * allowed by ALLOW_PRIVATE_HOSTS) from the item's import dialog and checks it now — the first
 * version becomes the API pages; the API then changes, "check now" shows the new version's diff
 * with its breaking changes first, and the reader shows "Changed in v1.4.0 — breaking" on the
 * page of the endpoint whose parameter became required (and no mark on an unchanged page).
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { makeItem } from '../helpers/factories';
import { makeUser } from '../helpers/users';
import { browserSuite, screenshot } from './helpers';

const fixture = (name: string) =>
  readFileSync(path.join(__dirname, '../fixtures/contracts', name), 'utf8');
let served = fixture('petstore-v1.json');
let spec: http.Server;
let specUrl = '';

beforeAll(async () => {
  spec = http.createServer((_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.end(served);
  });
  await new Promise<void>((resolve) => spec.listen(0, '127.0.0.1', resolve));
  specUrl = `http://127.0.0.1:${(spec.address() as AddressInfo).port}/openapi.json`;
});

afterAll(async () => {
  await new Promise((resolve) => spec.close(resolve));
});

// The scheduler looks once at start and then hourly: only "check now" fetches in this test.
const suite = browserSuite({
  env: { ALLOW_PRIVATE_HOSTS: '127.0.0.1', CONTRACT_POLL_SECONDS: '3600' },
});

/** Opens an entry of the reader's manager menu (retrying a click swallowed by its animation). */
async function manage(page: Page, entry: string, dialogTitle: string) {
  const dialog = page.locator('.ant-modal', { hasText: dialogTitle });
  for (let attempt = 0; ; attempt++) {
    await page.getByTestId('manage-menu').click();
    await page.getByRole('menuitem', { name: entry }).click();
    try {
      await dialog.waitFor({ timeout: 10_000 });
      return dialog;
    } catch (error) {
      if (attempt >= 2) throw error;
    }
  }
}

test('follow a URL in the import dialog, check now, and the reader shows the breaking mark', async () => {
  const owner = await makeUser();
  const { item_id: itemId } = await makeItem(owner, { item_name: 'Petstore' });
  const page = await suite.openAs(owner, `/${itemId}`);

  const dialog = await manage(page, 'Import', 'Import into this item');
  const follow = dialog.getByTestId('follow-contract');
  await follow.getByText('Follow an OpenAPI URL').waitFor();
  await follow.getByTestId('contract-url').fill(specUrl);
  await follow.getByTestId('contract-save').click();
  await follow.getByRole('button', { name: 'Stop following' }).waitFor();
  await follow.getByTestId('contract-check').click();
  await follow
    .getByTestId('contract-status')
    .getByText('First version 1.0.11 imported')
    .waitFor({ timeout: 30_000 });

  // The API changes; "check now" shows the diff, breaking first.
  served = fixture('petstore-v2.json');
  await follow.getByTestId('contract-check').click();
  await follow
    .getByTestId('contract-status')
    .getByText('New version 1.4.0')
    .waitFor({ timeout: 30_000 });
  const diff = follow.getByTestId('contract-last-diff');
  await diff.getByText('Changes 1.0.11 → 1.4.0: 4 breaking of 17').waitFor();
  const rows = diff.locator('li');
  expect(await rows.first().getAttribute('data-breaking')).toBe('yes');
  expect(await rows.nth(3).getAttribute('data-breaking')).toBe('yes');
  expect(await rows.nth(4).getAttribute('data-breaking')).toBe('no');
  await diff.getByText('Parameter now required').waitFor();
  await screenshot(page, 'contracts-follow');
  await page.keyboard.press('Escape');

  // The reader: the changed endpoint's page carries the mark, an unchanged one does not.
  const api = suite.server.api.withToken(owner.user_token);
  const info = await api.ok<{
    menu: { catalogs: { cat_name: string; pages: { page_id: string; page_title: string }[] }[] };
  }>('item/info', { item_id: itemId });
  const pageOf = (cat: string, title: string) =>
    info.menu.catalogs.find((c) => c.cat_name === cat)!.pages.find((p) => p.page_title === title)!
      .page_id;
  await page.goto(`${suite.server.url}/${itemId}/${pageOf('pet', 'Finds Pets by status')}`);
  const mark = page.getByTestId('contract-mark');
  await mark.getByText('Changed in v1.4.0 — breaking').waitFor();
  expect(await mark.getAttribute('data-breaking')).toBe('yes');
  await mark.getByRole('button', { name: 'Show changes' }).click();
  await mark.getByText('Parameter now required').waitFor();
  await screenshot(page, 'contracts-reader-mark');

  const asked = page.waitForResponse((r) => r.url().includes('apiContract/mark'));
  const logout = pageOf('user', 'Logs out current logged in user session');
  await page.goto(`${suite.server.url}/${itemId}/${logout}`);
  await asked;
  await page
    .getByTestId('page-title')
    .getByText('Logs out current logged in user session')
    .waitFor();
  expect(await page.getByTestId('contract-mark').count()).toBe(0);
});
