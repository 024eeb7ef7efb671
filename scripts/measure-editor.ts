/**
 * Page editor measurements (spec 001 §2, §5, §9): how fast the editor feels to the people using it.
 *
 * 1. Opening: a cold load of `/page/edit/:item/:page` by a logged-in editor of a ~5,000-character
 *    page until the screen is ready to type in (`data-ready="true"`), each run in a fresh browser
 *    profile so nothing is cached; and the JavaScript it downloads (gzip, counted as
 *    measure-reader does), with the part that only the editor loads — the scripts the reader of
 *    the same page does not download, i.e. the cost of pressing "Edit".
 * 2. A keystroke reaching a co-editor: two browser profiles (two users) edit one page of an item
 *    with simultaneous editing on; every one of N single characters typed in A is timed from A's
 *    keydown until B's DOM shows it.
 * 3. Save round trip: the Save button clicked until the state tag says "saved".
 *
 * The page is above the 4,000 characters where the live preview turns itself off (spec §9): the
 * keystroke and save figures are the editor's without a preview re-rendering behind them.
 *
 * `npx tsx scripts/measure-editor.ts [--quick] [--json <path>]` runs against a throw-away Quire in
 * this process (measure-reader's session: production web build, embedded database, headless
 * Chromium) and prints a table on stdout (progress on stderr). `measureEditor()` is the editor
 * section of `npm run bench`. Speed is measured here, never asserted.
 */
import { writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import type { Actor } from '../models/access';
import { createItem, updateItem } from '../models/items';
import { addMembers } from '../models/members';
import { savePage } from '../models/pages';
import { createUser, issueToken } from '../models/accounts';
import { LatencyLog, roundMs } from './bench/stats';
import {
  DESKTOP_UA,
  loggedInState,
  measureReader,
  openMeasureSession,
  recordScripts,
  samplePage,
  type ScriptFile,
  type ScriptTotals,
} from './measure-reader';

export interface EditorBenchSizes {
  /** Cold opens of the editor (fresh browser profile each). */
  openRuns: number;
  /** Single characters typed in A and timed until B shows them (at most MARKERS.length). */
  keystrokes: number;
  /** Save clicks timed until "saved". */
  saves: number;
}

export const FULL_SIZES: EditorBenchSizes = { openRuns: 5, keystrokes: 50, saves: 10 };
export const QUICK_SIZES: EditorBenchSizes = { openRuns: 3, keystrokes: 20, saves: 5 };

/** A summary of a few timings (ms); with few samples p90 is the slowest but one, or the slowest. */
export interface Timing {
  samples: number;
  p50Ms: number;
  p90Ms: number;
  maxMs: number;
}

export interface EditorFigures {
  generatedAt: string;
  quick: boolean;
  sizes: EditorBenchSizes;
  /** Characters of the page opened, typed into and saved. */
  pageChars: number;
  /** Load averages (1, 5, 15 min) when the section started and ended: the machine is shared. */
  loadAverageStart: number[];
  loadAverageEnd: number[];
  open: {
    /** Navigation start → `[data-testid="editor-screen"][data-ready="true"]`. */
    ready: Timing;
    /** First contentful paint, median over the runs (ms from navigation start). */
    fcpP50Ms: number;
    /** Everything downloaded (the median run's; every run loads the same files). */
    js: ScriptTotals;
    /** The part the reader of the same page does not download. */
    editorOnly: ScriptTotals;
  };
  /** A's keydown → B's DOM showing the character. */
  keystroke: Timing & { missed: number };
  /** Save click → the state tag saying "saved". */
  save: Timing;
}

const SCREEN_READY = '[data-testid="editor-screen"][data-ready="true"]';
const EDITING = '[data-testid="editor-screen"][data-phase="editing"]';
const CONTENT = '[data-testid="editor-cm"] .cm-content';
/** One distinct character per timed keystroke, so B can tell which ones have arrived. */
const MARKERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ';
/** Starts the line A types on (nowhere else in the page), so B finds it among the others. */
const LINE_PREFIX = '@@ ';
/** How long one keystroke may take to reach B before it counts as missed. */
const DELIVERY_TIMEOUT_MS = 10_000;

const summarise = (values: number[]): Timing => {
  const log = new LatencyLog();
  for (const value of values) log.add(value);
  const { p50Ms, p90Ms, maxMs } = log.summary();
  return { samples: values.length, p50Ms, p90Ms, maxMs };
};

const loadAverage = () => os.loadavg().map((n) => Number(n.toFixed(2)));

// ------------------------------------------------------------------------------------------------
// The data: a ~5,000-character page (measure-reader's realistic Markdown: headings, a table, code,
// lists) in an item with the normal lock, and the same page in an item with simultaneous editing.

export const EDITOR_PAGE_CHARS = 5000;

export function editorPage(): string {
  const body = [1, 2, 3, 4, 5].map(samplePage).join('\n\n');
  const filler = '\n\n' + 'Closing remarks, kept for the length of the page. '.repeat(20);
  return (body + filler).slice(0, EDITOR_PAGE_CHARS);
}

type LoginState = NonNullable<BrowserContextOptions['storageState']>;

interface EditorFixture {
  /** Lock mode (the default): opened and saved. */
  lockedUrl: string;
  /** The reader of the same page, for the editor-only scripts. */
  readerUrl: string;
  /** Simultaneous editing on: the two co-editors type here. */
  coEditUrl: string;
  owner: LoginState;
  coEditor: LoginState;
}

async function makeFixture(origin: string): Promise<EditorFixture> {
  const loggedIn = async (username: string) => {
    const user = await createUser({ username, password: 'measure-pass-1' });
    const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
    const actor: Actor = { uid: user.uid, username: user.username, groupid: 2 };
    return { actor, state: loggedInState(origin, user, token) };
  };
  const owner = await loggedIn('editor_owner');
  const coEditor = await loggedIn('editor_peer');
  const content = editorPage();
  const pageIn = async (itemId: number) =>
    (
      await savePage(
        owner.actor,
        { pageId: 0, itemId, title: 'Editor measurement', content, catId: 0 },
        { origin: 'rest' },
      )
    ).page.page_id;

  const { item_id: locked } = await createItem(owner.actor, {
    item_name: 'Editor measurement',
    item_type: 1,
  });
  const lockedPage = await pageIn(locked);
  const { item_id: coEdit } = await createItem(owner.actor, {
    item_name: 'Editor measurement, co-edited',
    item_type: 1,
  });
  await updateItem(owner.actor, coEdit, { co_edit: true });
  await addMembers(owner.actor, coEdit, {
    usernames: [coEditor.actor.username],
    member_group_id: 1,
  });
  const coEditPage = await pageIn(coEdit);
  return {
    lockedUrl: `${origin}/page/edit/${locked}/${lockedPage}`,
    readerUrl: `${origin}/${locked}/${lockedPage}`,
    coEditUrl: `${origin}/page/edit/${coEdit}/${coEditPage}`,
    owner: owner.state,
    coEditor: coEditor.state,
  };
}

function newContext(browser: Browser, storageState: LoginState) {
  return browser.newContext({
    userAgent: DESKTOP_UA,
    viewport: { width: 1280, height: 800 },
    storageState,
  });
}

async function openEditorIn(context: BrowserContext, url: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(SCREEN_READY).waitFor();
  await page.locator(EDITING).waitFor();
  return page;
}

// ------------------------------------------------------------------------------------------------
// 1. Opening

interface OpenRun extends ScriptTotals {
  readyMs: number;
  fcpMs: number;
}

async function openOnce(browser: Browser, url: string, state: LoginState) {
  const context = await newContext(browser, state);
  try {
    // Timed in the page, from navigation start, the moment the screen flags itself ready.
    await context.addInitScript((selector) => {
      const w = window as unknown as { __readyAt?: number };
      new MutationObserver((_records, observer) => {
        if (document.querySelector(selector)) {
          w.__readyAt = performance.now();
          observer.disconnect();
        }
      }).observe(document, {
        childList: true,
        subtree: true,
        attributes: true,
        attributeFilter: ['data-ready'],
      });
    }, SCREEN_READY);
    const page = await context.newPage();
    const downloaded = recordScripts(page);
    await page.goto(url, { waitUntil: 'load' });
    await page.locator(SCREEN_READY).waitFor();
    await page.waitForLoadState('networkidle');
    const times = await page.evaluate(() => {
      const fcp = performance.getEntriesByName('first-contentful-paint')[0];
      return {
        fcpMs: fcp ? fcp.startTime : -1,
        readyMs: (window as unknown as { __readyAt?: number }).__readyAt ?? -1,
      };
    });
    return { ...(await downloaded()), ...times } satisfies OpenRun;
  } finally {
    await context.close();
  }
}

async function measureOpen(
  browser: Browser,
  fixture: EditorFixture,
  runs: number,
): Promise<EditorFigures['open']> {
  const results: OpenRun[] = [];
  for (let i = 0; i < runs; i++)
    results.push(await openOnce(browser, fixture.lockedUrl, fixture.owner));
  const byReady = [...results].sort((a, b) => a.readyMs - b.readyMs);
  const median = byReady[Math.floor(byReady.length / 2)];
  const fcps = results.map((r) => r.fcpMs).sort((a, b) => a - b);

  const reader = await measureReader(browser, fixture.readerUrl, { storageState: fixture.owner });
  const readerLoads = new Set(reader.scripts.map((s) => s.url));
  const only = median.scripts.filter((s) => !readerLoads.has(s.url));
  return {
    ready: summarise(results.map((r) => r.readyMs)),
    fcpP50Ms: roundMs(fcps[Math.floor(fcps.length / 2)]),
    js: { scripts: median.scripts, jsBytes: median.jsBytes, jsGzipBytes: median.jsGzipBytes },
    editorOnly: {
      scripts: only,
      jsBytes: only.reduce((sum, s) => sum + s.bytes, 0),
      jsGzipBytes: only.reduce((sum, s) => sum + s.gzipBytes, 0),
    },
  };
}

// ------------------------------------------------------------------------------------------------
// 2. A keystroke reaching the co-editor

/**
 * Both pages run in the same browser on the same machine, so `performance.timeOrigin +
 * performance.now()` (wall clock at navigation + a monotonic clock, sub-millisecond) is one clock
 * for both: A stamps each keydown, B each marker's first appearance in its DOM.
 */
async function measureKeystrokes(
  browser: Browser,
  fixture: EditorFixture,
  count: number,
): Promise<EditorFigures['keystroke']> {
  if (count > MARKERS.length) throw new Error(`at most ${MARKERS.length} keystrokes`);
  const markers = MARKERS.slice(0, count);
  const contexts = [
    await newContext(browser, fixture.owner),
    await newContext(browser, fixture.coEditor),
  ];
  try {
    const a = await openEditorIn(contexts[0], fixture.coEditUrl);
    const b = await openEditorIn(contexts[1], fixture.coEditUrl);

    // A types on a new first line (both screens show the top of the page without scrolling).
    await a.locator(CONTENT).click();
    await a.keyboard.press('Control+Home');
    await a.keyboard.press('Enter');
    await a.keyboard.press('ArrowUp');
    await a.keyboard.type(LINE_PREFIX);

    await a.evaluate((keys) => {
      const sent: Record<string, number> = {};
      (window as unknown as { __sent: typeof sent }).__sent = sent;
      window.addEventListener(
        'keydown',
        (event) => {
          if (keys.includes(event.key) && !(event.key in sent))
            sent[event.key] = performance.timeOrigin + event.timeStamp;
        },
        true,
      );
    }, markers);
    await b.evaluate(
      ({ keys, prefix }) => {
        const seen: Record<string, number> = {};
        (window as unknown as { __seen: typeof seen }).__seen = seen;
        // (No named helper functions in here: tsx would wrap them in a `__name` the page lacks.)
        new MutationObserver(() => {
          const now = performance.timeOrigin + performance.now();
          const line = Array.from(document.querySelectorAll('.cm-content > .cm-line')).find((l) =>
            l.textContent?.startsWith(prefix),
          );
          if (!line) return;
          // The line's own text: remote carets and their name labels are widgets inside it.
          const copy = line.cloneNode(true) as HTMLElement;
          copy
            .querySelectorAll('.cm-widgetBuffer, .cm-ySelectionCaret, .cm-ySelectionInfo')
            .forEach((widget) => widget.remove());
          for (const key of (copy.textContent ?? '').slice(prefix.length))
            if (keys.includes(key) && !(key in seen)) seen[key] = now;
        }).observe(document.body, { childList: true, subtree: true, characterData: true });
      },
      { keys: markers, prefix: LINE_PREFIX },
    );
    // B has the line before the first timed key.
    await b.waitForFunction(
      (prefix) =>
        Array.from(document.querySelectorAll('.cm-content > .cm-line')).some((line) =>
          line.textContent?.startsWith(prefix),
        ),
      LINE_PREFIX,
    );

    // One key at a time, the next once B has the previous: each delivery is timed on its own.
    for (const key of markers) {
      await a.keyboard.type(key);
      await b
        .waitForFunction((k) => k in (window as unknown as { __seen: object }).__seen, key, {
          polling: 5,
          timeout: DELIVERY_TIMEOUT_MS,
        })
        .catch(() => {}); // never arrived: counted as missed below
    }
    const sent = await a.evaluate(
      () => (window as unknown as { __sent: Record<string, number> }).__sent,
    );
    const seen = await b.evaluate(
      () => (window as unknown as { __seen: Record<string, number> }).__seen,
    );
    const delays = [...markers]
      .filter((key) => key in sent && key in seen)
      .map((key) => seen[key] - sent[key]);
    return { ...summarise(delays), missed: count - delays.length };
  } finally {
    for (const context of contexts) await context.close();
  }
}

// ------------------------------------------------------------------------------------------------
// 3. Save round trip

async function measureSaves(
  browser: Browser,
  fixture: EditorFixture,
  count: number,
): Promise<Timing> {
  const context = await newContext(browser, fixture.owner);
  try {
    const page = await openEditorIn(context, fixture.lockedUrl);
    // Timed in the page: the click event, then the first "saved" after it.
    await page.evaluate(() => {
      const save = { clickAt: 0, savedAt: 0 };
      (window as unknown as { __save: typeof save }).__save = save;
      window.addEventListener(
        'click',
        (event) => {
          if ((event.target as Element).closest('[data-testid="editor-save"]')) {
            save.clickAt = event.timeStamp;
            save.savedAt = 0;
          }
        },
        true,
      );
      new MutationObserver(() => {
        const tag = document.querySelector('[data-testid="editor-state"]');
        if (save.clickAt && !save.savedAt && tag?.getAttribute('data-state') === 'saved')
          save.savedAt = performance.now();
      }).observe(document.body, {
        subtree: true,
        childList: true,
        attributes: true,
        attributeFilter: ['data-state'],
      });
    });
    const durations: number[] = [];
    for (let i = 0; i < count; i++) {
      // A change first, so each click saves something (the button takes the focus: click back).
      await page.locator(CONTENT).click();
      await page.keyboard.press('Control+End');
      await page.keyboard.type('.');
      await page.locator('[data-testid="editor-state"][data-state="dirty"]').waitFor();
      await page.locator('[data-testid="editor-save"]').click();
      await page.locator('[data-testid="editor-state"][data-state="saved"]').waitFor();
      const { clickAt, savedAt } = await page.evaluate(
        () => (window as unknown as { __save: { clickAt: number; savedAt: number } }).__save,
      );
      durations.push(savedAt - clickAt);
    }
    return summarise(durations);
  } finally {
    await context.close();
  }
}

// ------------------------------------------------------------------------------------------------
// The section

export interface EditorBenchOptions {
  /** QUICK_SIZES instead of FULL_SIZES (unless `sizes` is given). */
  quick?: boolean;
  sizes?: EditorBenchSizes;
  /** Progress lines (default: stderr, so stdout stays the table). */
  log?: (line: string) => void;
}

/** Builds the web app when stale, starts a throw-away Quire and Chromium, measures, stops them. */
export async function measureEditor(options: EditorBenchOptions = {}): Promise<EditorFigures> {
  const quick = options.quick ?? false;
  const sizes = options.sizes ?? (quick ? QUICK_SIZES : FULL_SIZES);
  const log = options.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  const session = await openMeasureSession(log);
  const loadAverageStart = loadAverage(); // after a web build, which would weigh on it
  try {
    const fixture = await makeFixture(session.origin);
    log(`opening the editor cold ×${sizes.openRuns}…`);
    const open = await measureOpen(session.browser, fixture, sizes.openRuns);
    log(`${sizes.keystrokes} keystrokes to a co-editor…`);
    const keystroke = await measureKeystrokes(session.browser, fixture, sizes.keystrokes);
    log(`saving ×${sizes.saves}…`);
    const save = await measureSaves(session.browser, fixture, sizes.saves);
    return {
      generatedAt: new Date().toISOString(),
      quick,
      sizes,
      pageChars: EDITOR_PAGE_CHARS,
      loadAverageStart,
      loadAverageEnd: loadAverage(),
      open,
      keystroke,
      save,
    };
  } finally {
    await session.close();
  }
}

const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`;
const files = (scripts: ScriptFile[]) =>
  [...scripts]
    .sort((a, b) => b.gzipBytes - a.gzipBytes)
    .map((s) => `${s.url.replace(/^\/assets\//, '')} ${kib(s.gzipBytes)}`)
    .join(', ');

export function formatEditorFigures(f: EditorFigures): string {
  const { open, keystroke, save } = f;
  return [
    `### Page editor (Chromium, ${f.pageChars.toLocaleString('en-US')}-character page${f.quick ? ', quick' : ''})`,
    '',
    `Load average at start ${f.loadAverageStart.join(' / ')}, at end ${f.loadAverageEnd.join(' / ')}. ` +
      'Server in the measuring process, browser in its own; each figure from the page’s own clock.',
    '',
    '| measurement | p50 ms | p90 ms | max ms | samples | notes |',
    '|---|---:|---:|---:|---:|---|',
    `| open, cold, until ready to type | ${open.ready.p50Ms} | ${open.ready.p90Ms} | ${open.ready.maxMs} | ${open.ready.samples} | first contentful paint p50 ${open.fcpP50Ms} ms |`,
    `| keystroke → co-editor's screen | ${keystroke.p50Ms} | ${keystroke.p90Ms} | ${keystroke.maxMs} | ${keystroke.samples} | ${keystroke.missed ? `**${keystroke.missed} never arrived**` : 'all arrived'} |`,
    `| save → "saved" | ${save.p50Ms} | ${save.p90Ms} | ${save.maxMs} | ${save.samples} | |`,
    '',
    '| JavaScript on opening | gzip | raw | files |',
    '|---|---:|---:|---:|',
    `| everything | ${kib(open.js.jsGzipBytes)} | ${kib(open.js.jsBytes)} | ${open.js.scripts.length} |`,
    `| editor only (not loaded by the reader of the page) | ${kib(open.editorOnly.jsGzipBytes)} | ${kib(open.editorOnly.jsBytes)} | ${open.editorOnly.scripts.length} |`,
    '',
    `Editor-only files (gzip): ${files(open.editorOnly.scripts) || '–'}.`,
  ].join('\n');
}

// ------------------------------------------------------------------------------------------------
// The command

function parseArgs(argv: string[]): { quick: boolean; jsonPath?: string } {
  const options: { quick: boolean; jsonPath?: string } = { quick: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--quick') options.quick = true;
    else if (arg === '--json') {
      options.jsonPath = argv[++i];
      if (!options.jsonPath) throw new Error('--json needs a path');
    } else throw new Error(`unknown argument: ${arg} (expected --quick, --json <path>)`);
  }
  return options;
}

const invokedDirectly =
  !!process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url);
if (invokedDirectly) {
  const run = async () => {
    const options = parseArgs(process.argv.slice(2));
    const figures = await measureEditor({ quick: options.quick });
    if (options.jsonPath)
      await writeFile(options.jsonPath, `${JSON.stringify(figures, null, 2)}\n`);
    process.stdout.write(`${formatEditorFigures(figures)}\n`);
  };
  run().then(
    // Everything is closed above; exiting explicitly ends the script even if a library leaves an
    // idle timer behind.
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(
        `measure-editor failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
      );
      process.exit(1);
    },
  );
}
