/**
 * The reader's weight and speed, reported: the JavaScript a visitor's browser downloads to show a
 * page of a 1,000-page item, gzipped, and its first contentful paint (speed is never a test
 * condition here). What is asserted is the weight's bound and the code split itself: the reader
 * route loads no workspace, editor, admin, spreadsheet, diagram or math code for a plain page, and
 * an anonymous visitor none of what only use or a login brings (dialogs, toasts, menus, the form
 * engine, members' header icons, live notes, the catalogue's non-reader sections); and the delivery: the scripts arrive as the build's
 * brotli copies.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import type { Browser } from 'playwright-core';
import {
  describeFigures,
  makeLargeItem,
  measureReader,
  type ReaderFigures,
} from '../../scripts/measure-reader';
import { actorOf } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';
import { launchBrowser } from './helpers';

let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** Chunks that belong to other screens (file names come from the modules Vite named them after). */
const NOT_READER =
  /ItemListPage|WorkspaceLayout|AdminEntry|LoginPage|RegisterPage|TeamListPage|AttachmentsPage|SpreadsheetView|handsontable|exceljs|EditorRoute|CatalogManager|DiffPage|codemirror|mermaid|katex|cytoscape/i;

/**
 * Loaded on first use or for a login only (issue #22). Chunk names come from the modules Vite
 * named them after: our own modules, antd's modal and notification hooks (its App), the form
 * engine (@rc-component/form), the dropdown (and with it the menu), the catalogue's other part,
 * the reader's dialog host.
 */
const NOT_ANONYMOUS =
  /FeedbackHost|ReaderDialogs|HeaderMemberActions|LiveNotes|LiveShell|UnreadProvider|useModal|useNotification|useForm|\/dropdown-|catalogue-[a-z_]+-rest/;

/**
 * The anonymous reader's JavaScript, gzip: issue #22's goal (418 KiB before the light-delivery
 * work, 336 KiB before the entry's and the reader's code were grouped into a few chunks).
 */
const READER_JS_BOUND = 300 * 1024;

test('reports reader JS (gzip, within its bound) and first contentful paint for a page of a 1,000-page item; loads no other screen code, nor what an anonymous visitor does not use', async () => {
  const owner = await makeUser();
  const item = await makeLargeItem(await actorOf(owner));
  expect(item.pageIds).toHaveLength(1000);
  const url = `${server.url}/${item.itemId}/${item.pageIds[500]}`;

  const runs: ReaderFigures[] = [];
  for (let i = 0; i < 3; i++) runs.push(await measureReader(browser, url));
  const median = [...runs].sort((a, b) => a.fcpMs - b.fcpMs)[1];
  process.stdout.write(
    `\n${describeFigures('Reader, 1,000-page item, anonymous (median of 3)', median)}\n\n`,
  );

  expect(median.jsGzipBytes).toBeGreaterThan(0);
  expect(median.fcpMs).toBeGreaterThan(0);
  expect(median.jsGzipBytes).toBeLessThanOrEqual(READER_JS_BOUND);
  for (const run of runs) {
    expect(run.scripts.map((s) => s.url).filter((u) => NOT_READER.test(u))).toEqual([]);
    expect(run.scripts.map((s) => s.url).filter((u) => NOT_ANONYMOUS.test(u))).toEqual([]);
  }
  // Chromium accepts brotli: every script the build compressed (all but the tiniest) arrives so.
  const sentPlain = median.scripts.filter((s) => s.bytes > 1024 && s.encoding !== 'br');
  expect(sentPlain).toEqual([]);
}, 300_000);
