/**
 * The benchmark's result: one JSON-able object (written with `--json`) and its Markdown form
 * (printed on stdout). Every planned cell appears in both, also the ones that failed or could not
 * run, so a reader sees what was not measured instead of a shorter table.
 */
import { formatEditorFigures, type EditorFigures } from '../measure-editor';
import { formatSheetFigures, type SheetFigures } from '../measure-sheet';
import type { EngineBenchResult } from './engine';
import { formatEngineBench } from './engine';
import type { HttpCell } from './http';
import { formatHuge, type HugeCell } from './huge';
import type { PushCell } from './itemCells';
import { formatKanban } from './kanban';
import { formatOverload, type OverloadCell } from './overload';
import type { MachineInfo } from './procstat';
import { NOISY_OTHER_PERCENT, type CpuUse } from './procstat';
import { formatWebhooks, type WebhookCell } from './webhooks';
import { formatWhiteboard } from './whiteboard';

export interface RealtimeCell {
  scenario: string;
  /** What was measured, e.g. "1000 watchers × 20 lock changes". */
  size: string;
  /** False when the realtime layer (or this part of it) is not there to measure. */
  available: boolean;
  /** Why it was not measured, or what went wrong. */
  note?: string;
  /** Latency cells: deliveries measured and their percentiles. */
  samples?: number;
  p50Ms?: number;
  p99Ms?: number;
  maxMs?: number;
  /** Median over rounds of the first delivery (the server's share, before the client's queue). */
  firstP50Ms?: number;
  /** Memory cell: the server's RSS with the sockets open, and the growth per socket. */
  serverRssMB?: number;
  serverRssBeforeMB?: number;
  /** Server processes whose garbage was collected before both readings (0: RSS includes garbage). */
  collectedProcesses?: number;
  bytesPerSocket?: number;
  /** Deliveries that never arrived, refused connections, error answers. */
  errors: number;
  ok: boolean;
  cpu?: CpuUse | null;
}

export interface BenchReport {
  generatedAt: string;
  totalSeconds: number;
  quick: boolean;
  machine: MachineInfo;
  /** Load averages when the run ended. */
  loadAverageEnd: number[];
  settings: {
    durationSec: number;
    warmupSec: number;
    concurrency: number[];
    serverLogLevel: string;
    /** Worker processes of the server (WORKERS; 1 = one process). */
    serverWorkers: number;
  };
  seed: {
    catalogs: number;
    pages: number;
    avgPageBytes: number;
    keyword: string;
    keywordHits: number;
    seconds: number;
  };
  http: HttpCell[];
  /**
   * The server's memory, all its processes together, three ways (MB). The whole-stack figure is
   * stackResident*: each physical page resident in any server process counted once
   * (/proc/PID/pagemap). serverRss* sum each process's RSS, counting the pages they share (the
   * node binary and its libraries, ~48 MB per Node process) once per process; serverPeakMB adds
   * each process's own peak, reached at different times. pss* split each shared page among the
   * processes that map it (pages shared with processes outside the server, such as the bench's
   * own node binary, are partly charged to those).
   */
  memory: {
    /** Σ RSS over the server's processes at rest: after start-up and `settleSec` idle. */
    serverRssAtRestMB: number | null;
    /** Σ RSS over the server's processes after the HTTP cells. */
    serverRssAfterHttpMB: number | null;
    /** Σ over the server's processes of each one's own peak RSS (VmHWM) at the end of the run. */
    serverPeakMB: number | null;
    /** Largest Σ RSS seen by the sampler (every second) over the whole measurement. */
    serverRssSampledPeakMB: number | null;
    /** Distinct resident pages over the server's processes just after start-up. */
    stackResidentJustStartedMB: number | null;
    /** Seconds the server was left idle after that, before the readings at rest. */
    settleSec: number;
    /** Distinct resident pages over the server's processes at rest (null: PFNs unreadable). */
    stackResidentAtRestMB: number | null;
    stackResidentAfterHttpMB: number | null;
    /** Largest distinct-page figure seen by the sampler (every ~2.5 s, sooner while Σ RSS rises). */
    stackResidentPeakMB: number | null;
    /** Σ PSS over the server's processes at rest and after the HTTP cells. */
    pssAtRestMB: number | null;
    pssAfterHttpMB: number | null;
    /** The sampler's distinct-page readings and the cost of one in its process (CPU and wall time, ms). */
    sampler: {
      residentReadings: number;
      residentCpuMsMean: number;
      residentCpuMsMax: number;
      residentWallMsMean: number;
    } | null;
  };
  realtime: RealtimeCell[];
  /** The page editor in Chromium (absent with --no-editor or when it failed: see problems). */
  editor?: EditorFigures;
  /** The spreadsheet item in Chromium (with the editor section: absent with --no-editor). */
  sheet?: SheetFigures;
  engine?: EngineBenchResult;
  /** The overload cell (`--overload`). */
  overload?: OverloadCell;
  /** Card move → board watchers (`--kanban`, in the full run). */
  kanban?: PushCell;
  /** Stroke → co-drawers (`--whiteboard`, in the full run). */
  whiteboard?: PushCell;
  /** page/save without and with a slow webhook (`--webhooks`, in the full run). */
  webhooks?: WebhookCell;
  /** The huge item cell (`--huge`). */
  huge?: HugeCell;
  /** Problems found outside the cells (a failed sanity check, a crashed server). */
  problems: string[];
  ok: boolean;
}

/** The memory goal for the whole stack (all the server's processes together), MB. */
export const MEMORY_GOAL = { atRestMB: 250, peakMB: 500 } as const;

export interface MemoryGoalCheck {
  /** What was compared: the whole-stack figure, or Σ RSS when distinct pages were unreadable. */
  figure: 'whole-stack resident' | 'Σ RSS';
  atRestMB: number | null;
  peakMB: number | null;
  atRestMet: boolean | null;
  peakMet: boolean | null;
}

/**
 * The memory figures against MEMORY_GOAL: the whole-stack resident figure, or — when the kernel
 * hid page frame numbers — Σ RSS at rest and Σ VmHWM at peak, which can only overstate the stack.
 */
export function memoryGoalCheck(memory: BenchReport['memory']): MemoryGoalCheck {
  const whole = memory.stackResidentAtRestMB !== null && memory.stackResidentPeakMB !== null;
  const atRestMB = whole ? memory.stackResidentAtRestMB! : memory.serverRssAtRestMB;
  const peakMB = whole ? memory.stackResidentPeakMB! : memory.serverPeakMB;
  return {
    figure: whole ? 'whole-stack resident' : 'Σ RSS',
    atRestMB,
    peakMB,
    atRestMet: atRestMB === null ? null : atRestMB <= MEMORY_GOAL.atRestMB,
    peakMet: peakMB === null ? null : peakMB <= MEMORY_GOAL.peakMB,
  };
}

const fmt = (n: number) => n.toLocaleString('en-US');
const opt = (n: number | null | undefined, unit = '') =>
  n === null || n === undefined ? '–' : `${fmt(n)}${unit}`;

function cpuCells(cpu: CpuUse | null | undefined): string {
  if (!cpu) return '– | – | –';
  return `${cpu.serverPct}% | ${cpu.generatorPct}% | ${cpu.otherPct}%${cpu.noisy ? ' ⚠' : ''}`;
}

function status(ok: boolean, cpu: CpuUse | null | undefined): string {
  if (!ok) return '**FAIL**';
  return cpu?.noisy ? 'ok (noisy)' : 'ok';
}

function httpRow(c: HttpCell): string {
  const errors = c.errors.total
    ? `**${fmt(c.errors.total)}** (${Object.entries(c.errors.byCode)
        .map(([code, n]) => `${code}: ${fmt(n)}`)
        .join(', ')})`
    : c.requests === 0
      ? '0, but no answer came back in time'
      : '0';
  const name = c.target === 'node' ? 'bare Node (ceiling)' : c.scenario;
  const fraction = c.fractionOfNode === undefined ? '–' : `${Math.round(c.fractionOfNode * 100)}%`;
  return `| ${name} | ${c.concurrency} | ${fmt(c.rps)} | ${fraction} | ${c.latency.p50Ms} | ${c.latency.p99Ms} | ${fmt(c.requests)} | ${errors} | ${cpuCells(c.cpu)} | ${c.serverRssPeakMB} | ${status(c.ok, c.cpu)} |`;
}

function memoryLines(memory: BenchReport['memory']): string[] {
  const mb = (n: number | null | undefined) => opt(n, ' MB');
  const goal = memoryGoalCheck(memory);
  const verdict = (value: number | null, met: boolean | null, limit: number) =>
    `${mb(value)} ${met === null ? '(not measured)' : met ? `≤ ${limit} MB: met` : `> ${limit} MB: **not met**`}`;
  const sampler = memory.sampler
    ? ` (${memory.sampler.residentReadings} readings, ${memory.sampler.residentCpuMsMean} ms of CPU each)`
    : '';
  return [
    '| figure | at rest | after HTTP load | peak |',
    '|---|---:|---:|---:|',
    `| **whole stack: distinct resident pages** | ${mb(memory.stackResidentAtRestMB)} | ${mb(memory.stackResidentAfterHttpMB)} | ${mb(memory.stackResidentPeakMB)} (sampled) |`,
    `| Σ PSS over the processes | ${mb(memory.pssAtRestMB)} | ${mb(memory.pssAfterHttpMB)} | – |`,
    `| Σ RSS over the processes | ${mb(memory.serverRssAtRestMB)} | ${mb(memory.serverRssAfterHttpMB)} | ${mb(memory.serverRssSampledPeakMB)} (sampled) |`,
    `| Σ of each process's own peak (VmHWM) | – | – | ${mb(memory.serverPeakMB)} |`,
    '',
    'Whole stack = every physical page resident in any server process counted once (/proc/PID/pagemap); ' +
      'Σ RSS counts the pages the processes share (the node binary and libraries, ~48 MB each) once per process, ' +
      'and Σ VmHWM adds peaks reached at different times, so both overstate the stack; ' +
      'Σ PSS splits shared pages, also with processes outside the server. ' +
      `Sampled peaks: Σ RSS every second, distinct pages every ~2.5 s and sooner while memory rises${sampler} — a peak between readings is missed.`,
    `At rest = after ${memory.settleSec} s idle once the server serves; just after start the whole stack was ${mb(memory.stackResidentJustStartedMB)} ` +
      '(start-up garbage not yet given back: the processes collect 3 s after every worker serves, V8 shrinks idle heaps some seconds later).',
    `Goal (${goal.figure}${goal.figure === 'Σ RSS' ? ': distinct pages unreadable here, Σ RSS at rest and Σ VmHWM at peak, which overstate the stack' : ''}): ` +
      `at rest ${verdict(goal.atRestMB, goal.atRestMet, MEMORY_GOAL.atRestMB)}; ` +
      `peak ${verdict(goal.peakMB, goal.peakMet, MEMORY_GOAL.peakMB)}.`,
  ];
}

function realtimeRow(c: RealtimeCell): string {
  if (!c.available)
    return `| ${c.scenario} | ${c.size} | not available | – | – | – | – | ${c.note ?? ''} |`;
  const result =
    c.serverRssMB !== undefined
      ? `${fmt(c.serverRssMB)} MB RSS (${opt(c.serverRssBeforeMB)} MB before)` +
        (c.bytesPerSocket !== undefined ? `, ~${fmt(c.bytesPerSocket)} B/socket` : '') +
        (c.collectedProcesses
          ? `, after GC in ${c.collectedProcesses} processes`
          : ', GC not forced')
      : `p50 ${c.p50Ms} ms · p99 ${c.p99Ms} ms · max ${c.maxMs} ms (first delivery p50 ${c.firstP50Ms} ms)`;
  return `| ${c.scenario} | ${c.size} | ${result} | ${opt(c.samples)} | ${fmt(c.errors)} | ${c.cpu ? `${c.cpu.serverPct}%` : '–'} | ${c.cpu ? `${c.cpu.otherPct}%${c.cpu.noisy ? ' ⚠' : ''}` : '–'} | ${c.ok ? 'ok' : '**FAIL**'}${c.note ? ` ${c.note}` : ''} |`;
}

export function formatReport(r: BenchReport): string {
  const m = r.machine;
  const lines = [
    `## Quire benchmark${r.quick ? ' (quick)' : ''} — ${r.generatedAt}`,
    '',
    `Machine: ${m.cpuModel}, ${m.cpus} CPUs, ${fmt(m.memoryMB)} MB, ${m.platform}, kernel ${m.kernel}, Node ${m.node}. ` +
      `Load average at start ${m.loadAverage.join(' / ')}, at end ${r.loadAverageEnd.join(' / ')}.`,
    `Data: 1 item, ${fmt(r.seed.catalogs)} catalogs, ${fmt(r.seed.pages)} pages of ~${fmt(r.seed.avgPageBytes)} B ` +
      `(seeded through the models in ${r.seed.seconds.toFixed(1)} s); search keyword hits ${r.seed.keywordHits} pages.`,
    `Cells: ${r.settings.durationSec} s each after ${r.settings.warmupSec} s warm-up, keep-alive connections = concurrency; ` +
      `server LOG_LEVEL=${r.settings.serverLogLevel}, ${r.settings.serverWorkers} worker process${r.settings.serverWorkers === 1 ? '' : 'es'} ` +
      `(started as \`npm start\` does; server CPU and RSS are those of all its processes together); ` +
      `server and load generator are separate processes.`,
    '',
    '### HTTP API',
    '',
    '| scenario | conc. | req/s | of Node | p50 ms | p99 ms | requests | errors | server CPU | generator CPU | other CPU | server RSS MB | status |',
    '|---|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---|',
    ...r.http.map(httpRow),
    '',
    `CPU: server and generator in % of one core; "other" = every other process on the machine, in % of all ` +
      `${m.cpus} cores (⚠ above ${NOISY_OTHER_PERCENT}%: the cell ran on a busy machine). "of Node" = req/s ÷ the bare Node server's at the same concurrency.`,
    '',
    '### Memory (server: all its processes together)',
    '',
    ...memoryLines(r.memory),
    '',
    '### Realtime',
    '',
    '| scenario | size | result | samples | errors | server CPU | other CPU | status |',
    '|---|---|---|---:|---:|---:|---:|---|',
    ...(r.realtime.length ? r.realtime.map(realtimeRow) : ['| (skipped) | | | | | | | |']),
  ];
  if (r.overload) lines.push('', formatOverload(r.overload));
  if (r.kanban) lines.push('', formatKanban(r.kanban));
  if (r.whiteboard) lines.push('', formatWhiteboard(r.whiteboard));
  if (r.webhooks) lines.push('', formatWebhooks(r.webhooks));
  if (r.huge) lines.push('', formatHuge(r.huge));
  if (r.editor) lines.push('', formatEditorFigures(r.editor));
  if (r.sheet) lines.push('', formatSheetFigures(r.sheet));
  if (r.engine) lines.push('', formatEngineBench(r.engine));
  lines.push('');
  if (r.problems.length) lines.push('### Problems', '', ...r.problems.map((p) => `- ${p}`), '');
  const failed =
    r.http.filter((c) => !c.ok).length +
    r.realtime.filter((c) => c.available && !c.ok).length +
    [r.kanban, r.whiteboard, r.webhooks].filter((c) => c && !c.ok).length;
  const missing = r.realtime.filter((c) => !c.available).length;
  lines.push(
    `Result: ${r.ok ? 'every measured cell passed' : `**${failed} cell(s) failed**`}` +
      `${missing ? `; ${missing} realtime cell(s) not available` : ''}; total ${r.totalSeconds.toFixed(0)} s.`,
  );
  return lines.join('\n');
}
