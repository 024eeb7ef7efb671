/**
 * The whiteboard cell (`npm run bench -- --whiteboard`, in the full run): a whiteboard item
 * (type 5) of its own and `drawers` co-drawers on its Yjs document (`whiteboard.<page_id>` at
 * /collab, @hocuspocus/provider over `ws`, as the web board connects: realtimeCollab.ts). The
 * drawers take turns adding a stroke — one entry of the `objects` Y.Map, as
 * realtime/whiteboardProtocol.ts defines it, holding a fabric Path's JSON — and each stroke is
 * timed from the local change to the moment each other drawer's document holds it.
 */
import { performance } from 'node:perf_hooks';
import { whiteboardDocumentName } from '../../realtime/collabProtocol';
import { boardObjects, type BoardEntry } from '../../realtime/whiteboardProtocol';
import {
  apiData,
  failedCell,
  formatPushCells,
  itemWithMembers,
  pushCell,
  type PushCell,
} from './itemCells';
import { startCpuMeter, waitForQuiet } from './procstat';
import { openEditor, type Editor } from './realtimeCollab';
import type { SeedResult } from './seed';
import { LatencyLog } from './stats';

export interface WhiteboardOptions {
  drawers: number;
  /** Strokes measured (after a few unmeasured ones). */
  strokes: number;
}

export const DEFAULT_WHITEBOARD: WhiteboardOptions = { drawers: 20, strokes: 30 };

/** Users besides the owner: every co-drawer is a different person. */
export const whiteboardUserCount = (options: WhiteboardOptions) => options.drawers - 1;

const WARMUP_STROKES = 5;
const STROKE_TIMEOUT_MS = 10_000;
const PAUSE_BETWEEN_STROKES_MS = 50;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A freehand stroke as fabric's pencil brush leaves it: a Path of quadratic segments. */
function stroke(id: string, n: number): BoardEntry {
  const left = 40 + ((n * 37) % 800);
  const top = 40 + ((n * 53) % 500);
  const path: Array<Array<string | number>> = [['M', left, top]];
  for (let i = 1; i <= 24; i++)
    path.push(['Q', left + i * 6, top + Math.sin(i / 3) * 20, left + i * 6 + 3, top + i]);
  return {
    z: n + 1,
    object: {
      type: 'Path',
      version: '7.4.0',
      id,
      left,
      top,
      width: 150,
      height: 44,
      fill: null,
      stroke: '#1677ff',
      strokeWidth: 3,
      strokeLineCap: 'round',
      strokeLineJoin: 'round',
      path,
    },
  };
}

interface MenuAnswer {
  menu?: { pages?: Array<{ page_id: number | string }> };
}

export async function runWhiteboardCell(run: {
  url: string;
  seed: SeedResult;
  serverPid: number;
  ownPids: number[];
  options: WhiteboardOptions;
  log: (line: string) => void;
}): Promise<PushCell> {
  const { url, seed, serverPid, ownPids, options, log } = run;
  const scenario = 'whiteboard stroke → co-drawers';
  const size = `${options.drawers} co-drawers × ${options.strokes} strokes`;
  const users = seed.realtimeUsers.slice(0, whiteboardUserCount(options));
  if (users.length < whiteboardUserCount(options))
    return failedCell(scenario, size, `only ${users.length} realtime users were seeded`);

  let pageId: number;
  try {
    const itemId = await itemWithMembers(
      url,
      seed.userToken,
      5,
      'Benchmark whiteboard',
      users.map((u) => u.username),
      1,
    );
    // A whiteboard item is created with its one page (models/items createItem).
    const info = await apiData<MenuAnswer>(url, 'item/info', {
      item_id: itemId,
      user_token: seed.userToken,
    });
    pageId = Number(info.menu?.pages?.[0]?.page_id);
    if (!pageId) throw new Error('item/info lists no page for the new whiteboard');
  } catch (error) {
    return failedCell(scenario, size, `set-up: ${(error as Error).message}`);
  }

  const name = whiteboardDocumentName(pageId);
  const tokens = [seed.userToken, ...users.map((u) => u.token)];
  const opened: Editor[] = [];
  try {
    let errors = 0;
    let firstError: string | undefined;
    const drawers: Editor[] = [];
    log(`  ${options.drawers} whiteboard co-drawers…`);
    for (let start = 0; start < tokens.length; start += 10) {
      const batch = tokens
        .slice(start, start + 10)
        .map((token) => openEditor(url, pageId, token, name));
      opened.push(...batch);
      const settled = await Promise.allSettled(batch.map((e) => e.ready));
      settled.forEach((outcome, i) => {
        if (outcome.status === 'fulfilled' && outcome.value === 'read-write')
          drawers.push(batch[i]);
        else {
          errors++;
          firstError ??=
            outcome.status === 'rejected'
              ? `a drawer could not open the board: ${(outcome.reason as Error).message}`
              : 'a drawer got a read-only board';
        }
      });
    }
    if (drawers.length < 2) return failedCell(scenario, size, firstError ?? 'fewer than 2 drawers');

    const latencies = new LatencyLog();
    let current: {
      key: string;
      measured: boolean;
      startedAt: number;
      got: Uint8Array;
      count: number;
      done: () => void;
    } | null = null;
    drawers.forEach((drawer, index) =>
      boardObjects(drawer.doc).observe((event) => {
        const s = current;
        if (!s || s.got[index] || !event.keysChanged.has(s.key)) return;
        s.got[index] = 1;
        if (s.measured) latencies.add(performance.now() - s.startedAt);
        if (++s.count === drawers.length - 1) s.done();
      }),
    );

    await waitForQuiet(serverPid);
    let cpu: ReturnType<typeof startCpuMeter> | null = null;
    for (let n = 0; n < WARMUP_STROKES + options.strokes; n++) {
      const measured = n >= WARMUP_STROKES;
      if (n === WARMUP_STROKES) cpu = startCpuMeter(serverPid, ownPids);
      const who = n % drawers.length;
      const key = `bench-stroke-${process.pid}-${n}`;
      let done!: () => void;
      const arrived = new Promise<void>((resolve) => (done = resolve));
      const got = new Uint8Array(drawers.length);
      got[who] = 1; // the drawer sees its own stroke at once: not a delivery
      current = { key, measured, startedAt: performance.now(), got, count: 0, done };
      boardObjects(drawers[who].doc).set(key, stroke(key, n));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        arrived,
        new Promise<void>((resolve) => (timer = setTimeout(resolve, STROKE_TIMEOUT_MS))),
      ]);
      clearTimeout(timer);
      const missing = drawers.length - 1 - current.count;
      if (missing > 0) {
        errors += missing;
        firstError ??= `${missing} of ${drawers.length - 1} co-drawers did not get a stroke within ${STROKE_TIMEOUT_MS / 1000} s`;
      }
      current = null;
      await sleep(PAUSE_BETWEEN_STROKES_MS);
    }
    const cell = pushCell(
      scenario,
      `${drawers.length} co-drawers × ${options.strokes} strokes`,
      latencies,
      errors,
      firstError,
      cpu?.stop() ?? null,
    );
    log(
      `  whiteboard: p50 ${cell.p50Ms} ms, p95 ${cell.p95Ms} ms, p99 ${cell.p99Ms} ms, errors ${cell.errors}`,
    );
    return cell;
  } finally {
    for (const editor of opened) editor.destroy();
  }
}

export function formatWhiteboard(cell: PushCell): string {
  return formatPushCells('Whiteboard (stroke → every other co-drawer)', [cell]);
}
