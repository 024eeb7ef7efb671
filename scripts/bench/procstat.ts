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
 * the sum of each one's own peak (VmHWM), so at least the whole's true peak.
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

const round = (n: number, digits = 0) => Number(n.toFixed(digits));

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
