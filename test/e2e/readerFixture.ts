/**
 * Shared set-up of the reader e2e suites: the items they read (made through the model functions
 * the API uses), logging a browser profile in without the login form (the login form has its own
 * suite), and waiting for a page of the reader to be on screen.
 */
import { expect } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { browserSuite, SCREENSHOT_DIR, type BrowserSuite, type TestPage } from './helpers';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage, makePages, updatePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { Page as PageModel } from '../../models/pages/schemas/page';

export const GUIDE_DOMAIN = 'guide';
export const PRIVATE_PASSWORD = 'open-sesame';

export const WELCOME = [
  '# Welcome',
  '',
  'Start here. ' + 'This guide explains the service in detail. '.repeat(30),
  '',
  '## Install',
  '',
  'Install it. ' + 'Every step is described with care. '.repeat(40),
  '',
  '## Configure',
  '',
  '| Key | Default |',
  '|:--|:--|',
  '| port | 4999 |',
  '',
  '- [x] Downloaded',
  '- [ ] Configured',
  '',
  '### Details',
  '',
  'Fine print. ' + 'More words to make the page long enough to scroll. '.repeat(60),
  '',
  '## FAQ',
  '',
  'Questions and answers. ' + 'Answer text. '.repeat(80),
].join('\n');

export const RENDERING = [
  '# Rendering',
  '',
  '```js',
  'const answer = 42;',
  '```',
  '',
  'Inline math $E=mc^2$ here.',
  '',
  '$$',
  '\\int_0^1 x^2 \\, dx',
  '$$',
  '',
  '```mermaid',
  'graph TD',
  '  Start --> Finish',
  '```',
].join('\n');

export const API_DOC = JSON.stringify({
  info: {
    from: 'runapi',
    type: 'api',
    title: 'Login',
    description: 'Logs a user in',
    method: 'post',
    url: '/api/user/login',
    remark: '',
    apiStatus: '3',
  },
  request: {
    params: {
      mode: 'formdata',
      formdata: [
        { name: 'username', value: 'alice', type: 'string', require: '1', remark: 'Login name' },
      ],
    },
    headers: [],
    query: [],
    pathVariable: [],
  },
  response: {
    responseExample: '{"error_code":0}',
    responseParamsDesc: [{ name: 'error_code', type: 'int', remark: '0 is success' }],
  },
});

/** Every payload sets `window.__xss` if it ever runs. */
export const XSS_PAGE = [
  '# Hostile',
  '',
  '<script>window.__xss = "script"</script>',
  '',
  '<img src="/nothing-here.png" onerror="window.__xss = \'onerror\'">',
  '',
  "[javascript link](javascript:window.__xss='md-link')",
  '',
  '<a href="javascript:window.__xss=\'a-link\'" id="js-anchor">html javascript link</a>',
  '',
  '<svg width="20" height="20" onload="window.__xss=\'svg-onload\'"><script>window.__xss=\'svg-script\'</script><circle cx="10" cy="10" r="5"/></svg>',
  '',
  '<svg><a xlink:href="javascript:window.__xss=\'svg-link\'"><text x="0" y="15">svg link</text></a></svg>',
  '',
  '<iframe srcdoc="<script>parent.__xss=\'iframe\'</script>"></iframe>',
  '',
  '<details open ontoggle="window.__xss=\'details\'"><summary>toggle</summary>x</details>',
  '',
  '```mermaid',
  'graph TD',
  '  A["<img src=x onerror=window.__xss=1>"] --> B',
  '  click A "javascript:window.__xss=2"',
  '```',
  '',
  'The end.',
].join('\n');

export const WORKBOOK = JSON.stringify([
  {
    name: 'Prices',
    rows: {
      '0': { cells: { '0': { text: 'Plan' }, '1': { text: 'Price' } } },
      '1': { cells: { '0': { text: 'Basic' }, '1': { text: '10' } } },
    },
  },
  { name: 'Notes', rows: { '0': { cells: { '0': { text: 'Only notes' } } } } },
]);

export interface Fixture {
  owner: TestUser;
  editor: TestUser;
  viewer: TestUser;
  guide: {
    itemId: number;
    welcome: number;
    alpha: number;
    beta: number;
    gamma: number;
    rendering: number;
    apiDoc: number;
    xss: number;
    chapterA: number;
    sectionB: number;
    partC: number;
  };
  secret: { itemId: number; hidden: number };
  solo: { itemId: number; pageId: number };
  sheet: { itemId: number };
  blank: { itemId: number };
}

export async function makeFixture(): Promise<Fixture> {
  const owner = await makeUser({ name: 'Olive Owner' });
  const editor = await makeUser({ name: 'Eddie Editor' });
  const viewer = await makeUser({ name: 'Vera Viewer' });

  const { item_id: guideId } = await makeItem(owner, {
    item_name: 'Guide',
    item_domain: GUIDE_DOMAIN,
  });
  await addMember(guideId, editor, 1);
  await addMember(guideId, viewer, 0);
  const welcome = await makePage(owner, guideId, { title: 'Welcome', content: WELCOME });
  const chapterA = await makeCatalog(owner, guideId, 'Chapter A');
  const sectionB = await makeCatalog(owner, guideId, 'Section B', chapterA);
  const partC = await makeCatalog(owner, guideId, 'Part C', sectionB);
  const [alpha, rendering, apiDoc, beta, gamma] = await makePages(owner, guideId, [
    { title: 'Alpha page', content: '# Alpha\n\nThe alpha page.', catId: chapterA },
    { title: 'Rendering', content: RENDERING, catId: chapterA },
    { title: 'Login API', content: API_DOC, catId: chapterA },
    { title: 'Beta page', content: '# Beta\n\nThe beta page mentions zebra.', catId: sectionB },
    { title: 'Gamma page', content: '# Gamma\n\nDeep down.', catId: partC, customId: 'gamma' },
  ]);
  const xss = await makePage(owner, guideId, { title: 'Hostile', content: XSS_PAGE });

  const { item_id: secretId } = await makeItem(owner, {
    item_name: 'Secret',
    password: PRIVATE_PASSWORD,
  });
  const hidden = await makePage(owner, secretId, {
    title: 'Hidden page',
    content: '# Hidden\n\nOnly with the password.',
  });

  const { item_id: soloId } = await makeItem(owner, { item_name: 'Solo', item_type: 2 });
  const soloPage = await PageModel.findOne({ item_id: soloId }).lean();
  await updatePage(
    owner,
    { page_id: soloPage!.page_id, item_id: soloId },
    '# Solo\n\n## Part one\n\nText.\n\n## Part two\n\nMore.',
    'Solo',
  );

  const { item_id: sheetId } = await makeItem(owner, { item_name: 'Sheet', item_type: 4 });
  const sheetPage = await PageModel.findOne({ item_id: sheetId }).lean();
  await updatePage(owner, { page_id: sheetPage!.page_id, item_id: sheetId }, WORKBOOK, 'Sheet');

  const { item_id: blankId } = await makeItem(owner, { item_name: 'Blank' });
  return {
    owner,
    editor,
    viewer,
    guide: {
      itemId: guideId,
      welcome: welcome.page_id,
      alpha: alpha.page_id,
      beta: beta.page_id,
      gamma: gamma.page_id,
      rendering: rendering.page_id,
      apiDoc: apiDoc.page_id,
      xss: xss.page_id,
      chapterA,
      sectionB,
      partC,
    },
    secret: { itemId: secretId, hidden: hidden.page_id },
    solo: { itemId: soloId, pageId: soloPage!.page_id },
    sheet: { itemId: sheetId },
    blank: { itemId: blankId },
  };
}

/** Logs the profile of `tp` in as `user` (the stored login the app reads), before any page loads. */
/** A browser suite whose `fx` (the reader fixture's items, pages and users) is made in setup. */
export function readerSuite(): BrowserSuite & { fx: Fixture } {
  const suite = browserSuite({
    setup: async () => {
      suite.fx = await makeFixture();
    },
  }) as BrowserSuite & { fx: Fixture };
  return suite;
}

export async function loginAs(
  tp: TestPage,
  user: TestUser & { name?: string },
  name = '',
): Promise<void> {
  const userinfo = JSON.stringify({
    uid: String(user.uid),
    username: user.username,
    name,
    groupid: '2',
    user_token: user.user_token,
  });
  await tp.context.addInitScript((value) => {
    try {
      if (!localStorage.getItem('userinfo')) localStorage.setItem('userinfo', value);
    } catch {
      // about:blank of a new window has no storage of its own; the real page runs this again
    }
  }, userinfo);
}

/** Waits until the reader shows a page titled `title`. */
/** The Rendering page's code is highlighted, its two formulas typeset and its diagram drawn. */
export async function renderingDone(page: Page): Promise<void> {
  const md = page.getByTestId('markdown');
  await md.locator('code.language-js .hljs-keyword').first().waitFor();
  await expect(md.locator('.katex').count()).resolves.toBe(2);
  await md.locator('.md-mermaid[data-drawn="yes"] svg').waitFor();
  await expect(md.locator('.md-mermaid svg').textContent()).resolves.toContain('Finish');
}

export async function waitForPage(page: Page, title: string): Promise<void> {
  await page.locator('[data-testid="page-title"]', { hasText: title }).waitFor();
}

/**
 * Resolves with `read()`'s value once it equals `expected` (checked every 50 ms, for up to 30 s, as long as playwright waits);
 * else rejects with the last value seen — an eventual-consistency check, not a timing assertion.
 */
export async function eventually<T>(
  read: () => Promise<T> | T,
  expected: T,
  timeoutMs = 30_000,
): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: T;
  for (;;) {
    last = await read();
    if (JSON.stringify(last) === JSON.stringify(expected)) return last;
    if (Date.now() > until)
      throw new Error(`expected ${JSON.stringify(expected)}, still ${JSON.stringify(last)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** A screenshot of what is on screen (the reader's header and panels are fixed: a full-page shot would smear them). */
export async function shot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
}
