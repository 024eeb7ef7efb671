/** Latency summaries (milliseconds) shared by the HTTP and realtime cells. */

export interface Latency {
  p50Ms: number;
  p90Ms: number;
  p95Ms: number;
  p99Ms: number;
  maxMs: number;
  meanMs: number;
}

/** Two decimals below 10 ms, one above: sub-millisecond differences matter only for small values. */
export const roundMs = (n: number) => Number(n.toFixed(n < 10 ? 2 : 1));

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** A growable list of latencies (ms) with percentiles; autocannon's own are whole milliseconds. */
export class LatencyLog {
  private values = new Float64Array(1 << 12);
  private length = 0;

  get count(): number {
    return this.length;
  }

  add(value: number): void {
    if (this.length === this.values.length) {
      const bigger = new Float64Array(this.values.length * 2);
      bigger.set(this.values);
      this.values = bigger;
    }
    this.values[this.length++] = value;
  }

  summary(): Latency {
    const sorted = this.values.slice(0, this.length).sort();
    let sum = 0;
    for (const v of sorted) sum += v;
    return {
      p50Ms: roundMs(percentile(sorted, 50)),
      p90Ms: roundMs(percentile(sorted, 90)),
      p95Ms: roundMs(percentile(sorted, 95)),
      p99Ms: roundMs(percentile(sorted, 99)),
      maxMs: roundMs(sorted.length ? sorted[sorted.length - 1] : 0),
      meanMs: roundMs(sorted.length ? sum / sorted.length : 0),
    };
  }
}
