/**
 * The benchmark's settings: defaults (the full run, under 10 minutes), `--quick` (a fast run for
 * development), and the command line that overrides either.
 */
import { ENDPOINTS, type Endpoint } from './http';
import { DEFAULT_HUGE, type HugeOptions } from './huge';
import { DEFAULT_KANBAN, type KanbanOptions } from './kanban';
import { DEFAULT_OVERLOAD, type OverloadOptions } from './overload';
import { DEFAULT_WEBHOOKS, type WebhookOptions } from './webhooks';
import { DEFAULT_WHITEBOARD, type WhiteboardOptions } from './whiteboard';

export interface RealtimeSizes {
  /** Sockets watching one page while its lock changes / users receiving a notice. */
  watchers: number;
  /** Client processes the watching sockets are spread over (socketClients.ts). */
  clientProcesses: number;
  /** Lock changes and notices measured (each reaches every watcher). */
  rounds: number;
  /** Yjs editors on one page. */
  editors: number;
  /** Edits measured (each reaches every other editor). */
  edits: number;
  /** Idle Socket.IO connections held open for the memory figure. */
  idleSockets: number;
  /** How long they are held before memory is read (the first 40% lets set-up garbage settle). */
  idleSeconds: number;
}

export interface BenchOptions {
  quick: boolean;
  /** Seconds of load per cell. */
  durationSec: number;
  /** Untimed load before each scenario's cells (JIT, caches, connection pools). */
  warmupSec: number;
  concurrency: number[];
  pages: number;
  /** Catalogs per level, top level first. */
  catalogLevels: number[];
  endpoints: Endpoint[];
  /** Also measure the bare Node server (the ceiling). */
  ceiling: boolean;
  /**
   * Seconds the started server is left idle before its memory at rest is read: start-up leaves
   * garbage that the processes' own collections (3 s after every worker serves, then the engine
   * thread's when it falls idle) and V8's memory reducer (some seconds after allocation stops)
   * give back only then. What it was just after start is reported beside it.
   */
  settleSec: number;
  /** `false` skips the realtime scenarios. */
  realtime: RealtimeSizes | false;
  /**
   * The page editor and the spreadsheet item in Chromium (scripts/measure-editor.ts: cold open,
   * keystroke to a co-editor, save round trip; scripts/measure-sheet.ts: opening weight, cell
   * change to a viewer); shorter under --quick.
   */
  editor: boolean;
  /** Also run the embedded engine bench (scripts/bench/engine.ts). */
  engine: boolean;
  /** The "overload" cell (scripts/bench/overload.ts), after the HTTP cells; off by default. */
  overload: OverloadOptions | false;
  /** Card move → board watchers (scripts/bench/kanban.ts); in the full run, off under --quick. */
  kanban: KanbanOptions | false;
  /** Stroke → co-drawers (scripts/bench/whiteboard.ts); in the full run, off under --quick. */
  whiteboard: WhiteboardOptions | false;
  /** page/save with and without a slow webhook (scripts/bench/webhooks.ts); as above. */
  webhooks: WebhookOptions | false;
  /** The "huge item" cell (scripts/bench/huge.ts), after the servers are gone; off by default. */
  huge: HugeOptions | false;
  /** The server's LOG_LEVEL: `info` (the default of `npm start`) logs a line per request. */
  serverLogLevel: string;
  /** The server's WORKERS (unset: `npm start`'s default, one worker per core). */
  workers?: number;
  jsonPath?: string;
  /** Write a V8 CPU profile of the server process into this folder (opens in Chrome DevTools). */
  serverProfileDir?: string;
  /**
   * For the harness's own test: send this token instead of the seeded user's on the named
   * endpoints, which must then fail their cells.
   */
  tokenOverride?: Partial<Record<Endpoint, string>>;
  /** Progress lines (default: stderr, so stdout stays the table). */
  log: (line: string) => void;
}

export const DEFAULT_REALTIME: RealtimeSizes = {
  watchers: 1000,
  clientProcesses: 4,
  rounds: 20,
  editors: 50,
  edits: 50,
  idleSockets: 10_000,
  idleSeconds: 5,
};

/** Progress on stderr (stdout stays the table), each line with the seconds since the start. */
function progressLog(): (line: string) => void {
  const started = Date.now();
  return (line) =>
    process.stderr.write(`[${((Date.now() - started) / 1000).toFixed(0).padStart(4)} s] ${line}\n`);
}

export function defaultOptions(quick = false): BenchOptions {
  return {
    quick,
    durationSec: quick ? 3 : 15,
    warmupSec: quick ? 1 : 2,
    concurrency: [1, 10, 50],
    pages: quick ? 200 : 1000,
    catalogLevels: quick ? [5, 20, 50] : [10, 50, 200],
    endpoints: [...ENDPOINTS],
    ceiling: true,
    settleSec: 20,
    realtime: quick
      ? {
          ...DEFAULT_REALTIME,
          watchers: 100,
          rounds: 10,
          editors: 10,
          edits: 20,
          idleSockets: 1000,
          idleSeconds: 3,
        }
      : { ...DEFAULT_REALTIME },
    editor: true,
    engine: false,
    overload: false,
    kanban: quick ? false : { ...DEFAULT_KANBAN },
    whiteboard: quick ? false : { ...DEFAULT_WHITEBOARD },
    webhooks: quick ? false : { ...DEFAULT_WEBHOOKS },
    huge: false,
    serverLogLevel: 'info',
    log: progressLog(),
  };
}

export const USAGE = `npm run bench -- [options]
  --quick                 short cells and a smaller data set, for development
  --json <path>           also write the report as JSON
  --duration <s>          seconds per cell (default 15, quick 3)
  --warmup <s>            untimed load before each scenario (default 2, quick 1)
  --concurrency <list>    e.g. 1,10,50
  --pages <n>             pages to seed (default 1000, quick 200)
  --catalogs <list>       catalogs per level, e.g. 10,50,200
  --endpoints <list>      subset of ${ENDPOINTS.join(',')}
  --no-ceiling            skip the bare Node server
  --settle <s>            idle seconds before the memory at rest is read (default 20)
  --no-realtime           skip the realtime scenarios
  --watchers <n> --editors <n> --idle-sockets <n>   realtime sizes
  --client-processes <n>  processes the watching sockets are spread over (default 4)
  --no-editor             skip the page editor and spreadsheet in Chromium
  --engine                also run the embedded engine bench
  --overload              also run the overload cell: 500 readers + 100 savers for 60 s (quick: 10 s)
  --overload-duration <s> seconds of the overload cell
  --kanban                card move → 100 board watchers (in the full run; this adds it to --quick)
  --whiteboard            stroke → 19 other co-drawers on a whiteboard (likewise)
  --webhooks              page/save ×10 without and with a webhook answering after 10 s (likewise)
  --no-kanban --no-whiteboard --no-webhooks   leave that cell out
  --huge                  also run the huge-item cell: 100,000 pages in 5,000 catalogs (quick: 10,000)
  --huge-pages <n>        pages of the huge item
  --log-level <level>     server LOG_LEVEL (default info, as npm start)
  --workers <n>           server WORKERS (default as npm start: one worker process per core)
  --profile <dir>         write a CPU profile of the server (.cpuprofile) into <dir>`;

function overloadDefaults(quick: boolean): OverloadOptions {
  return quick ? { ...DEFAULT_OVERLOAD, durationSec: 10, soloSec: 5 } : { ...DEFAULT_OVERLOAD };
}

function hugeDefaults(quick: boolean): HugeOptions {
  return quick
    ? { ...DEFAULT_HUGE, pages: 10_000, catalogLevels: [10, 90, 400], searches: 30, saves: 30 }
    : { ...DEFAULT_HUGE };
}

function numberList(value: string | undefined, flag: string): number[] {
  const list = (value ?? '').split(',').map(Number);
  if (!value || list.some((n) => !Number.isInteger(n) || n < 0))
    throw new Error(`${flag} needs a comma-separated list of whole numbers`);
  return list;
}

function positive(value: string | undefined, flag: string): number {
  const n = Number(value);
  if (!value || !Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
  return n;
}

export function parseArgs(argv: string[]): BenchOptions {
  const options = defaultOptions(argv.includes('--quick'));
  const realtime = (): RealtimeSizes => {
    if (!options.realtime) options.realtime = { ...DEFAULT_REALTIME };
    return options.realtime;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => argv[++i];
    switch (arg) {
      case '--quick':
        break;
      case '--json':
        options.jsonPath = value();
        if (!options.jsonPath) throw new Error('--json needs a path');
        break;
      case '--duration':
        options.durationSec = positive(value(), arg);
        break;
      case '--warmup':
        options.warmupSec = Number(value());
        if (!(options.warmupSec >= 0)) throw new Error('--warmup needs a number');
        break;
      case '--concurrency':
        options.concurrency = numberList(value(), arg).filter((n) => n > 0);
        if (!options.concurrency.length) throw new Error('--concurrency needs a level above 0');
        break;
      case '--pages':
        options.pages = Math.round(positive(value(), arg));
        break;
      case '--catalogs':
        options.catalogLevels = numberList(value(), arg);
        break;
      case '--endpoints': {
        const list = (value() ?? '').split(',') as Endpoint[];
        const unknown = list.filter((e) => !ENDPOINTS.includes(e));
        if (unknown.length) throw new Error(`unknown endpoint(s): ${unknown.join(', ')}`);
        options.endpoints = list;
        break;
      }
      case '--settle':
        options.settleSec = Number(value());
        if (!(options.settleSec >= 0)) throw new Error('--settle needs a number');
        break;
      case '--no-ceiling':
        options.ceiling = false;
        break;
      case '--no-realtime':
        options.realtime = false;
        break;
      case '--watchers':
        realtime().watchers = Math.round(positive(value(), arg));
        break;
      case '--editors':
        realtime().editors = Math.round(positive(value(), arg));
        break;
      case '--idle-sockets':
        realtime().idleSockets = Math.round(positive(value(), arg));
        break;
      case '--client-processes':
        realtime().clientProcesses = Math.round(positive(value(), arg));
        break;
      case '--no-editor':
        options.editor = false;
        break;
      case '--engine':
        options.engine = true;
        break;
      case '--overload':
        options.overload ||= overloadDefaults(options.quick);
        break;
      case '--overload-duration':
        (options.overload ||= overloadDefaults(options.quick)).durationSec = positive(value(), arg);
        break;
      case '--kanban':
        options.kanban ||= { ...DEFAULT_KANBAN };
        break;
      case '--whiteboard':
        options.whiteboard ||= { ...DEFAULT_WHITEBOARD };
        break;
      case '--webhooks':
        options.webhooks ||= {
          ...DEFAULT_WEBHOOKS,
          durationSec: options.durationSec,
          warmupSec: options.warmupSec,
        };
        break;
      case '--no-kanban':
        options.kanban = false;
        break;
      case '--no-whiteboard':
        options.whiteboard = false;
        break;
      case '--no-webhooks':
        options.webhooks = false;
        break;
      case '--huge':
        options.huge ||= hugeDefaults(options.quick);
        break;
      case '--huge-pages':
        (options.huge ||= hugeDefaults(options.quick)).pages = Math.round(positive(value(), arg));
        break;
      case '--profile':
        options.serverProfileDir = value();
        if (!options.serverProfileDir) throw new Error('--profile needs a folder');
        break;
      case '--log-level':
        options.serverLogLevel = value() ?? '';
        break;
      case '--workers':
        options.workers = Math.round(positive(value(), arg));
        break;
      default:
        throw new Error(`unknown argument: ${arg}\n${USAGE}`);
    }
  }
  return options;
}
