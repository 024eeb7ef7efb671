/**
 * Spreadsheet item measurements (spec 002 §2, §4): how heavy the spreadsheet view is to open and
 * how fast a saved cell reaches someone watching.
 *
 * 1. Opening: cold loads of a 50 × 10 workbook by a member (fresh browser profile each) until the
 *    grid shows; the JavaScript downloaded (gzip, counted as measure-reader does) and the part
 *    that is the spreadsheet's own chunk (Handsontable and the view), which no other screen loads.
 * 2. A cell change reaching a viewer: the lock holder types into a cell and presses Enter; timed
 *    from the Enter until the viewer's grid shows the text. This includes the view's save
 *    debounce (SAVE_DEBOUNCE_MS), the `page/save` round trip and the `sheet:changed` push.
 *
 * `npx tsx scripts/measure-sheet.ts [--quick]` prints a table; `measureSheet()` is the spreadsheet
 * section of `npm run bench`. Speed is measured here, never asserted.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import type { Actor } from '../models/access';
import { createUser, issueToken } from '../models/accounts';
import { createItem } from '../models/items';
import { addMembers } from '../models/members';
import { Page as PageModel, savePage } from '../models/pages';
import { SAVE_DEBOUNCE_MS } from '../web/features/sheet/sheetStore';
import { LatencyLog } from './bench/stats';
import {
  DESKTOP_UA,
  loggedInState,
  openMeasureSession,
  recordScripts,
  type ScriptTotals,
} from './measure-reader';

export interface SheetFigures {
  generatedAt: string;
  quick: boolean;
  open: {
    runs: number;
    readyP50Ms: number;
    readyMaxMs: number;
    js: ScriptTotals;
    sheetOnly: ScriptTotals;
  };
  cellChange: {
    samples: number;
    p50Ms: number;
    p90Ms: number;
    maxMs: number;
    missed: number;
    debounceMs: number;
  };
}

const GRID_ROW = '[data-testid="sheet-grid"] .ht_master tbody tr';
const DELIVERY_TIMEOUT_MS = 10_000;
/** The spreadsheet's own chunk (named after the view's module by the build). */
const SHEET_CHUNK = /SpreadsheetView/;

function workbook(rows: number, cols: number): string {
  const sheetRows: Record<string, unknown> = {};
  for (let r = 0; r < rows; r++) {
    const cells: Record<string, { text: string }> = {};
    for (let c = 0; c < cols; c++) cells[c] = { text: `r${r + 1}c${c + 1}` };
    sheetRows[r] = { cells };
  }
  return JSON.stringify([{ name: 'sheet1', rows: { ...sheetRows, len: 800 } }]);
}

async function fixture(origin: string) {
  const loggedIn = async (username: string) => {
    const user = await createUser({ username, password: 'measure-pass-1' });
    const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
    const actor: Actor = { uid: user.uid, username: user.username, groupid: 2 };
    return { actor, state: loggedInState(origin, user, token) };
  };
  const owner = await loggedIn('sheet_owner');
  const viewer = await loggedIn('sheet_viewer');
  const { item_id: itemId } = await createItem(owner.actor, {
    item_name: 'Sheet measurement',
    item_type: 4,
  });
  await addMembers(owner.actor, itemId, { usernames: [viewer.actor.username], member_group_id: 0 });
  const page = await PageModel.findOne({ item_id: itemId }, { page_id: 1 }).lean();
  await savePage(
    owner.actor,
    { pageId: page!.page_id, itemId, title: 'Sheet measurement', content: workbook(50, 10) },
    { origin: 'rest' },
  );
  return { url: `${origin}/${itemId}`, owner: owner.state, viewer: viewer.state };
}

type State = Awaited<ReturnType<typeof fixture>>['owner'];

async function openIn(browser: Browser, state: State): Promise<Page> {
  const context = await browser.newContext({
    userAgent: DESKTOP_UA,
    viewport: { width: 1280, height: 800 },
    storageState: state,
  });
  return context.newPage();
}

/** The rows the cell changes cycle through: all within the first screen of the grid. */
const CHANGED_ROWS = 10;

const cellText = (page: Page, row: number) => page.locator(GRID_ROW).nth(row).locator('td').first();

export async function measureSheet(
  options: {
    quick?: boolean;
    log?: (line: string) => void;
    /** Cold opens and timed cell changes (default 5 and 30, quick 3 and 10). */
    sizes?: { openRuns: number; changes: number };
  } = {},
): Promise<SheetFigures> {
  const log = options.log ?? (() => {});
  const quick = !!options.quick;
  const runs = options.sizes?.openRuns ?? (quick ? 3 : 5);
  const changes = options.sizes?.changes ?? (quick ? 10 : 30);
  const session = await openMeasureSession(log);
  try {
    const fx = await fixture(session.origin);
    log(`opening ×${runs}…`);
    const opens: Array<{ readyMs: number; js: ScriptTotals }> = [];
    for (let i = 0; i < runs; i++) {
      const page = await openIn(session.browser, fx.viewer);
      const scripts = recordScripts(page);
      const started = Date.now();
      await page.goto(fx.url);
      await page.locator(GRID_ROW).first().waitFor();
      opens.push({ readyMs: Date.now() - started, js: await scripts() });
      await page.context().close();
    }
    const ready = opens.map((o) => o.readyMs).sort((a, b) => a - b);
    const js = opens[0].js;
    const own = js.scripts.filter((s) => SHEET_CHUNK.test(s.url));
    const sheetOnly: ScriptTotals = {
      scripts: own,
      jsBytes: own.reduce((n, s) => n + s.bytes, 0),
      jsGzipBytes: own.reduce((n, s) => n + s.gzipBytes, 0),
    };

    log(`cell changes ×${changes}…`);
    const editor = await openIn(session.browser, fx.owner);
    await editor.goto(fx.url);
    await editor.getByTestId('sheet-editing').waitFor();
    const viewer = await openIn(session.browser, fx.viewer);
    await viewer.goto(fx.url);
    await viewer.locator(GRID_ROW).first().waitFor();
    const latencies = new LatencyLog();
    let missed = 0;
    for (let i = 0; i < changes; i++) {
      // Rows the grid renders without scrolling: Handsontable draws only the rows in view, so
      // once it scrolls (Enter moves down a row) the n-th <tr> is no longer row n.
      const row = i % CHANGED_ROWS;
      const text = `v${i}-${Date.now() % 100000}`;
      await cellText(editor, row).click();
      await editor.keyboard.type(text);
      const started = Date.now();
      await editor.keyboard.press('Enter');
      try {
        await cellText(viewer, row)
          .filter({ hasText: text })
          .waitFor({ timeout: DELIVERY_TIMEOUT_MS });
        latencies.add(Date.now() - started);
      } catch {
        missed++;
      }
    }
    await editor.context().close();
    await viewer.context().close();
    const summary = latencies.summary();
    return {
      generatedAt: new Date().toISOString(),
      quick,
      open: {
        runs,
        readyP50Ms: ready[Math.floor(ready.length / 2)],
        readyMaxMs: ready[ready.length - 1],
        js,
        sheetOnly,
      },
      cellChange: {
        samples: changes - missed,
        p50Ms: summary.p50Ms,
        p90Ms: summary.p90Ms,
        maxMs: summary.maxMs,
        missed,
        debounceMs: SAVE_DEBOUNCE_MS,
      },
    };
  } finally {
    await session.close();
  }
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;

export function formatSheetFigures(f: SheetFigures): string {
  const { open, cellChange: c } = f;
  return [
    `### Spreadsheet item (Chromium, 50 × 10 workbook${f.quick ? ', quick' : ''})`,
    '',
    '| measurement | p50 ms | p90 ms | max ms | samples | notes |',
    '|---|---:|---:|---:|---:|---|',
    `| open, cold, until the grid shows | ${open.readyP50Ms} | – | ${open.readyMaxMs} | ${open.runs} | |`,
    `| cell Enter → viewer's grid | ${c.p50Ms} | ${c.p90Ms} | ${c.maxMs} | ${c.samples} | includes the ${c.debounceMs} ms save debounce${c.missed ? `; **${c.missed} never arrived**` : ''} |`,
    '',
    '| JavaScript on opening | gzip | raw | files |',
    '|---|---:|---:|---:|',
    `| everything | ${kib(open.js.jsGzipBytes)} | ${kib(open.js.jsBytes)} | ${open.js.scripts.length} |`,
    `| the spreadsheet's own chunk | ${kib(open.sheetOnly.jsGzipBytes)} | ${kib(open.sheetOnly.jsBytes)} | ${open.sheetOnly.scripts.length} |`,
  ].join('\n');
}

const invokedDirectly =
  !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly)
  measureSheet({
    quick: process.argv.includes('--quick'),
    log: (line) => process.stderr.write(`${line}\n`),
  }).then(
    (figures) => {
      process.stdout.write(`${formatSheetFigures(figures)}\n`);
      process.exit(0);
    },
    (error: unknown) => {
      process.stderr.write(
        `measure-sheet failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
