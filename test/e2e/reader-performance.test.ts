/**
 * The reader's weight and speed, reported (not asserted: speed is never a test condition here):
 * the JavaScript a visitor's browser downloads to show a page of a 1,000-page item, gzipped, and
 * its first contentful paint. What is asserted is the code split itself: the reader route loads
 * no workspace, editor, admin, spreadsheet, diagram or math code for a plain page; and the
 * delivery: the scripts arrive as the build's brotli copies.
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

test('reports reader JS (gzip) and first contentful paint for a page of a 1,000-page item; loads no other screen code', async () => {
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
  for (const run of runs)
    expect(run.scripts.map((s) => s.url).filter((u) => NOT_READER.test(u))).toEqual([]);
  // Chromium accepts brotli: every script the build compressed (all but the tiniest) arrives so.
  const sentPlain = median.scripts.filter((s) => s.bytes > 1024 && s.encoding !== 'br');
  expect(sentPlain).toEqual([]);
}, 300_000);
