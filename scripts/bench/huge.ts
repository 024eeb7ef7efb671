/**
 * The "huge item" cell (`npm run bench -- --huge`, or alone: `npx tsx scripts/measure-huge.ts`):
 * an item of 100,000 pages in 5,000 catalogs plus a page at the 2 MB body limit, bulk-seeded
 * (hugeItem.ts) into a throw-away Quire running in this process (so its embedded engine's memory
 * is this process's), beside a small item of 100 pages. Measured:
 *
 * - memory: this process's RSS and heap after a full garbage collection, before the seed, after
 *   it, and after the huge item's menu and search index were built (its first item/info and
 *   item/search), stated per 10,000 pages;
 * - the reader's first contentful paint on a page of each item (Chromium, median of 3 cold loads);
 * - item/search p95 on the huge item (sequential requests, after one that builds the index);
 * - page/save in the huge item against the small one (sequential, in turns, same text sizes);
 * - item/info: the lazy menu (Quire's reader) and the whole one (ShowDoc's clients), bytes and time;
 * - the page at the body limit: saved again over HTTP (a JSON body just under BODY_LIMIT), read back.
 *
 * Sequential requests measure the cost of one request, not throughput; the HTTP cells do that.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { createUser, issueToken } from '../../models/accounts';
import { createItem } from '../../models/items';
import { MAX_RESULTS } from '../../models/search';
import { measureReader, openMeasureSession } from '../measure-reader';
import { pageMarkdown, pageTitle, RARE_KEYWORD } from './content';
import { bigMarkdown, seedHugeItem, type HugeItem } from './hugeItem';
import { LatencyLog, roundMs, type Latency } from './stats';

export interface HugeOptions {
  pages: number;
  catalogLevels: number[];
  /** The big page's size (just under the default BODY_LIMIT of 2 MB). */
  bigPageBytes: number;
  searches: number;
  saves: number;
  /** Cold loads per item for the paint figures. */
  paints: number;
}

export const DEFAULT_HUGE: HugeOptions = {
  pages: 100_000,
  catalogLevels: [50, 450, 4500],
  bigPageBytes: 2 * 1024 * 1024 - 64 * 1024,
  searches: 100,
  saves: 100,
  paints: 3,
};

/** The issue's goals for the cell (issue 38). */
export const HUGE_GOALS = { fcpMs: 1500, searchP95Ms: 100, saveWithin: 0.2 } as const;

export interface MemoryReading {
  rssMB: number;
  heapUsedMB: number;
  externalMB: number;
}

export interface HugeCell {
  pages: number;
  catalogs: number;
  seedSeconds: number;
  memory: {
    before: MemoryReading;
    afterSeed: MemoryReading;
    afterMenuAndSearch: MemoryReading;
    /** (after menu and search − before) RSS per 10,000 pages. */
    rssPer10kPagesMB: number;
    heapPer10kPagesMB: number;
  };
  fcpMs: { huge: number; small: number };
  contentMs: { huge: number; small: number };
  search: Latency & { p95Ms: number; hits: number };
  save: { huge: Latency; small: Latency; ratio: number };
  itemInfo: {
    lazy: { bytes: number; ms: number };
    whole: { bytes: number; ms: number };
  };
  bigPage: { bytes: number; saveMs: number; saved: boolean; readMs: number };
  goals: { fcp: boolean; search: boolean; save: boolean };
  ok: boolean;
}

const MB = 1024 * 1024;
/** BODY_LIMIT's default (models/platform/config.ts), which the measuring server runs with. */
const BODY_LIMIT_BYTES = 2 * MB;
const round1 = (n: number) => Number(n.toFixed(1));

/** V8's gc(), without starting node with --expose-gc. */
function collector(): () => void {
  v8.setFlagsFromString('--expose-gc');
  return vm.runInNewContext('gc') as () => void;
}

function memory(gc: () => void): MemoryReading {
  gc();
  gc();
  const m = process.memoryUsage();
  return {
    rssMB: round1(m.rss / MB),
    heapUsedMB: round1(m.heapUsed / MB),
    externalMB: round1(m.external / MB),
  };
}

async function post(
  origin: string,
  route: string,
  fields: Record<string, string | number>,
  json = false,
): Promise<{ ms: number; bytes: number; body: { error_code: number; data?: unknown } }> {
  const started = performance.now();
  const response = await fetch(`${origin}/api/${route}`, {
    method: 'POST',
    headers: { 'content-type': json ? 'application/json' : 'application/x-www-form-urlencoded' },
    body: json
      ? JSON.stringify(fields)
      : new URLSearchParams(Object.entries(fields).map(([k, v]) => [k, String(v)])),
  });
  const text = await response.text();
  const ms = performance.now() - started;
  return { ms, bytes: Buffer.byteLength(text), body: JSON.parse(text) };
}

function p95(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return roundMs(sorted[Math.min(sorted.length - 1, Math.floor(0.95 * sorted.length))] ?? 0);
}

/** What one item's saves need: where it is and which pages it has. */
interface SaveTarget {
  itemId: number;
  item: HugeItem;
}

/**
 * `count` sequential saves in each of the items, taken in turns (one in the first, one in the
 * second, …): both see the process in the same state — the garbage the big item's menu and index
 * left, the JIT, the journal — so the ratio of their latencies is what the item's size costs.
 */
async function timeSaves(
  origin: string,
  token: string,
  targets: SaveTarget[],
  count: number,
): Promise<Latency[]> {
  const logs = targets.map(() => new LatencyLog());
  const catOfs = targets.map(({ item }) => {
    const catOf = new Map<number, number>();
    for (const [catId, ids] of item.pagesByCat) for (const id of ids) catOf.set(id, catId);
    return catOf;
  });
  for (let i = 0; i < count; i++) {
    for (const [t, { itemId, item }] of targets.entries()) {
      const index = (i * 7919) % item.pageIds.length;
      const pageId = item.pageIds[index];
      const answer = await post(origin, 'page/save', {
        page_id: pageId,
        item_id: itemId,
        cat_id: catOfs[t].get(pageId) ?? 0,
        page_title: pageTitle(index + 1),
        page_content: pageMarkdown(index + 1, 1 + (i % 8)),
        user_token: token,
      });
      if (answer.body.error_code !== 0)
        throw new Error(`page/save failed: ${JSON.stringify(answer.body)}`);
      logs[t].add(answer.ms);
    }
  }
  return logs.map((log) => log.summary());
}

export async function measureHugeItem(run: {
  options: HugeOptions;
  log: (line: string) => void;
}): Promise<HugeCell> {
  const { options, log } = run;
  const gc = collector();
  const session = await openMeasureSession(log);
  try {
    const { origin, browser } = session;
    const user = await createUser({ username: 'huge_owner', password: `huge-${process.pid}` });
    const { token } = await issueToken(user.uid, { ip: '127.0.0.1' });
    const actor = { uid: user.uid, username: user.username, groupid: user.groupid };
    const small = await createItem(actor, { item_name: 'Small handbook' });
    const smallItem = await seedHugeItem(actor, small.item_id, {
      pages: 100,
      catalogLevels: [5, 10],
    });
    const big = await createItem(actor, { item_name: 'Huge handbook' });

    const before = memory(gc);
    log(`  seeding ${options.pages} pages in ${options.catalogLevels.join('/')} catalogs…`);
    const hugeItem = await seedHugeItem(actor, big.item_id, {
      pages: options.pages,
      catalogLevels: options.catalogLevels,
      bigPageBytes: options.bigPageBytes,
    });
    log(`  seeded in ${hugeItem.seconds.toFixed(1)} s`);
    const afterSeed = memory(gc);

    const lazy = await post(origin, 'item/info', {
      item_id: big.item_id,
      lazy_menu: 1,
      user_token: token,
    });
    const whole = await post(origin, 'item/info', { item_id: big.item_id, user_token: token });
    const first = await post(origin, 'item/search', {
      item_id: big.item_id,
      keyword: RARE_KEYWORD,
      user_token: token,
    });
    const afterMenuAndSearch = memory(gc);

    const searchLog = new LatencyLog();
    const searchTimes: number[] = [];
    for (let i = 0; i < options.searches; i++) {
      const answer = await post(origin, 'item/search', {
        item_id: big.item_id,
        keyword: RARE_KEYWORD,
        user_token: token,
      });
      searchLog.add(answer.ms);
      searchTimes.push(answer.ms);
    }
    const hits = ((first.body.data as { pages?: unknown[] } | undefined)?.pages ?? []).length;

    const [hugeSave, smallSave] = await timeSaves(
      origin,
      token,
      [
        { itemId: big.item_id, item: hugeItem },
        { itemId: small.item_id, item: smallItem },
      ],
      options.saves,
    );

    // Just under the body limit as the JSON body that carries it (escapes included).
    let bigText = bigMarkdown(options.bigPageBytes);
    while (Buffer.byteLength(JSON.stringify(bigText)) > BODY_LIMIT_BYTES - 8 * 1024)
      bigText = bigText.slice(0, -4096);
    const bigSave = await post(
      origin,
      'page/save',
      {
        page_id: hugeItem.bigPageId,
        item_id: big.item_id,
        cat_id: hugeItem.levels[0]?.[0] ?? 0,
        page_title: 'A page at the body limit',
        page_content: bigText,
        user_token: token,
      },
      true,
    );
    const bigRead = await post(origin, 'page/info', {
      page_id: hugeItem.bigPageId,
      user_token: token,
    });

    const paint = async (itemId: number, pageId: number) => {
      const runs = [];
      for (let i = 0; i < options.paints; i++)
        runs.push(await measureReader(browser, `${origin}/${itemId}/${pageId}`));
      const mid = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
      return { fcp: mid(runs.map((r) => r.fcpMs)), content: mid(runs.map((r) => r.contentMs)) };
    };
    const deepPage =
      hugeItem.pagesByCat.get(hugeItem.levels.at(-1)?.[0] ?? 0)?.[0] ?? hugeItem.pageIds[0];
    const hugePaint = await paint(big.item_id, deepPage);
    const smallPaint = await paint(small.item_id, smallItem.pageIds[0]);

    const per10k = (mb: number) => round1((mb * 10_000) / options.pages);
    const ratio = smallSave.p50Ms ? Number((hugeSave.p50Ms / smallSave.p50Ms).toFixed(2)) : 0;
    const search = { ...searchLog.summary(), p95Ms: p95(searchTimes), hits };
    const cell: HugeCell = {
      pages: options.pages,
      catalogs: hugeItem.levels.flat().length,
      seedSeconds: round1(hugeItem.seconds),
      memory: {
        before,
        afterSeed,
        afterMenuAndSearch,
        rssPer10kPagesMB: per10k(afterMenuAndSearch.rssMB - before.rssMB),
        heapPer10kPagesMB: per10k(afterMenuAndSearch.heapUsedMB - before.heapUsedMB),
      },
      fcpMs: { huge: roundMs(hugePaint.fcp), small: roundMs(smallPaint.fcp) },
      contentMs: { huge: roundMs(hugePaint.content), small: roundMs(smallPaint.content) },
      search,
      save: { huge: hugeSave, small: smallSave, ratio },
      itemInfo: {
        lazy: { bytes: lazy.bytes, ms: roundMs(lazy.ms) },
        whole: { bytes: whole.bytes, ms: roundMs(whole.ms) },
      },
      bigPage: {
        bytes: Buffer.byteLength(bigText),
        saveMs: roundMs(bigSave.ms),
        saved: bigSave.body.error_code === 0,
        readMs: roundMs(bigRead.ms),
      },
      goals: {
        fcp: hugePaint.fcp <= HUGE_GOALS.fcpMs,
        search: search.p95Ms <= HUGE_GOALS.searchP95Ms,
        save: ratio <= 1 + HUGE_GOALS.saveWithin,
      },
      ok:
        bigSave.body.error_code === 0 &&
        bigRead.body.error_code === 0 &&
        // item/search answers the best MAX_RESULTS hits at most.
        hits === Math.min(hugeItem.keywordHits, MAX_RESULTS),
    };
    log(
      `  huge item: ${JSON.stringify({ fcp: cell.fcpMs, search: cell.search.p95Ms, save: ratio, memory: cell.memory.rssPer10kPagesMB })}`,
    );
    return cell;
  } finally {
    await session.close();
  }
}

export function formatHuge(cell: HugeCell): string {
  const yes = (met: boolean) => (met ? 'met' : '**missed**');
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;
  const m = cell.memory;
  return [
    `### Huge item (${cell.pages.toLocaleString('en-US')} pages in ${cell.catalogs.toLocaleString('en-US')} catalogs, seeded in ${cell.seedSeconds} s)`,
    '',
    '| figure | huge item | small item (100 pages) | goal |',
    '|---|---|---|---|',
    `| reader first contentful paint | ${cell.fcpMs.huge} ms | ${cell.fcpMs.small} ms | ≤ ${HUGE_GOALS.fcpMs} ms ${yes(cell.goals.fcp)} |`,
    `| reader page content on screen | ${cell.contentMs.huge} ms | ${cell.contentMs.small} ms | |`,
    `| item/search p95 (${cell.search.hits} hits) | ${cell.search.p95Ms} ms (p50 ${cell.search.p50Ms}) | | ≤ ${HUGE_GOALS.searchP95Ms} ms ${yes(cell.goals.search)} |`,
    `| page/save p50 / p99 | ${cell.save.huge.p50Ms} / ${cell.save.huge.p99Ms} ms | ${cell.save.small.p50Ms} / ${cell.save.small.p99Ms} ms | ratio ${cell.save.ratio} ≤ ${1 + HUGE_GOALS.saveWithin} ${yes(cell.goals.save)} |`,
    `| item/info, lazy menu (reader) | ${kb(cell.itemInfo.lazy.bytes)}, ${cell.itemInfo.lazy.ms} ms | | |`,
    `| item/info, whole menu (ShowDoc clients) | ${kb(cell.itemInfo.whole.bytes)}, ${cell.itemInfo.whole.ms} ms (first, uncached) | | |`,
    `| page at the body limit (${kb(cell.bigPage.bytes)}) | saved over HTTP: ${cell.bigPage.saved ? 'yes' : '**no**'} (${cell.bigPage.saveMs} ms); page/info ${cell.bigPage.readMs} ms | | |`,
    '',
    `Memory of the process running Quire and its embedded engine (RSS / heap after a full GC): ` +
      `${m.before.rssMB} / ${m.before.heapUsedMB} MB before the seed, ${m.afterSeed.rssMB} / ${m.afterSeed.heapUsedMB} MB after it, ` +
      `${m.afterMenuAndSearch.rssMB} / ${m.afterMenuAndSearch.heapUsedMB} MB with the menu and search index built: ` +
      `**${m.rssPer10kPagesMB} MB RSS (${m.heapPer10kPagesMB} MB heap) per 10,000 pages**.`,
  ].join('\n');
}
