/** Opening many connections for the realtime bench, a batch at a time. */

export interface Opened<S> {
  sockets: S[];
  failures: number;
  firstError?: string;
}

/** Opens `count` connections, `batch` at a time; `open(i)` opens the i-th. */
export async function openMany<S>(
  count: number,
  batch: number,
  open: (index: number) => Promise<S>,
): Promise<Opened<S>> {
  const result: Opened<S> = { sockets: [], failures: 0 };
  for (let start = 0; start < count; start += batch) {
    const settled = await Promise.allSettled(
      Array.from({ length: Math.min(batch, count - start) }, (_, i) => open(start + i)),
    );
    for (const outcome of settled) {
      if (outcome.status === 'fulfilled') result.sockets.push(outcome.value);
      else {
        result.failures++;
        result.firstError ??= String((outcome.reason as Error)?.message ?? outcome.reason);
      }
    }
  }
  return result;
}
