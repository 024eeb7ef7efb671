/**
 * The client (address) a piece of work is done for. The API transport runs each action inside
 * `runForClient`, so rules that count per client (the visit-password throttle) read it here
 * instead of every model function passing an address through. Work with no request behind it
 * (the CLI, background jobs) has the client ''.
 *
 * A piece of work may also carry a read trace (api/answerCache.ts): what it read from the read
 * caches, value by value, and whether it read anything the trace cannot follow — the database,
 * the client's address, a load another request had under way — and when a time rule it applied
 * turns. An answer built only from traced values is the same answer for as long as each of those
 * values is still the one kept and the clock has not reached that moment.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

/** Something a trace can follow: it tells the value it keeps for a key now. */
export interface TracedSource {
  /** The value kept for `key` now, or `NOT_KEPT`. */
  currentValue(key: unknown): unknown;
}

/** What `currentValue` answers for a key that has nothing kept. */
export const NOT_KEPT: unique symbol = Symbol('not kept');

export interface ReadTrace {
  /** Flat triples: the source, the key, the value seen (compared by identity). */
  readonly seen: unknown[];
  /** False once the work read something the trace cannot follow. */
  reusable: boolean;
  /**
   * The first second (Unix) at which a time rule the work applied answers differently: a token's
   * expiry, a share link's (`noteExpiry`). Infinity when none.
   */
  expiresAt: number;
}

interface ClientWork {
  client: string;
  /** Event hand-overs to other processes this piece of work started (see `bus.track`). */
  deliveries: Set<Promise<unknown>>;
  trace?: ReadTrace;
}

const scope = new AsyncLocalStorage<ClientWork>();

export function runForClient<T>(client: string, work: () => T, trace?: ReadTrace): T {
  return scope.run({ client, deliveries: new Set(), trace }, work);
}

/** The client's address; work that asks may answer differently per client, so it is not reused. */
export function currentClient(): string {
  const work = scope.getStore();
  if (!work) return '';
  if (work.trace) work.trace.reusable = false;
  return work.client;
}

/**
 * The event hand-overs started by the current request (undefined outside one): a request waits
 * for its own events to reach the other processes, not for every other request's.
 */
export function requestDeliveries(): Set<Promise<unknown>> | undefined {
  return scope.getStore()?.deliveries;
}

/** A new, empty read trace. */
export function newReadTrace(): ReadTrace {
  return { seen: [], reusable: true, expiresAt: Number.POSITIVE_INFINITY };
}

/**
 * Records, in the current work's trace if any, that from `atSeconds` on (Unix seconds) the work
 * would decide differently: a model that compares a kept value with the clock (a token valid while
 * its expiry is ahead) says when the comparison turns.
 */
export function noteExpiry(atSeconds: number): void {
  const trace = scope.getStore()?.trace;
  if (trace && atSeconds < trace.expiresAt) trace.expiresAt = atSeconds;
}

/** Records, in the current work's trace if any, that it used `value` kept by `source` for `key`. */
export function noteRead(source: TracedSource, key: unknown, value: unknown): void {
  const trace = scope.getStore()?.trace;
  if (trace) trace.seen.push(source, key, value);
}

/** Records, in the current work's trace if any, a read the trace cannot follow. */
export function noteUntracedRead(): void {
  const trace = scope.getStore()?.trace;
  if (trace) trace.reusable = false;
}

/** True while every value the trace saw is still the one its source keeps. */
export function readsStillCurrent(trace: ReadTrace): boolean {
  if (!trace.reusable) return false;
  const { seen } = trace;
  for (let i = 0; i < seen.length; i += 3)
    if ((seen[i] as TracedSource).currentValue(seen[i + 1]) !== seen[i + 2]) return false;
  return true;
}
