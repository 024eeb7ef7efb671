/**
 * Follows the server's memory for the whole measurement and reports the largest values seen:
 * Σ RSS over its processes every second and the whole-stack figure (distinct resident pages,
 * procstat.ts stackResident) every few seconds (memorySamplerProcess.ts has the schedule).
 *
 * The sampling runs in a process of its own, not in the bench's: the bench process is the HTTP
 * load generator (http.ts, autocannon on this event loop), and one distinct-page reading is
 * ~10–30 ms of synchronous work (memorySamplerProcess.ts) — on the generator's loop it would
 * stall every connection for that long and show up in the latencies. A worker_thread would keep the loop free but charge
 * its CPU to the generator's column (CPU is per process) and cost the bench process its heap;
 * a child's CPU is its own, and the bench lists it among its own processes (not "other CPU").
 */
import type { ChildProcess } from 'node:child_process';
import { forkHelper, replyFrom } from './children';

const SAMPLER_SCRIPT = 'scripts/bench/memorySamplerProcess.ts';
const REPLY_TIMEOUT_MS = 60_000;

export type SamplerRequest =
  { type: 'start'; pid: number } | { type: 'hold'; on: boolean } | { type: 'stop' };

export interface SampledPeaks {
  /** Largest Σ RSS over the server's processes seen (MB; read every second). */
  rssSumPeakMB: number | null;
  /** Largest whole-stack figure seen (distinct resident pages, MB); null when unavailable. */
  residentPeakMB: number | null;
  rssReadings: number;
  rssMsMean: number;
  /** Distinct-page readings taken and their cost in the sampler's process: CPU time and wall time, ms. */
  residentReadings: number;
  residentCpuMsMean: number;
  residentCpuMsMax: number;
  residentWallMsMean: number;
  residentWallMsMax: number;
}

export type SamplerReply = { type: 'started' } | ({ type: 'peaks' } & SampledPeaks);

export interface MemorySampler {
  /** The sampler's process (one of the bench's own, for the CPU figures). */
  pid: number;
  /**
   * While on, only Σ RSS is read: a distinct-page reading walks each server process's page
   * tables under its mmap lock, which a latency measurement should not have to wait behind.
   * Turning it off takes a distinct-page reading at once if Σ RSS rose meanwhile.
   */
  hold(on: boolean): void;
  /** Takes a last reading and stops the sampler; null when it failed. Calls after the first return its answer. */
  stop(): Promise<SampledPeaks | null>;
}

function nextReply<T extends SamplerReply['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<SamplerReply, { type: T }>> {
  return replyFrom<SamplerReply, T>(child, type, {
    who: 'memory sampler',
    timeoutMs: REPLY_TIMEOUT_MS,
  });
}

/** Starts sampling the memory of `serverPid` and everything under it; resolves once the first reading is taken. */
export async function startMemorySampler(serverPid: number): Promise<MemorySampler> {
  const child = forkHelper(SAMPLER_SCRIPT);
  const started = nextReply(child, 'started');
  child.send({ type: 'start', pid: serverPid } satisfies SamplerRequest);
  try {
    await started;
  } catch (error) {
    child.kill();
    throw error;
  }
  let stopped: Promise<SampledPeaks | null> | null = null;
  const stop = async (): Promise<SampledPeaks | null> => {
    const peaks = nextReply(child, 'peaks');
    try {
      child.send({ type: 'stop' } satisfies SamplerRequest);
      const { type: _type, ...figures } = await peaks;
      return figures;
    } catch {
      child.kill();
      return null;
    }
  };
  return {
    pid: child.pid!,
    hold: (on) => {
      if (child.connected) child.send({ type: 'hold', on } satisfies SamplerRequest);
    },
    stop: () => (stopped ??= stop()),
  };
}
