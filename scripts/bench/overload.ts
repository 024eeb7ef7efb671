/**
 * The "overload" cell (`npm run bench -- --overload`): more load than the server can serve —
 * 500 keep-alive readers on page/info and 100 savers on page/save at once for 60 s — and what it
 * does with it (api/admission.ts): reads past the limits refused at once with 503 + Retry-After
 * (documented, error_code 10504), every other answer a success, reads never waiting long, saves
 * keeping at least half their solo rate (their own lane), /healthz answering promptly.
 *
 * First the savers alone (same connections, a shorter run) for the solo rate, then everything
 * together with a /healthz probe every 100 ms. The probe runs in this process beside the load
 * generators, so its figure includes this process's own event-loop delay: an upper bound.
 */
import { planRequests, runHttpCell, type HttpCell } from './http';
import type { SeedResult } from './seed';
import { LatencyLog, type Latency } from './stats';

export interface OverloadOptions {
  readers: number;
  savers: number;
  durationSec: number;
  /** Seconds of the savers-alone run that gives the solo rate. */
  soloSec: number;
}

export const DEFAULT_OVERLOAD: OverloadOptions = {
  readers: 500,
  savers: 100,
  durationSec: 60,
  soloSec: 15,
};

/** The goals for the cell (issue 38). */
export const OVERLOAD_GOALS = {
  readP99Ms: 1000,
  readMaxMs: 5000,
  saveFractionOfSolo: 0.5,
  healthP99Ms: 200,
} as const;

/** The answer the server gives past its admission limits: documented, not an error. */
const DOCUMENTED_REFUSAL = 'http 503';

export interface OverloadCell {
  readers: number;
  savers: number;
  durationSec: number;
  reads: HttpCell;
  saves: HttpCell;
  soloSaves: HttpCell;
  /** Saves per second under overload divided by alone. */
  saveFractionOfSolo: number;
  health: { samples: number; failures: number; latency: Latency };
  /** Answers that were neither a success nor the documented 503, by label. */
  otherErrors: Record<string, number>;
  /** 503 answers among the reads and the saves. */
  refused: { reads: number; saves: number };
  goals: {
    readP99: boolean;
    readMax: boolean;
    saves: boolean;
    healthP99: boolean;
    noOtherErrors: boolean;
  };
  /** No answer other than a success or the documented 503 (the goals are reported, not enforced). */
  ok: boolean;
}

async function probeHealth(url: string, until: () => boolean) {
  const latency = new LatencyLog();
  let failures = 0;
  while (!until()) {
    const started = performance.now();
    try {
      const response = await fetch(`${url}/healthz`);
      await response.arrayBuffer();
      if (response.status !== 200) failures++;
    } catch {
      failures++;
    }
    latency.add(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { samples: latency.count, failures, latency: latency.summary() };
}

function undocumented(cell: HttpCell): Record<string, number> {
  return Object.fromEntries(
    Object.entries(cell.errors.byCode).filter(([label]) => label !== DOCUMENTED_REFUSAL),
  );
}

export async function runOverloadCell(run: {
  url: string;
  seed: SeedResult;
  serverPid: number;
  ownPids: number[];
  options: OverloadOptions;
  log: (line: string) => void;
}): Promise<OverloadCell> {
  const { url, seed, serverPid, ownPids, options, log } = run;
  const base = { target: 'quire' as const, url, serverPid, ownPids };
  const soloSaves = await runHttpCell({
    ...base,
    scenario: 'overload: savers alone',
    plan: planRequests('page/save', seed),
    concurrency: options.savers,
    durationSec: options.soloSec,
  });
  log(`  savers alone ×${options.savers}: ${soloSaves.rps} saves/s`);

  let done = false;
  const health = probeHealth(url, () => done);
  const [reads, saves] = await Promise.all([
    runHttpCell({
      ...base,
      scenario: 'overload: readers',
      plan: planRequests('page/info', seed),
      concurrency: options.readers,
      durationSec: options.durationSec,
    }),
    runHttpCell({
      ...base,
      scenario: 'overload: savers',
      plan: planRequests('page/save', seed),
      concurrency: options.savers,
      durationSec: options.durationSec,
    }),
  ]).finally(() => {
    done = true;
  });
  const healthFigures = await health;

  const otherErrors: Record<string, number> = {};
  for (const cell of [reads, saves])
    for (const [label, count] of Object.entries(undocumented(cell)))
      otherErrors[label] = (otherErrors[label] ?? 0) + count;
  if (healthFigures.failures) otherErrors.healthz = healthFigures.failures;
  // Saves that went through (not refused, not failed) per second, against the solo run's.
  const savedPerSec = (cell: HttpCell) =>
    (cell.requests - cell.errors.httpStatus - cell.errors.envelope) / cell.durationSec;
  const soloRate = savedPerSec(soloSaves);
  const saveFractionOfSolo = soloRate ? Number((savedPerSec(saves) / soloRate).toFixed(3)) : 0;
  const noOtherErrors = Object.keys(otherErrors).length === 0;
  const cell: OverloadCell = {
    readers: options.readers,
    savers: options.savers,
    durationSec: options.durationSec,
    reads,
    saves,
    soloSaves,
    saveFractionOfSolo,
    health: healthFigures,
    otherErrors,
    refused: {
      reads: reads.errors.byCode[DOCUMENTED_REFUSAL] ?? 0,
      saves: saves.errors.byCode[DOCUMENTED_REFUSAL] ?? 0,
    },
    goals: {
      readP99: reads.latency.p99Ms <= OVERLOAD_GOALS.readP99Ms,
      readMax: reads.latency.maxMs <= OVERLOAD_GOALS.readMaxMs,
      saves: saveFractionOfSolo >= OVERLOAD_GOALS.saveFractionOfSolo,
      healthP99: healthFigures.latency.p99Ms <= OVERLOAD_GOALS.healthP99Ms,
      noOtherErrors,
    },
    ok: noOtherErrors && reads.requests > 0 && saves.requests > 0,
  };
  log(
    `  overload: reads ${reads.rps}/s (${cell.refused.reads} refused with 503), p99 ${reads.latency.p99Ms} ms, ` +
      `max ${reads.latency.maxMs} ms; saves ${saves.rps}/s = ${saveFractionOfSolo} of solo; ` +
      `/healthz p99 ${healthFigures.latency.p99Ms} ms; other errors ${JSON.stringify(otherErrors)}`,
  );
  return cell;
}

export function formatOverload(cell: OverloadCell): string {
  const yes = (met: boolean) => (met ? 'met' : '**missed**');
  const errors = Object.entries(cell.otherErrors)
    .map(([label, count]) => `${label}: ${count}`)
    .join(', ');
  return [
    `### Overload (${cell.readers} readers on page/info + ${cell.savers} savers on page/save, ${cell.durationSec} s)`,
    '',
    '| | answers/s | refused (503) | p50 ms | p99 ms | max ms | goal |',
    '|---|---|---|---|---|---|---|',
    `| reads | ${cell.reads.rps} | ${cell.refused.reads} | ${cell.reads.latency.p50Ms} | ${cell.reads.latency.p99Ms} | ${cell.reads.latency.maxMs} | p99 ≤ ${OVERLOAD_GOALS.readP99Ms} ${yes(cell.goals.readP99)}, max ≤ ${OVERLOAD_GOALS.readMaxMs} ${yes(cell.goals.readMax)} |`,
    `| reads served (200) | | | ${cell.reads.latencyOk.p50Ms} | ${cell.reads.latencyOk.p99Ms} | ${cell.reads.latencyOk.maxMs} | |`,
    `| saves | ${cell.saves.rps} | ${cell.refused.saves} | ${cell.saves.latency.p50Ms} | ${cell.saves.latency.p99Ms} | ${cell.saves.latency.maxMs} | ${cell.saveFractionOfSolo} of solo (${cell.soloSaves.rps}/s) ≥ ${OVERLOAD_GOALS.saveFractionOfSolo} ${yes(cell.goals.saves)} |`,
    `| /healthz (${cell.health.samples} probes) | | | ${cell.health.latency.p50Ms} | ${cell.health.latency.p99Ms} | ${cell.health.latency.maxMs} | p99 ≤ ${OVERLOAD_GOALS.healthP99Ms} ${yes(cell.goals.healthP99)} |`,
    '',
    `Errors other than the documented 503: ${errors || 'none'}.`,
  ].join('\n');
}
