/**
 * The realtime part of the bench: idle-socket memory, lock and notice fan-out to many watching
 * sockets (Socket.IO), and Yjs edit propagation between editors (Hocuspocus). Each part first
 * checks that the running server offers it; a part it does not offer is reported as "not
 * available" with the reason — never with made-up numbers.
 *
 * Order: the latency cells first, idle-socket memory last (see idleSocketsCell); the report
 * lists them as planned.
 */
import { MAX_SOCKETS_PER_USER } from '../../realtime/auth';
import { collectGarbage } from './gc';
import { startCpuMeter, treeMemory, waitForQuiet } from './procstat';
import type { RealtimeSizes } from './options';
import { yjsPropagation } from './realtimeCollab';
import {
  closeAll,
  connectMany,
  connectSocket,
  lockPropagation,
  noticePropagation,
  type PropagationResult,
  type TargetPage,
} from './realtimeSockets';
import { openSocketClients } from './socketClients';
import type { RealtimeCell } from './report';
import type { SeedResult } from './seed';

export interface RealtimeInput {
  url: string;
  serverPid: number;
  /** The server processes' inspector addresses (gc.ts), for collections before memory readings. */
  inspectorUrls: () => string[];
  ownPids: number[];
  seed: SeedResult;
  sizes: RealtimeSizes;
  log: (line: string) => void;
  /** Holds the memory sampler's page-table walks during the latency cells (memorySampler.ts). */
  holdSampling?: (on: boolean) => void;
}

/**
 * Users the realtime scenarios need (each subscribed to the notice page): every co-editor but the
 * writer, and enough people that no one holds more sockets than the server's per-user cap (the
 * idle and watching sockets are spread over them round-robin).
 */
export function realtimeUserCount(sizes: RealtimeSizes): number {
  const sockets = Math.max(sizes.idleSockets, sizes.watchers);
  return Math.max(1, sizes.editors - 1, Math.ceil(sockets / MAX_SOCKETS_PER_USER));
}

const MB = 1024 * 1024;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** After a forced collection: time for freed memory to go back to the kernel, then readings. */
const AFTER_GC_MS = 500;
const RSS_READINGS = 5;
const RSS_READING_GAP_MS = 200;

/**
 * The server's RSS (every process of it) as it keeps its data: once it is quiet, after a forced
 * garbage collection in each process (gc.ts), the median of a few readings. `collected`: how many
 * processes answered the collection (0: none could be asked, the figure includes garbage).
 */
async function settledRss(
  serverPid: number,
  inspectorUrls: () => string[],
): Promise<{ rssMB: number; collected: number }> {
  await waitForQuiet(serverPid);
  const collected = await collectGarbage(inspectorUrls());
  await sleep(AFTER_GC_MS);
  const readings: number[] = [];
  for (let i = 0; i < RSS_READINGS; i++) {
    if (i) await sleep(RSS_READING_GAP_MS);
    readings.push(treeMemory(serverPid)?.rssMB ?? 0);
  }
  readings.sort((a, b) => a - b);
  return { rssMB: readings[Math.floor(RSS_READINGS / 2)], collected };
}

/** Lock rounds alternate take/release; an even count leaves the page unlocked. */
const evenRounds = (n: number) => n + (n % 2);

export function plannedCells(sizes: RealtimeSizes): RealtimeCell[] {
  const cell = (scenario: string, size: string): RealtimeCell => ({
    scenario,
    size,
    available: false,
    errors: 0,
    ok: false,
  });
  return [
    cell('idle sockets', `${sizes.idleSockets} Socket.IO connections`),
    cell(
      'lock propagation',
      `${sizes.watchers} watching sockets × ${evenRounds(sizes.rounds)} lock changes`,
    ),
    cell(
      'notice propagation',
      `${sizes.watchers} sockets of ${realtimeUserCount(sizes)} subscribers × ${sizes.rounds} notices`,
    ),
    cell('Yjs edit propagation', `${sizes.editors} editors (1 writing) × ${sizes.edits} edits`),
  ];
}

function latencyCell(
  base: RealtimeCell,
  result: PropagationResult,
  extraErrors = 0,
  extraNote?: string,
): RealtimeCell {
  const summary = result.latencies.summary();
  const errors = result.errors + extraErrors;
  return {
    ...base,
    available: true,
    samples: result.latencies.count,
    p50Ms: summary.p50Ms,
    p99Ms: summary.p99Ms,
    maxMs: summary.maxMs,
    firstP50Ms: result.firstDeliveries.summary().p50Ms,
    errors,
    ok: errors === 0 && result.latencies.count > 0,
    cpu: result.cpu,
    ...(extraNote || result.firstError ? { note: extraNote ?? result.firstError } : {}),
  };
}

/**
 * Idle-socket memory: the server's settled RSS before and with `idleSockets` open connections.
 * Run after the latency cells: its garbage collections attach to the server's inspector, which
 * leaves the processes measurably slower afterwards.
 */
async function idleSocketsCell(
  input: RealtimeInput,
  idleCell: RealtimeCell,
  tokens: string[],
): Promise<RealtimeCell> {
  const { url, sizes, serverPid, ownPids, log } = input;
  log(`  ${sizes.idleSockets} idle sockets…`);
  const before = await settledRss(serverPid, input.inspectorUrls);
  const idle = await connectMany(url, tokens, sizes.idleSockets, 200);
  await sleep(sizes.idleSeconds * 400); // the last handshakes' work ends
  const cpu = startCpuMeter(serverPid, ownPids);
  await sleep(sizes.idleSeconds * 600);
  const cpuUse = cpu.stop();
  const after = await settledRss(serverPid, input.inspectorUrls);
  const rss = after.rssMB;
  closeAll(idle.sockets);
  const cell: RealtimeCell = {
    ...idleCell,
    available: true,
    samples: idle.sockets.length,
    serverRssMB: rss,
    serverRssBeforeMB: before.rssMB,
    collectedProcesses: Math.min(before.collected, after.collected),
    bytesPerSocket: idle.sockets.length
      ? Math.round(((rss - before.rssMB) * MB) / idle.sockets.length)
      : undefined,
    errors: idle.failures,
    ok: idle.failures === 0,
    cpu: cpuUse,
    ...(idle.firstError ? { note: `refused: ${idle.firstError}` } : {}),
  };
  log(
    `  idle: ${rss} MB RSS with ${idle.sockets.length} sockets (${before.rssMB} MB before), ${idle.failures} failed, garbage collected in ${after.collected} processes`,
  );
  return cell;
}

export async function runRealtime(input: RealtimeInput): Promise<RealtimeCell[]> {
  const { url, seed, sizes, serverPid, ownPids, log } = input;
  const [idleCell, lockCell, noticeCell, yjsCell] = plannedCells(sizes);
  const tokens = seed.realtimeUsers.map((u) => u.token);
  const page = seed.pages[0];
  if (!tokens.length || !page)
    return [idleCell, lockCell, noticeCell, yjsCell].map((c) => ({
      ...c,
      note: 'no realtime users or pages were seeded',
    }));
  const target: TargetPage = {
    url,
    itemId: seed.itemId,
    pageId: page.pageId,
    pageNumber: page.number,
    ownerToken: seed.userToken,
    serverPid,
    ownPids,
  };
  const cells: RealtimeCell[] = [];

  // The propagation cells measure milliseconds; the idle-socket cell after them, memory.
  input.holdSampling?.(true);
  let socketsAvailable: string | null = null;
  try {
    try {
      (await connectSocket(url, seed.userToken)).disconnect();
    } catch (error) {
      socketsAvailable = `Socket.IO: ${(error as Error).message}`;
    }

    if (socketsAvailable) {
      for (const cell of [lockCell, noticeCell]) cells.push({ ...cell, note: socketsAvailable });
    } else {
      log(`  ${sizes.watchers} watchers in ${sizes.clientProcesses} client processes…`);
      const watchers = await openSocketClients(url, tokens, sizes.watchers, sizes.clientProcesses);
      try {
        const refused = await watchers.watch(page.pageId);
        const setupErrors = watchers.failures + refused;
        const setupNote = setupErrors
          ? `${watchers.failures} connections failed, ${refused} watches refused${watchers.firstError ? `: ${watchers.firstError}` : ''}`
          : undefined;
        // As before every HTTP cell: the server first finishes what it was doing (the sockets'
        // handshakes, the last HTTP cell's writes and their journal snapshot).
        await waitForQuiet(serverPid);
        const lock = await lockPropagation(watchers, target, evenRounds(sizes.rounds));
        cells.push(latencyCell(lockCell, lock, setupErrors, setupNote));
        log(
          `  lock: p50 ${cells.at(-1)!.p50Ms} ms, p99 ${cells.at(-1)!.p99Ms} ms, errors ${cells.at(-1)!.errors}`,
        );
        await waitForQuiet(serverPid);
        const notice = await noticePropagation(watchers, target, sizes.rounds);
        cells.push(latencyCell(noticeCell, notice, setupErrors, setupNote));
        log(
          `  notice: p50 ${cells.at(-1)!.p50Ms} ms, p99 ${cells.at(-1)!.p99Ms} ms, errors ${cells.at(-1)!.errors}`,
        );
      } finally {
        await watchers.close();
      }
    }

    log(`  ${sizes.editors} Yjs editors…`);
    const yjsPage = seed.pages[1] ?? page;
    const yjs = await yjsPropagation(
      { ...target, pageId: yjsPage.pageId, pageNumber: yjsPage.number },
      tokens,
      sizes.editors,
      sizes.edits,
    );
    if (!yjs.available) cells.push({ ...yjsCell, note: yjs.reason });
    else {
      cells.push(
        latencyCell(
          { ...yjsCell, size: `${yjs.editors} editors (1 writing) × ${sizes.edits} edits` },
          yjs,
        ),
      );
      log(
        `  yjs: p50 ${cells.at(-1)!.p50Ms} ms, p99 ${cells.at(-1)!.p99Ms} ms, errors ${cells.at(-1)!.errors}`,
      );
    }
  } finally {
    input.holdSampling?.(false);
  }
  const idle = socketsAvailable
    ? { ...idleCell, note: socketsAvailable }
    : await idleSocketsCell(input, idleCell, tokens);
  return [idle, ...cells];
}
