/**
 * One bounded, exact read cache: the building block of the read model (issue #22). A domain
 * declares its caches with `perContext` (two Quires in one process never share entries) and drops
 * entries from event listeners subscribed `synchronous`, which run inside `publish` itself: before
 * any other listener reacts (realtime re-checking access) and before the writer answers.
 *
 * Exactness under concurrency: a load that was in flight while its key was dropped (it may have
 * read the database before the write) answers its caller but is not kept. Each key with loads
 * under way has a ticket that a drop of that key voids; `dropWhere` and `clear` void every load
 * under way. A drop of one key never costs another key's load: under a stream of saves (each
 * dropping its page) the other pages' loads are still kept.
 *
 * Bounded: least recently used entries go first past `maxEntries`, or past `maxWeight` when the
 * entries declare a weight (page texts by their length). Values are frozen deeply on the way in:
 * every reader shares the same object, so a caller that tried to change one would throw at once
 * instead of corrupting what the next request sees.
 *
 * Traced (models/platform/requestClient.ts): a hit notes the key and the entry it gave (each kept
 * value has a token of its own) in the current request's read trace, so the answer built from it can be reused while that value is
 * still the one kept (api/answerCache.ts); a miss, a load under way or a read inside a
 * transaction notes a read the trace cannot follow. A value changed in place would escape this:
 * kept values are frozen, and a cache whose values hold mutable parts notes them itself.
 *
 * Writes that bypass the models (a dump restored, a ShowDoc database migrated, a test preparing
 * rows by hand) call `forgetCachedReads()` or publish `data.replaced`, which empties every read
 * cache of the context (and, relayed, of every process).
 */
import mongoose from 'mongoose';
import { perContext } from './context';
import { eventsHeld } from './events';
import { NOT_KEPT, noteRead, noteUntracedRead, type TracedSource } from './requestClient';

/**
 * Inside a transaction (mongoose's, which every operation joins, or `holdEvents`) the cache is
 * bypassed both ways: a read there must see the transaction's own writes, whose events only come
 * at commit, and what it reads must not be kept, since the transaction may still roll back.
 */
function inTransaction(): boolean {
  const store = (
    mongoose as unknown as { transactionAsyncLocalStorage?: { getStore(): unknown } }
  ).transactionAsyncLocalStorage?.getStore();
  return store !== undefined || eventsHeld();
}

/**
 * Counts every change to what any read cache of the process keeps (an entry stored, replaced,
 * evicted, dropped or cleared). While it stands still, every value a read trace saw is still the
 * one kept: api/answerCache.ts then serves a kept answer without walking its trace again.
 */
let keptChanges = 0;

/** The count of changes to what the read caches keep (see `keptChanges`). */
export function readCachesVersion(): number {
  return keptChanges;
}

const registry = perContext((context) => {
  const caches = new Set<{ clear(): void }>();
  context.bus.subscribe(
    'data.replaced',
    () => {
      for (const cache of caches) cache.clear();
    },
    { synchronous: true },
  );
  return caches;
});

/** Empties every read cache of the current context at once (this process only). */
export function forgetCachedReads(): void {
  for (const cache of registry()) cache.clear();
}

export interface ReadCacheOptions<V> {
  maxEntries: number;
  /** Total weight kept (with `weigh`); entries heavier than a quarter of it are not kept at all. */
  maxWeight?: number;
  weigh?: (value: V) => number;
  /** Values not worth keeping (e.g. "not found", when creations publish nothing). */
  keep?: (value: V) => boolean;
}

interface Entry<V> {
  value: V;
  weight: number;
  /**
   * What read traces compare: new with each value kept, except through a `patch` that changes
   * nothing any reused answer shows (`sameAnswers`).
   */
  token: object;
}

export interface ReadCacheStats {
  entries: number;
  weight: number;
  hits: number;
  misses: number;
}

interface Ticket {
  valid: boolean;
  /** Loads under way holding it. */
  holders: number;
  epoch: number;
}

export interface Watch<K> {
  readonly key: K;
  drops: number;
}

export class ReadCache<K, V> implements TracedSource {
  private readonly entries = new Map<K, Entry<V>>();
  private readonly loading = new Map<K, Promise<V>>();
  /** Tickets of the keys being loaded; a drop of the key voids its ticket. */
  private readonly tickets = new Map<K, Ticket>();
  /** Writers waiting to keep what they write (see `watch`). */
  private readonly watches = new Map<K, Set<Watch<K>>>();
  /** Bumped by dropWhere/clear: loads begun before may not be kept. */
  private epoch = 0;
  private weight = 0;
  private hits = 0;
  private misses = 0;

  /** Create it inside a `perContext` factory: it joins that context's `forgetCachedReads`. */
  constructor(private readonly options: ReadCacheOptions<V>) {
    registry().add(this);
  }

  /** The cached value, or `load()`'s (kept when no drop raced it). Concurrent misses share one load. */
  get(key: K, load: () => Promise<V>): Promise<V> {
    if (inTransaction()) {
      noteUntracedRead();
      return load();
    }
    const entry = this.entries.get(key);
    if (entry) {
      this.hits++;
      noteRead(this, key, entry.token);
      // Re-insert: Map order is the recency order.
      this.entries.delete(key);
      this.entries.set(key, entry);
      return Promise.resolve(entry.value);
    }
    noteUntracedRead();
    const pending = this.loading.get(key);
    if (pending) return pending;
    this.misses++;
    const ticket = this.takeTicket(key);
    const promise = load().then(
      (value) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        if (this.returnTicket(key, ticket)) this.store(key, value);
        return value;
      },
      (error: unknown) => {
        if (this.loading.get(key) === promise) this.loading.delete(key);
        this.returnTicket(key, ticket);
        throw error;
      },
    );
    this.loading.set(key, promise);
    return promise;
  }

  /**
   * Several keys at once: hits from memory, the misses through one `loadMany` (which answers the
   * ones it found; absent keys are left out of the result and not kept).
   */
  async getMany(keys: K[], loadMany: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V>> {
    if (inTransaction()) {
      noteUntracedRead();
      return loadMany(keys);
    }
    const found = new Map<K, V>();
    const missing: K[] = [];
    for (const key of keys) {
      const entry = this.entries.get(key);
      if (entry) {
        this.hits++;
        noteRead(this, key, entry.token);
        this.entries.delete(key);
        this.entries.set(key, entry);
        found.set(key, entry.value);
      } else missing.push(key);
    }
    if (!missing.length) return found;
    noteUntracedRead();
    this.misses += missing.length;
    const tickets = missing.map((key) => this.takeTicket(key));
    let keep: boolean[] = [];
    let loaded: Map<K, V>;
    try {
      loaded = await loadMany(missing);
    } finally {
      keep = missing.map((key, i) => this.returnTicket(key, tickets[i]));
    }
    missing.forEach((key, i) => {
      if (keep[i] && loaded.has(key)) this.store(key, loaded.get(key) as V);
    });
    for (const [key, value] of loaded) found.set(key, value);
    return found;
  }

  /** The cached value without loading (undefined when absent). */
  peek(key: K): V | undefined {
    const entry = this.entries.get(key);
    noteRead(this, key, entry ? entry.token : NOT_KEPT);
    return entry?.value;
  }

  /** For read traces: the value kept for `key` now (no recency change, no count). */
  currentValue(key: unknown): unknown {
    const entry = this.entries.get(key as K);
    return entry ? entry.token : NOT_KEPT;
  }

  /** Keeps a value the caller knows to be current (e.g. what a write just stored). */
  set(key: K, value: V): void {
    this.store(key, value);
  }

  /**
   * A writer about to change `key`'s row starts counting the key's drops; after the write and
   * its event it calls `keepWritten` (or `unwatch` when it gave up).
   */
  watch(key: K): Watch<K> {
    const watch = { key, drops: 0 };
    let set = this.watches.get(key);
    if (!set) this.watches.set(key, (set = new Set()));
    set.add(watch);
    return watch;
  }

  /**
   * Keeps the value a writer just stored when the only drops of the key since its `watch` were
   * its own event's (`ownDrops`): any other drop means another write may have landed after it,
   * and then the next read loads.
   */
  keepWritten(watch: Watch<K>, value: V, ownDrops = 1): void {
    this.unwatch(watch);
    if (watch.drops === ownDrops && !inTransaction()) this.store(watch.key, value);
  }

  unwatch(watch: Watch<K>): void {
    const set = this.watches.get(watch.key);
    if (set?.delete(watch) && !set.size) this.watches.delete(watch.key);
  }

  drop(key: K): void {
    this.written(key);
    this.remove(key);
  }

  /**
   * For a write that changed a kept value in a known way (an item's `last_update_time` moved
   * forward): the kept value, if any, is replaced by `change(value)`, and loads of the key under
   * way are not kept (they may have read before the write), as with `drop`. With `sameAnswers`
   * the change touches nothing a reused answer shows (api/answerCache.ts's REUSABLE actions), so
   * answers built from the value before stay good: read traces see the same entry.
   */
  patch(key: K, change: (value: V) => V, options: { sameAnswers?: boolean } = {}): void {
    this.written(key);
    const entry = this.entries.get(key);
    if (entry) this.store(key, change(entry.value), options.sameAnswers ? entry.token : undefined);
  }

  /** Drops every entry whose key or value matches (used for "all of this item / user"). */
  dropWhere(match: (key: K, value: V) => boolean): void {
    this.voidAllLoads();
    for (const [key, entry] of this.entries) if (match(key, entry.value)) this.remove(key);
  }

  clear(): void {
    this.voidAllLoads();
    if (this.entries.size) keptChanges++;
    this.entries.clear();
    this.weight = 0;
  }

  stats(): ReadCacheStats {
    return {
      entries: this.entries.size,
      weight: this.weight,
      hits: this.hits,
      misses: this.misses,
    };
  }

  /** A write changed `key`'s row: its loads under way may not be kept, its watchers count it. */
  private written(key: K): void {
    const watching = this.watches.get(key);
    if (watching) for (const watch of watching) watch.drops++;
    const ticket = this.tickets.get(key);
    if (ticket) {
      ticket.valid = false;
      this.tickets.delete(key);
    }
    this.loading.delete(key);
  }

  private voidAllLoads(): void {
    this.epoch++;
    for (const set of this.watches.values())
      for (const watch of set) watch.drops = Number.POSITIVE_INFINITY;
    for (const ticket of this.tickets.values()) ticket.valid = false;
    this.tickets.clear();
    this.loading.clear();
  }

  /** The key's ticket for a load starting now (shared by loads of the same key under way). */
  private takeTicket(key: K): Ticket {
    let ticket = this.tickets.get(key);
    if (!ticket || ticket.epoch !== this.epoch) {
      ticket = { valid: true, holders: 0, epoch: this.epoch };
      this.tickets.set(key, ticket);
    }
    ticket.holders++;
    return ticket;
  }

  /** Ends a load's hold on its ticket; true when what it loaded may be kept. */
  private returnTicket(key: K, ticket: Ticket): boolean {
    if (--ticket.holders === 0 && this.tickets.get(key) === ticket) this.tickets.delete(key);
    return ticket.valid && ticket.epoch === this.epoch;
  }

  private store(key: K, value: V, token: object = {}): void {
    if (this.options.keep && !this.options.keep(value)) return;
    const weight = this.options.weigh ? this.options.weigh(value) : 0;
    const { maxWeight } = this.options;
    if (maxWeight !== undefined && weight > maxWeight / 4) return;
    this.remove(key);
    keptChanges++;
    this.entries.set(key, { value: deepFreeze(value), weight, token });
    this.weight += weight;
    while (
      this.entries.size > this.options.maxEntries ||
      (maxWeight !== undefined && this.weight > maxWeight)
    ) {
      const oldest = this.entries.keys().next();
      if (oldest.done) break;
      this.remove(oldest.value);
    }
  }

  private remove(key: K): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    keptChanges++;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}

/**
 * Freezes plain objects and arrays all the way down (lean documents are nothing else); class
 * instances (ObjectId, Date, Buffer, Map) are left as they are.
 */
export function deepFreeze<T>(value: T): T {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return value;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && proto !== Object.prototype && proto !== null) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
