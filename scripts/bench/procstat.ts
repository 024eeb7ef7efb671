/**
 * What the machine and our processes were doing while a cell ran, read from /proc (Linux):
 * CPU time of the server, of the load generator and of everything else, and the server's memory.
 * "The server" is the process the bench started and every process under it (with WORKERS > 1:
 * the primary, its workers and the tsx loader's esbuild helpers).
 * The machine is shared, so a figure measured while other processes used a large part of the CPU
 * is marked noisy rather than silently reported as if the machine had been ours.
 */
import fs from 'node:fs';
import os from 'node:os';

/** A cell is noisy when other processes used more than this share of the machine's CPU. */
export const NOISY_OTHER_PERCENT = 20;

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

/** Jiffies of all CPUs since boot: `busy` (everything but idle and iowait) and `total`. */
function machineJiffies(): { busy: number; total: number } | null {
  try {
    const line = fs.readFileSync('/proc/stat', 'utf8').split('\n', 1)[0];
    const fields = line.trim().split(/\s+/).slice(1).map(Number);
    // user nice system idle iowait irq softirq steal (guest time is already inside user/nice).
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const busy = user + nice + system + irq + softirq + (steal ?? 0);
    return { busy, total: busy + idle + iowait };
  } catch {
    return null;
  }
}

/** utime + stime of a process (all its threads), in jiffies; 0 when it is gone. */
export function processJiffies(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name may contain spaces and parentheses: fields start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]); // fields 14 and 15 of proc(5)
  } catch {
    return 0;
  }
}

/**
 * The process and every process under it (a multi-worker server: the primary, its workers and
 * their helpers), from /proc's children lists.
 */
export function processTree(pid: number): number[] {
  const all = [pid];
  for (let i = 0; i < all.length; i++) {
    try {
      for (const task of fs.readdirSync(`/proc/${all[i]}/task`))
        for (const child of fs
          .readFileSync(`/proc/${all[i]}/task/${task}/children`, 'utf8')
          .split(' '))
          if (child) all.push(Number(child));
    } catch {
      // gone meanwhile
    }
  }
  return all;
}

/** CPU jiffies of a process and everything under it (see processTree). */
export function treeJiffies(pid: number): number {
  return processTree(pid).reduce((sum, p) => sum + processJiffies(p), 0);
}

export interface ProcessMemory {
  /** Resident set size now, MB. */
  rssMB: number;
  /** Peak resident set size since the process started (VmHWM), MB. */
  peakMB: number;
}

/**
 * Memory of a process and everything under it: RSS now summed over the processes; the peak is
 * the sum of each one's own peak (VmHWM), so at least the whole's true peak. Both overstate what
 * the processes hold together: a page they share (the node binary, its libraries) is counted once
 * per process, and the processes reach their peaks at different times. stackResident() counts
 * each page once.
 */
export function treeMemory(pid: number): ProcessMemory | null {
  const parts = processTree(pid)
    .map(processMemory)
    .filter((m): m is ProcessMemory => m !== null);
  if (parts.length === 0) return null;
  return {
    rssMB: round(
      parts.reduce((sum, m) => sum + m.rssMB, 0),
      1,
    ),
    peakMB: round(
      parts.reduce((sum, m) => sum + m.peakMB, 0),
      1,
    ),
  };
}

const PAGE_BYTES = 4096;
const MB = 1024 * 1024;
/** Pages read from /proc/PID/pagemap per read() (8 bytes each: 32 KB). */
const PAGEMAP_CHUNK_PAGES = 4096;
const pagemapBuffer = Buffer.allocUnsafe(PAGEMAP_CHUNK_PAGES * 8);
/** The buffer as 32-bit words: pagemap entries are 64-bit in the machine's byte order. */
const pagemapWords = new Uint32Array(
  pagemapBuffer.buffer,
  pagemapBuffer.byteOffset,
  PAGEMAP_CHUNK_PAGES * 2,
);
const [LOW_WORD, HIGH_WORD] = os.endianness() === 'LE' ? [0, 1] : [1, 0];
/**
 * One bit per page frame seen, kept between calls and grown to the largest frame number met
 * (~0.5 MB for 24 GB of RAM). A bitmap rather than a Set: ~4× faster for the ~100,000 pages of the
 * bench server, which makes this cheap enough to sample.
 */
let frameBits = new Uint32Array(1 << 16);

/**
 * The distinct physical pages resident in any of `pids`, or null when the kernel hides page
 * frame numbers (reading them takes CAP_SYS_ADMIN: without it every PFN reads as 0). A process
 * that is gone meanwhile is left out.
 *
 * /proc/PID/pagemap holds 8 bytes per virtual page: bit 63 = present in RAM, bits 0–54 = the page
 * frame number (proc(5), Documentation/admin-guide/mm/pagemap.rst). Mappings with no access
 * (`---p`: V8's and malloc's reserved address space) are skipped, as is `[vsyscall]`, whose
 * address is beyond JavaScript's safe integers. Each read takes the target's mmap lock for reading
 * for one chunk: the target's page faults go on meanwhile, but a mapping change it makes then
 * (V8 growing or giving back its heap) waits for the chunk — why the bench holds these readings
 * during its latency cells (memorySampler.ts `hold`).
 */
export function distinctResidentPages(pids: number[]): number | null {
  frameBits.fill(0);
  let distinct = 0;
  let present = 0;
  let zeroPfn = 0;
  for (const pid of pids) {
    let maps: string[];
    let fd: number;
    try {
      maps = fs.readFileSync(`/proc/${pid}/maps`, 'utf8').split('\n');
      fd = fs.openSync(`/proc/${pid}/pagemap`, 'r');
    } catch {
      continue; // gone meanwhile
    }
    try {
      for (const line of maps) {
        if (!line) continue;
        const space = line.indexOf(' ');
        if (line.startsWith('---', space + 1) || line.endsWith('[vsyscall]')) continue;
        const dash = line.indexOf('-');
        const first = parseInt(line.slice(0, dash), 16) / PAGE_BYTES;
        const end = parseInt(line.slice(dash + 1, space), 16) / PAGE_BYTES;
        for (let page = first; page < end;) {
          const n = Math.min(PAGEMAP_CHUNK_PAGES, end - page);
          const words = fs.readSync(fd, pagemapBuffer, 0, n * 8, page * 8) / 4;
          if (words <= 0) break;
          for (let i = 0; i < words; i += 2) {
            const high = pagemapWords[i + HIGH_WORD];
            if (!(high & 0x80000000)) continue;
            present++;
            // Bits 32–54 of the entry are bits 32–54 of the frame number.
            const pfn = (high & 0x7fffff) * 0x1_0000_0000 + pagemapWords[i + LOW_WORD];
            if (pfn === 0) {
              zeroPfn++;
              continue;
            }
            const word = Math.floor(pfn / 32);
            if (word >= frameBits.length) {
              let size = frameBits.length;
              while (size <= word) size *= 2;
              const grown = new Uint32Array(size);
              grown.set(frameBits);
              frameBits = grown;
            }
            const bit = 1 << (pfn % 32);
            if (!(frameBits[word] & bit)) {
              frameBits[word] |= bit;
              distinct++;
            }
          }
          page += n;
        }
      }
    } catch {
      // gone meanwhile: what was read of it still counts
    } finally {
      fs.closeSync(fd);
    }
  }
  if (present > 0 && zeroPfn === present) return null;
  return distinct;
}

/**
 * Whole-stack resident memory of a process and everything under it, MB: each physical page
 * resident in any of the processes counted once (distinctResidentPages). Summing RSS counts a
 * page once per process that maps it — with WORKERS = 2, three Node processes each map the same
 * ~48 MB of the node binary and libraries (Shared_Clean) — so this is what the stack as a whole
 * holds. Null when the kernel hides page frame numbers (not root / no CAP_SYS_ADMIN).
 * Costs ~10 ms of CPU on the bench server, more at first (memorySamplerProcess.ts): not for a
 * tight loop.
 */
export function stackResident(pid: number): number | null {
  const pages = distinctResidentPages(processTree(pid));
  return pages === null ? null : round((pages * PAGE_BYTES) / MB, 1);
}

/** A process's proportional set size (each shared page split among its sharers), MB; null when unreadable. */
export function processPss(pid: number): number | null {
  try {
    const rollup = fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
    const kb = /^Pss:\s+(\d+)/m.exec(rollup)?.[1];
    return kb === undefined ? null : Number(kb) / 1024;
  } catch {
    return null;
  }
}

/**
 * Σ PSS over a process and everything under it, MB: shared pages are split among the processes
 * that map them, so the sum counts each page about once — but only among these processes (a page
 * also mapped by a process outside the tree is partly charged elsewhere), so it can sit a little
 * below the distinct-page figure.
 */
export function treePss(pid: number): number | null {
  const parts = processTree(pid)
    .map(processPss)
    .filter((m): m is number => m !== null);
  return parts.length
    ? round(
        parts.reduce((sum, m) => sum + m, 0),
        1,
      )
    : null;
}

export interface StackMemory {
  /** Σ VmRSS over the processes, MB (pages they share counted once per process). */
  rssSumMB: number;
  /** Distinct resident pages over the processes, MB (stackResident); null when unavailable. */
  residentMB: number | null;
  /** Σ PSS over the processes, MB. */
  pssMB: number | null;
}

/** The three readings of a process tree, taken one after the other. */
export function stackMemory(pid: number): StackMemory | null {
  const rss = treeMemory(pid);
  if (!rss) return null;
  return { rssSumMB: rss.rssMB, residentMB: stackResident(pid), pssMB: treePss(pid) };
}

export function processMemory(pid: number): ProcessMemory | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
    return { rssMB: round(kb('VmRSS') / 1024, 1), peakMB: round(kb('VmHWM') / 1024, 1) };
  } catch {
    return null;
  }
}

export interface CpuUse {
  /** CPU used by the server process, in % of one core (200 = two cores busy). */
  serverPct: number;
  /** CPU used by the load-generating process (this one), in % of one core. */
  generatorPct: number;
  /** CPU used by every other process, in % of the whole machine (all cores). */
  otherPct: number;
  /** otherPct above NOISY_OTHER_PERCENT: the figure was measured on a busy machine. */
  noisy: boolean;
}

/**
 * Starts measuring. `serverPid` is the process under test; `ownPids` are the other processes of
 * this benchmark (this one is added), which are not counted as "other". `stop()` returns the use.
 */
export function startCpuMeter(
  serverPid: number,
  ownPids: number[] = [],
): { stop(): CpuUse | null } {
  const generators = [process.pid, ...ownPids.filter((p) => p !== serverPid && p !== process.pid)];
  const machine0 = machineJiffies();
  const server0 = treeJiffies(serverPid);
  const gen0 = generators.map(processJiffies);
  return {
    stop() {
      const machine1 = machineJiffies();
      if (!machine0 || !machine1) return null;
      const total = machine1.total - machine0.total;
      if (total <= 0) return null;
      const server = treeJiffies(serverPid) - server0;
      const own = generators.map(processJiffies).reduce((sum, j, i) => sum + j - gen0[i], 0);
      const generator = processJiffies(process.pid) - gen0[0];
      const other = Math.max(0, machine1.busy - machine0.busy - server - own);
      // `total` counts every core; scale the per-process figures to one core.
      const cores = os.cpus().length || 1;
      const otherPct = round((other / total) * 100);
      return {
        serverPct: round((server / total) * 100 * cores),
        generatorPct: round((generator / total) * 100 * cores),
        otherPct,
        noisy: otherPct > NOISY_OTHER_PERCENT,
      };
    },
  };
}

/**
 * Waits until the process is (nearly) idle: below `maxPercent` of one core over a 200 ms window,
 * giving up after `timeoutMs`. Requests still running when a load run stops (the generator closes
 * its connections, the server finishes them anyway) would otherwise slow the next cell down.
 */
export async function waitForQuiet(
  pid: number,
  maxPercent = 10,
  timeoutMs = 30_000,
): Promise<void> {
  const windowMs = 200;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const before = treeJiffies(pid);
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    const used = treeJiffies(pid) - before;
    // Jiffies are 1/100 s (USER_HZ): a window of 200 ms holds 20.
    if (used <= (maxPercent / 100) * (windowMs / 10)) return;
  }
}

/** Samples the RSS of a process and everything under it every `intervalMs`; `stop()` returns the largest value seen (MB). */
export function startRssSampler(pid: number, intervalMs = 200): { stop(): number } {
  let peak = treeMemory(pid)?.rssMB ?? 0;
  const timer = setInterval(() => {
    peak = Math.max(peak, treeMemory(pid)?.rssMB ?? 0);
  }, intervalMs);
  timer.unref();
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, treeMemory(pid)?.rssMB ?? 0);
    },
  };
}

export interface MachineInfo {
  cpuModel: string;
  cpus: number;
  memoryMB: number;
  platform: string;
  kernel: string;
  node: string;
  /** 1/5/15-minute load averages when the run started. */
  loadAverage: number[];
}

export function machineInfo(): MachineInfo {
  const cpus = os.cpus();
  return {
    cpuModel: cpus[0]?.model.trim() ?? 'unknown',
    cpus: cpus.length,
    memoryMB: Math.round(os.totalmem() / 1024 / 1024),
    platform: `${os.platform()} ${os.arch()}`,
    kernel: os.release(),
    node: process.version,
    loadAverage: os.loadavg().map((n) => round(n, 2)),
  };
}
