/**
 * Browser-test plumbing for the workspace e2e suites: one headless Chromium per test file (with
 * a desktop user agent — the server refuses HeadlessChrome), pages that record every console
 * error and uncaught exception, logging in through the real captcha form (the captcha's text is
 * read from the database of the server running in this process: the server has no bypass), and
 * screenshots under test-results/screenshots/ (gitignored).
 */
import { afterAll, afterEach, beforeAll, expect } from '@jest/globals';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { Captcha } from '../../models/accounts/schemas/captcha';
import { ROOT } from '../../server/paths';
import { MOTION_OFF_FLAG } from '../../web/motion';
import { webBuildIsStale } from '../../server/webBuild';
import { BROWSER_UA } from '../helpers/client';
import { startTestServer, type TestServer, type TestServerOptions } from '../helpers/server';
import type { TestUser } from '../helpers/users';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(ROOT, 'test-results', 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: apt-get update && apt-get install -y chromium`);
  await buildForProduction();
  return chromium.launch({
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
}

/**
 * `npm test` builds before jest; a direct jest run may find dist/ stale and builds it here, like
 * server/webBuild.ts does (staging folder, then swap) but with NODE_ENV=production set for the
 * child: under jest NODE_ENV is "test", which would give React and Ant Design development builds
 * (Ant Design then even fixes every generated id to "test-id"). Setting process.env here would not
 * help: jest gives the test its own copy, which child_process never sees.
 */
async function buildForProduction(): Promise<void> {
  if (!webBuildIsStale(ROOT)) return;
  const dist = path.join(ROOT, 'dist');
  const staging = `${dist}.building-${process.pid}`;
  const retired = `${dist}.old-${process.pid}`;
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        [
          path.join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'),
          'build',
          '--outDir',
          staging,
          '--emptyOutDir',
          '--logLevel',
          'warn',
        ],
        {
          cwd: ROOT,
          stdio: ['ignore', 'inherit', 'inherit'],
          env: { ...process.env, NODE_ENV: 'production' },
        },
      );
      child.once('error', reject);
      child.once('exit', (code) =>
        code === 0 ? resolve() : reject(new Error(`web build failed (${code})`)),
      );
    });
    if (fs.existsSync(dist)) fs.renameSync(dist, retired);
    fs.renameSync(staging, dist);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
    fs.rmSync(retired, { recursive: true, force: true });
  }
}

export interface TestPage {
  context: BrowserContext;
  page: Page;
  /** Console errors and uncaught exceptions seen so far (each with the URL it happened on). */
  errors: string[];
  close(): Promise<void>;
}

/**
 * A fresh browser profile (own storage) with one page. `ignore` lists console texts (followed by
 * ` (<resource URL>)` when the message names one) that a test
 * provokes on purpose. Ant Design's animations are off (web/motion.ts) unless `motion` is true:
 * a click then never lands on a menu or dialog that is still opening or closing.
 */
export async function openPage(
  browser: Browser,
  options: {
    locale?: string;
    viewport?: { width: number; height: number };
    ignore?: RegExp[];
    motion?: boolean;
  } = {},
): Promise<TestPage> {
  const context = await browser.newContext({
    userAgent: BROWSER_UA,
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  if (!options.motion)
    await context.addInitScript((flag) => {
      (window as unknown as Record<string, unknown>)[flag] = true;
    }, MOTION_OFF_FLAG);
  const page = await context.newPage();
  const errors: string[] = [];
  const ignored = (text: string) => (options.ignore ?? []).some((re) => re.test(text));
  // What a failed live-socket request was and what the server said (engine.io names its reason in
  // the body: unknown session, overlapping requests, wrong transport), joined to its console error.
  const failedSockets = new Map<string, string>();
  const withDetail = (entry: string, url: string) =>
    failedSockets.has(url) ? `${entry} — ${failedSockets.get(url)}` : entry;
  page.on('response', (response) => {
    if (response.status() < 400 || !response.url().includes('/socket.io/')) return;
    const url = response.url();
    void response
      .text()
      .catch(() => '')
      .then((body) => {
        failedSockets.set(url, `${response.request().method()} ${response.status()} ${body}`);
        const at = errors.findIndex((entry) => entry.endsWith(`(${url})`));
        if (at !== -1) errors[at] = withDetail(errors[at], url);
      });
  });
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    // "Failed to load resource" does not say which: the resource is the message's location.
    const source = message.location().url;
    const said = `${message.text()}${source && source !== page.url() ? ` (${source})` : ''}`;
    if (ignored(said)) return;
    errors.push(withDetail(`${page.url()}: ${said}`, source));
  });
  page.on('pageerror', (error) => errors.push(`${page.url()}: ${error.message}`));
  return { context, page, errors, close: () => context.close() };
}

/** The text of the captcha the form on `page` shows (read from the database by its id). */
export async function captchaAnswer(page: Page): Promise<string> {
  const image = page.getByRole('img', { name: 'Captcha picture' });
  await image.waitFor();
  const src = (await image.getAttribute('src')) ?? '';
  const id = Number(new URL(src, 'http://x').searchParams.get('captcha_id'));
  const row = await Captcha.findOne({ captcha_id: id }, { captcha: 1 }).lean();
  if (!row) throw new Error(`captcha ${id} is not in the database`);
  return row.captcha;
}

export async function fillCaptcha(page: Page): Promise<void> {
  await page.getByRole('textbox', { name: 'Captcha' }).fill(await captchaAnswer(page));
}

/** Logs in through /user/login and waits for the item list (or `expectPath`). */
export async function loginViaUi(
  page: Page,
  baseUrl: string,
  username: string,
  password: string,
  expectPath = '/item/index',
): Promise<void> {
  await page.goto(`${baseUrl}/user/login`);
  await page.getByRole('textbox', { name: 'Username' }).fill(username);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await fillCaptcha(page);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.waitForURL(`${baseUrl}${expectPath}`);
}

export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

/** Clicks the "…" menu of an item card and then one of its entries. */
export async function itemAction(
  page: Page,
  itemName: string,
  action: string,
  actionsFor = 'Actions for',
): Promise<void> {
  await page.getByRole('button', { name: `${actionsFor} ${itemName}`, exact: true }).click();
  // Entries are named "<icon> <label>": match the label at the end, case-sensitively.
  const label = action.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  await page.getByRole('menuitem', { name: new RegExp(`(^|\\s)${label}$`) }).click();
}

/** The item cards of the list, in screen order. */
export async function itemNames(page: Page): Promise<string[]> {
  return page
    .locator('[data-item-name]')
    .evaluateAll((rows) => rows.map((row) => row.getAttribute('data-item-name') ?? ''));
}

/** Drags `source` onto `target` with real mouse moves (dnd-kit's mouse sensor). */
export async function dragOnto(
  page: Page,
  source: ReturnType<Page['locator']>,
  target: ReturnType<Page['locator']>,
): Promise<void> {
  const from = await source.boundingBox();
  const to = await target.boundingBox();
  if (!from || !to) throw new Error('drag: element not visible');
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
  await page.mouse.down();
  // Past the 6 px activation distance first, then in steps so collision detection follows.
  await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2 + 10, { steps: 3 });
  await page.mouse.move(to.x + to.width / 2, to.y + to.height / 2 + (to.y > from.y ? 8 : -8), {
    steps: 12,
  });
  await page.mouse.up();
}

/** One test file's server and browser, and the pages its tests opened (filled in by beforeAll). */
export interface BrowserSuite {
  server: TestServer;
  browser: Browser;
  /** Every page a test opens goes here: afterEach closes them and fails on their console errors. */
  opened: TestPage[];
  /** Opens a page (openPage) and registers it in `opened`. */
  open(options?: Parameters<typeof openPage>[1]): Promise<TestPage>;
  /** Opens a page signed in as `user` (loginByUserToken) and waits until it shows `path`. */
  openAs(user: TestUser, path: string): Promise<Page>;
}

/**
 * Registers a browser suite's hooks: a server (silent logs) and a Chromium for the file, `setup`
 * after both are up; after each test every opened page is closed and none may have logged a
 * console error or thrown; at the end both are stopped and `teardown` runs.
 */
export function browserSuite(
  options: {
    setup?: (suite: BrowserSuite) => Promise<void>;
    teardown?: () => Promise<void> | void;
    timeoutMs?: number;
    /** Settings for the suite's server on top of the test defaults. */
    env?: TestServerOptions['env'];
  } = {},
): BrowserSuite {
  const suite = {
    opened: [] as TestPage[],
    async open(pageOptions?: Parameters<typeof openPage>[1]) {
      const tp = await openPage(suite.browser, pageOptions);
      suite.opened.push(tp);
      return tp;
    },
    async openAs(user: TestUser, path: string) {
      const { page } = await suite.open();
      await page.goto(
        `${suite.server.url}/user/loginByUserToken?user_token=${user.user_token}&redirect_uri=${encodeURIComponent(path)}`,
      );
      await page.waitForURL(`${suite.server.url}${path}`);
      return page;
    },
  } as unknown as BrowserSuite;
  beforeAll(async () => {
    suite.server = await startTestServer({ env: { LOG_LEVEL: 'silent', ...options.env } });
    suite.browser = await launchBrowser();
    await options.setup?.(suite);
  }, options.timeoutMs ?? 180_000);
  afterEach(async () => {
    const errors = suite.opened.flatMap((tp) => tp.errors);
    await Promise.all(suite.opened.splice(0).map((tp) => tp.close()));
    expect(errors).toEqual([]);
  });
  afterAll(async () => {
    await suite.browser?.close();
    await suite.server?.stop();
    await options.teardown?.();
  });
  return suite;
}
