/**
 * Reader measurements (issue "Web: reading"): the JavaScript a browser downloads to show a page
 * of a 1,000-page item (bytes, and gzip bytes computed here at level 9 — the server sends the
 * build's brotli copies, which are smaller still, so gzip is the conservative figure and the one
 * the goals are stated in) and the paint times (first contentful
 * paint, and the moment the page's title is on screen).
 *
 * `npx tsx scripts/measure-reader.ts` builds the web app when stale, starts a throw-away Quire
 * (temporary data directory, random port), makes the item, and opens one of its pages in headless
 * Chromium as an anonymous visitor and as a logged-in member; each figure is the median of 5 cold
 * loads. The reader e2e test imports the fixture and the measurement from here.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type Page,
  type Response,
} from 'playwright-core';
import type { Actor } from '../models/access';
import { saveCatalog } from '../models/catalogs';
import { loadConfig, createLogger } from '../models/platform';
import { createItem } from '../models/items';
import { savePage } from '../models/pages';
import { createUser, issueToken } from '../models/accounts';
import { ROOT } from '../server/paths';
import { startQuire } from '../server/quire';
import { ensureWebBuilt } from '../server/webBuild';

// ------------------------------------------------------------------------------------------------
// The 1,000-page item: realistic Markdown (headings, a table, code, a list) in 40 top-level
// catalogs with a sub-catalog each, made through the model functions the API uses.

export const LARGE_ITEM_PAGES = 1000;
const TOP_CATALOGS = 40;

export function samplePage(n: number): string {
  return [
    `# Endpoint ${n}`,
    '',
    `Describes operation number ${n} of the service, its parameters and answers.`,
    '',
    '## Request',
    '',
    '| Name | Required | Type | Remark |',
    '|:---|:---|:---|:---|',
    '| user_id | yes | int | The user |',
    '| token | yes | string | Session token |',
    '| page | no | int | Page number, from 1 |',
    '',
    '## Example',
    '',
    '```json',
    `{ "error_code": 0, "data": { "id": ${n}, "name": "item ${n}", "tags": ["a", "b"] } }`,
    '```',
    '',
    '## Notes',
    '',
    '- Rate limited to 10 calls a second.',
    '- Answers are cached for a minute.',
    '- [x] Documented',
    '',
    'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(8),
  ].join('\n');
}

export interface LargeItem {
  itemId: number;
  /** page ids in creation order */
  pageIds: number[];
}

export async function makeLargeItem(owner: Actor, name = 'Large handbook'): Promise<LargeItem> {
  const { item_id: itemId } = await createItem(owner, { item_name: name, item_type: 1 });
  const catalogs: number[] = [];
  for (let c = 0; c < TOP_CATALOGS; c++) {
    const top = await saveCatalog(owner, {
      itemId,
      catId: 0,
      catName: `Chapter ${c + 1}`,
      parentCatId: 0,
      sNumber: c,
    });
    const sub = await saveCatalog(owner, {
      itemId,
      catId: 0,
      catName: `Details ${c + 1}`,
      parentCatId: top,
      sNumber: 99,
    });
    catalogs.push(top, sub);
  }
  const pageIds: number[] = [];
  for (let n = 1; n <= LARGE_ITEM_PAGES; n++) {
    const { page } = await savePage(
      owner,
      {
        pageId: 0,
        itemId,
        title: `Endpoint ${n}`,
        content: samplePage(n),
        catId: catalogs[n % catalogs.length],
      },
      { origin: 'rest' },
    );
    pageIds.push(page.page_id);
  }
  return { itemId, pageIds };
}

// ------------------------------------------------------------------------------------------------
// Measuring one page load in Chromium

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
/** A normal desktop browser (the server refuses crawler user agents, HeadlessChrome included). */
export const DESKTOP_UA =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

export interface ScriptFile {
  /** Path on the server, e.g. /assets/index-C3wsCnQh.js */
  url: string;
  bytes: number;
  gzipBytes: number;
  /** The Content-Encoding the server sent it with (undefined: plain). */
  encoding?: string;
}

export interface ScriptTotals {
  /** Script files downloaded until the page settled. */
  scripts: ScriptFile[];
  jsBytes: number;
  jsGzipBytes: number;
}

/**
 * Records every script `page` downloads from now on; the returned function waits for their bodies
 * (decoded) and sums them, plain and gzipped at level 9.
 */
export function recordScripts(page: Page): () => Promise<ScriptTotals> {
  const pending: Promise<ScriptFile>[] = [];
  const record = (response: Response) => {
    if (response.request().resourceType() !== 'script') return;
    const encoding = response.headers()['content-encoding'];
    pending.push(
      response.body().then((body) => ({
        url: new URL(response.url()).pathname,
        bytes: body.length,
        gzipBytes: gzipSync(body, { level: 9 }).length,
        encoding,
      })),
    );
  };
  page.on('response', record);
  return async () => {
    // What arrives after this (a highlighter language a code block asks for once the page is
    // idle) is not part of the figure, and its body would be read after the page has closed.
    page.off('response', record);
    const scripts = await Promise.all(pending);
    return {
      scripts,
      jsBytes: scripts.reduce((sum, s) => sum + s.bytes, 0),
      jsGzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0),
    };
  };
}

/**
 * A browser profile in which `user` is logged in the way the web app keeps a login (its token in
 * localStorage), for `browser.newContext({ storageState })`: no login round trip to measure.
 */
export function loggedInState(
  origin: string,
  user: { uid: number; username: string },
  token: string,
): NonNullable<BrowserContextOptions['storageState']> {
  const userinfo = JSON.stringify({
    uid: String(user.uid),
    username: user.username,
    name: '',
    groupid: '2',
    user_token: token,
  });
  return {
    cookies: [],
    origins: [{ origin, localStorage: [{ name: 'userinfo', value: userinfo }] }],
  };
}

export interface ReaderFigures extends ScriptTotals {
  /** First contentful paint (ms from navigation start). */
  fcpMs: number;
  /** When the page's title element appeared (ms from navigation start). */
  contentMs: number;
}

export async function measureReader(
  browser: Browser,
  url: string,
  context: BrowserContextOptions = {},
): Promise<ReaderFigures> {
  const ctx = await browser.newContext({
    userAgent: DESKTOP_UA,
    viewport: { width: 1280, height: 800 },
    ...context,
  });
  try {
    await ctx.addInitScript(() => {
      const w = window as unknown as { __contentAt?: number };
      new MutationObserver((_records, observer) => {
        if (document.querySelector('[data-testid="page-title"]')) {
          w.__contentAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    const page = await ctx.newPage();
    const downloaded = recordScripts(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.locator('[data-testid="page-title"]').waitFor();
    await page.waitForLoadState('networkidle');
    const times = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        fcpMs: fcp ? fcp.startTime : -1,
        contentMs: (window as unknown as { __contentAt?: number }).__contentAt ?? -1,
      };
    });
    return { ...(await downloaded()), ...times };
  } finally {
    await ctx.close();
  }
}

export function describeFigures(label: string, figures: ReaderFigures): string {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
  return [
    `${label}: reader JS ${kb(figures.jsGzipBytes)} gzip (${kb(figures.jsBytes)} raw, ${figures.scripts.length} files); ` +
      `first contentful paint ${figures.fcpMs.toFixed(0)} ms; page content on screen ${figures.contentMs.toFixed(0)} ms`,
    ...figures.scripts
      .sort((a, b) => b.gzipBytes - a.gzipBytes)
      .map((s) => `    ${kb(s.gzipBytes).padStart(10)}  ${s.url}`),
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------
// The command

const RUNS = 5;

function median(figures: ReaderFigures[]): ReaderFigures {
  const sorted = [...figures].sort((a, b) => a.fcpMs - b.fcpMs);
  const mid = sorted[Math.floor(sorted.length / 2)];
  const contents = figures.map((f) => f.contentMs).sort((a, b) => a - b);
  return { ...mid, contentMs: contents[Math.floor(contents.length / 2)] };
}

export interface MeasureSession {
  /** http://127.0.0.1:<port> */
  origin: string;
  browser: Browser;
  /** Closes the browser, stops the server and deletes its data directory. */
  close(): Promise<void>;
}

/**
 * Builds the web app when stale, then starts a throw-away Quire in this process (temporary data
 * directory, random port, silent logs; the models then write to its database directly) and a
 * headless Chromium. Shared with scripts/measure-editor.ts.
 */
export async function openMeasureSession(print: (text: string) => void): Promise<MeasureSession> {
  await ensureWebBuilt(ROOT, print);
  const dataDir = await mkdtemp(path.join(tmpdir(), 'quire-measure-'));
  const quire = await startQuire(
    loadConfig({ PORT: '0', HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'silent' }),
    { logger: createLogger({ level: 'silent' }), print: () => {} },
  );
  const stopServer = async () => {
    await quire.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
  let browser: Browser;
  try {
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  } catch (error) {
    await stopServer();
    throw error;
  }
  return {
    origin: `http://127.0.0.1:${quire.port}`,
    browser,
    async close() {
      await browser.close();
      await stopServer();
    },
  };
}

async function main(): Promise<void> {
  const { origin, browser, close } = await openMeasureSession((text) =>
    process.stdout.write(`${text}\n`),
  );
  try {
    const owner = await createUser({ username: 'measure_owner', password: 'measure-pass-1' });
    const actor = { uid: owner.uid, username: owner.username, groupid: 2 };
    process.stdout.write('Making a 1,000-page item…\n');
    const item = await makeLargeItem(actor);
    const pageId = item.pageIds[Math.floor(item.pageIds.length / 2)];
    const url = `${origin}/${item.itemId}/${pageId}`;

    const anonymous: ReaderFigures[] = [];
    for (let i = 0; i < RUNS; i++) anonymous.push(await measureReader(browser, url));
    process.stdout.write(`${describeFigures('Anonymous visitor', median(anonymous))}\n`);

    const { token } = await issueToken(owner.uid, { ip: '127.0.0.1' });
    const storageState = loggedInState(origin, owner, token);
    const member: ReaderFigures[] = [];
    for (let i = 0; i < RUNS; i++)
      member.push(await measureReader(browser, url, { storageState, userAgent: DESKTOP_UA }));
    process.stdout.write(`${describeFigures('Logged-in owner', median(member))}\n`);
  } finally {
    await close();
  }
}

const invokedDirectly =
  !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly)
  main().catch((error: unknown) => {
    process.stderr.write(
      `${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
    );
    process.exit(1);
  });
