/**
 * The memory sampler's own process (forked by memorySampler.ts): it follows the server's
 * memory for the whole measurement and keeps the largest values seen.
 *
 * Every RSS_EVERY_MS it reads Σ RSS over the server's processes (/proc/PID/status: ~1 ms). The
 * whole-stack figure — distinct resident pages, from /proc/PID/pagemap — costs more. Measured on
 * the bench server (a primary and 2 workers, ~300 MB Σ RSS, ~200 MB distinct, ~710 MB of
 * accessible address space to scan), 2 cores: ~8–10 ms of CPU per reading once compiled (about
 * half of it in the kernel), 20–30 ms for the first two; wall time is longer on a busy machine.
 * memorySampler.ts logs each run's mean and largest. So it is read every RESIDENT_EVERY_MS, and
 * sooner when Σ RSS has risen RISE_MB above every value seen at an earlier reading (memory
 * climbing to its peak) — but never more often than keeps these readings within
 * RESIDENT_MAX_DUTY of one core: the gap is at least the last reading's CPU time ÷ that share
 * (15 ms of CPU → 2.5 s, 30 ms → 5 s).
 *
 * Protocol (IPC): start → started (after the first readings); hold on/off (no distinct-page
 * readings while on: the bench holds them during its latency cells, see memorySampler.ts);
 * stop → peaks, then exit.
 */
import { distinctResidentPages, processTree, treeMemory } from './procstat';
import type { SamplerReply, SamplerRequest } from './memorySampler';

const RSS_EVERY_MS = 1000;
const RESIDENT_EVERY_MS = 2500;
/** Share of one core the distinct-page readings may take: 15 ms every 2.5 s. */
const RESIDENT_MAX_DUTY = 0.006;
/** Σ RSS this much above every value seen at a distinct-page reading brings the next one forward. */
const RISE_MB = 2;

const MB = 1024 * 1024;
const round1 = (n: number) => Math.round(n * 10) / 10;

let serverPid = 0;
let rssPeakMB: number | null = null;
let residentPeakMB: number | null = null;
/** Largest Σ RSS seen when a distinct-page reading was taken. */
let rssAtResidentReadings = 0;
let lastResidentAt = 0;
let lastResidentCpuMs = 0;
const cost = {
  rssReadings: 0,
  rssMs: 0,
  residentReadings: 0,
  residentCpuMs: 0,
  residentCpuMaxMs: 0,
  residentWallMs: 0,
  residentWallMaxMs: 0,
};

function readRss(): number | null {
  const t = performance.now();
  const rss = treeMemory(serverPid)?.rssMB ?? null;
  cost.rssMs += performance.now() - t;
  cost.rssReadings++;
  if (rss !== null) rssPeakMB = Math.max(rssPeakMB ?? 0, rss);
  return rss;
}

function readResident(rss: number | null): void {
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const pages = distinctResidentPages(processTree(serverPid));
  const wallMs = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const cpuMs = (cpu.user + cpu.system) / 1000;
  lastResidentAt = Date.now();
  lastResidentCpuMs = cpuMs;
  cost.residentReadings++;
  cost.residentCpuMs += cpuMs;
  cost.residentCpuMaxMs = Math.max(cost.residentCpuMaxMs, cpuMs);
  cost.residentWallMs += wallMs;
  cost.residentWallMaxMs = Math.max(cost.residentWallMaxMs, wallMs);
  if (rss !== null) rssAtResidentReadings = Math.max(rssAtResidentReadings, rss);
  if (pages !== null && pages > 0)
    residentPeakMB = Math.max(residentPeakMB ?? 0, round1((pages * 4096) / MB));
}

let holding = false;

function tick(): void {
  const rss = readRss();
  if (holding) return;
  const since = Date.now() - lastResidentAt;
  const minGap = Math.max(RSS_EVERY_MS, lastResidentCpuMs / RESIDENT_MAX_DUTY);
  const rising = rss !== null && rss > rssAtResidentReadings + RISE_MB;
  if (since >= Math.max(RESIDENT_EVERY_MS, minGap) || (rising && since >= minGap))
    readResident(rss);
}

function reply(message: SamplerReply, then?: () => void): void {
  process.send!(message, undefined, undefined, then);
}

let timer: NodeJS.Timeout | undefined;

process.on('message', (message: SamplerRequest) => {
  if (message.type === 'start') {
    serverPid = message.pid;
    readResident(readRss());
    timer = setInterval(tick, RSS_EVERY_MS);
    reply({ type: 'started' });
  } else if (message.type === 'hold') {
    holding = message.on;
    if (!holding) {
      const rss = readRss();
      if (rss !== null && rss > rssAtResidentReadings + RISE_MB) readResident(rss);
    }
  } else if (message.type === 'stop') {
    clearInterval(timer);
    readResident(readRss());
    const n = Math.max(1, cost.residentReadings);
    reply(
      {
        type: 'peaks',
        rssSumPeakMB: rssPeakMB,
        residentPeakMB,
        rssReadings: cost.rssReadings,
        rssMsMean: round1(cost.rssMs / Math.max(1, cost.rssReadings)),
        residentReadings: cost.residentReadings,
        residentCpuMsMean: round1(cost.residentCpuMs / n),
        residentCpuMsMax: round1(cost.residentCpuMaxMs),
        residentWallMsMean: round1(cost.residentWallMs / n),
        residentWallMsMax: round1(cost.residentWallMaxMs),
      },
      () => process.disconnect(),
    );
  }
});
// The bench is gone (or done): nothing left to report to.
process.on('disconnect', () => process.exit(0));
