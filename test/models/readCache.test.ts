/**
 * The read model's building block (models/platform/readCache.ts): bounded by count and by
 * weight (least recently used first), exact under a drop that races a load, values frozen, and
 * emptied at once by forgetCachedReads / `data.replaced`.
 */
import { describe, expect, test } from '@jest/globals';
import { createContext, runInContext } from '../../models/platform/context';
import { holdEvents } from '../../models/platform/events';
import { forgetCachedReads, ReadCache, readCachesVersion } from '../../models/platform/readCache';

/** A cache in a context of its own (as a domain's perContext factory makes it). */
function cacheOf<V>(options: ConstructorParameters<typeof ReadCache<number, V>>[0]) {
  const context = createContext('readCache-test');
  const cache = runInContext(context, () => new ReadCache<number, V>(options));
  return { context, cache };
}

const loads: number[] = [];
const loader = (key: number) => () => {
  loads.push(key);
  return Promise.resolve({ key });
};

describe('the bound', () => {
  test('past maxEntries the least recently used entry goes first', async () => {
    const { cache } = cacheOf<{ key: number }>({ maxEntries: 3 });
    for (const key of [1, 2, 3]) await cache.get(key, loader(key));
    await cache.get(1, loader(1)); // 1 is now the most recent
    await cache.get(4, loader(4)); // evicts 2, the least recent
    expect(cache.stats().entries).toBe(3);
    expect(cache.peek(2)).toBeUndefined();
    expect(cache.peek(1)).toEqual({ key: 1 });
    expect(cache.peek(3)).toEqual({ key: 3 });
    expect(cache.peek(4)).toEqual({ key: 4 });
  });

  test('past maxWeight entries go until the total fits; one too heavy is served but not kept', async () => {
    const { cache } = cacheOf<string>({ maxEntries: 100, maxWeight: 100, weigh: (s) => s.length });
    await cache.get(1, async () => 'a'.repeat(20));
    await cache.get(2, async () => 'b'.repeat(20));
    await cache.get(3, async () => 'c'.repeat(20));
    await cache.get(4, async () => 'd'.repeat(20));
    await cache.get(5, async () => 'e'.repeat(25)); // 105 > 100: entry 1 goes
    expect(cache.peek(1)).toBeUndefined();
    expect(cache.stats().weight).toBe(85);
    expect(await cache.get(6, async () => 'f'.repeat(30))).toBe('f'.repeat(30));
    expect(cache.peek(6)).toBeUndefined(); // over a quarter of the budget
    expect(cache.stats().weight).toBeLessThanOrEqual(100);
  });

  test('values refused by `keep` are answered but not kept', async () => {
    const { cache } = cacheOf<{ key: number } | null>({
      maxEntries: 10,
      keep: (v) => v !== null,
    });
    expect(await cache.get(1, async () => null)).toBeNull();
    expect(cache.stats().entries).toBe(0);
  });
});

describe('exactness', () => {
  test('a load that a drop raced answers its caller but is not kept', async () => {
    const { cache } = cacheOf<string>({ maxEntries: 10 });
    let finish: (value: string) => void = () => {};
    const pending = cache.get(1, () => new Promise<string>((resolve) => (finish = resolve)));
    cache.drop(1); // the write happened while the read was in flight
    finish('stale');
    expect(await pending).toBe('stale');
    expect(cache.peek(1)).toBeUndefined();
    expect(await cache.get(1, async () => 'fresh')).toBe('fresh');
    expect(cache.peek(1)).toBe('fresh');
  });

  test("a drop of another key does not cost a load under way; dropWhere and a getMany's key do", async () => {
    const { cache } = cacheOf<string>({ maxEntries: 10 });
    const deferred = () => {
      let finish: (value: string) => void = () => {};
      const promise = new Promise<string>((resolve) => (finish = resolve));
      return { promise, finish: (value: string) => finish(value) };
    };
    const one = deferred();
    const pending = cache.get(1, () => one.promise);
    cache.drop(2); // a save of another page
    one.finish('one');
    await pending;
    expect(cache.peek(1)).toBe('one');

    const three = deferred();
    const raced = cache.get(3, () => three.promise);
    cache.dropWhere((key) => key > 100); // matches nothing kept, but may match what is loading
    three.finish('three');
    await raced;
    expect(cache.peek(3)).toBeUndefined();

    const many = deferred();
    const batch = cache.getMany([4, 5], async (missing) => {
      await many.promise;
      return new Map(missing.map((k) => [k, `v${k}`]));
    });
    cache.drop(5);
    many.finish('');
    expect([...(await batch).values()]).toEqual(['v4', 'v5']);
    expect([cache.peek(4), cache.peek(5)]).toEqual(['v4', undefined]);
  });

  test('a writer keeps what it wrote only when its own event was the only drop since it began', () => {
    const { cache } = cacheOf<string>({ maxEntries: 10 });
    const alone = cache.watch(1);
    cache.drop(1); // the writer's own page.saved
    cache.keepWritten(alone, 'written');
    expect(cache.peek(1)).toBe('written');

    const raced = cache.watch(2);
    cache.drop(2); // another process's save of the same page arrived meanwhile
    cache.drop(2); // then the writer's own event
    cache.keepWritten(raced, 'maybe older');
    expect(cache.peek(2)).toBeUndefined();

    const cleared = cache.watch(3);
    cache.dropWhere(() => false);
    cache.drop(3);
    cache.keepWritten(cleared, 'x');
    expect(cache.peek(3)).toBeUndefined();

    const abandoned = cache.watch(4);
    cache.unwatch(abandoned);
    cache.drop(4);
    expect(abandoned.drops).toBe(0); // no longer counted once given up
  });

  test('concurrent misses share one load', async () => {
    const { cache } = cacheOf<{ key: number }>({ maxEntries: 10 });
    loads.length = 0;
    const [x, y] = await Promise.all([cache.get(7, loader(7)), cache.get(7, loader(7))]);
    expect(x).toBe(y);
    expect(loads).toEqual([7]);
  });

  test('kept values are frozen all the way down', async () => {
    const { cache } = cacheOf<{ list: Array<{ n: number }> }>({ maxEntries: 10 });
    const value = await cache.get(1, async () => ({ list: [{ n: 1 }] }));
    expect(() => {
      value.list[0].n = 2;
    }).toThrow(TypeError);
    expect(() => value.list.push({ n: 3 })).toThrow(TypeError);
  });

  test('getMany answers hits from memory and loads only the misses, in one call', async () => {
    const { cache } = cacheOf<string>({ maxEntries: 10 });
    await cache.get(1, async () => 'one');
    const asked: number[][] = [];
    const found = await cache.getMany([1, 2, 3], async (missing) => {
      asked.push(missing);
      return new Map(missing.filter((k) => k !== 3).map((k) => [k, `v${k}`]));
    });
    expect(asked).toEqual([[2, 3]]);
    expect([...found]).toEqual([
      [1, 'one'],
      [2, 'v2'],
    ]);
    expect(cache.peek(2)).toBe('v2');
  });
});

describe('emptying a whole context', () => {
  test('forgetCachedReads empties every cache of the current context, and only of it', async () => {
    const first = cacheOf<string>({ maxEntries: 10 });
    const second = cacheOf<string>({ maxEntries: 10 });
    await first.cache.get(1, async () => 'a');
    await second.cache.get(1, async () => 'b');
    runInContext(first.context, () => forgetCachedReads());
    expect(first.cache.peek(1)).toBeUndefined();
    expect(second.cache.peek(1)).toBe('b');
  });

  test('`data.replaced` on the bus empties them too (it is relayed to other processes)', async () => {
    const { context, cache } = cacheOf<string>({ maxEntries: 10 });
    await cache.get(1, async () => 'a');
    context.bus.publish('data.replaced', {});
    await Promise.resolve();
    expect(cache.peek(1)).toBeUndefined();
  });
});

describe('the bus runs cache listeners first', () => {
  test('a synchronous listener runs inside publish, before every other listener', async () => {
    const { context } = cacheOf<string>({ maxEntries: 1 });
    const order: string[] = [];
    context.bus.subscribe('item.changed', () => void order.push('ordinary'));
    context.bus.subscribe('item.changed', () => void order.push('cache'), { synchronous: true });
    context.bus.publish('item.changed', { itemId: 1, change: 'updated', byUid: 1 });
    expect(order).toEqual(['cache']);
    await Promise.resolve();
    expect(order).toEqual(['cache', 'ordinary']);
  });
});

describe('transactions', () => {
  test('inside held work (a transaction) the cache is neither read nor filled', async () => {
    const { cache } = cacheOf<string>({ maxEntries: 10 });
    await cache.get(1, async () => 'committed');
    const { result } = await holdEvents(async () => [
      await cache.get(1, async () => 'inside the transaction'),
      await cache.get(2, async () => 'not yet committed'),
    ]);
    expect(result).toEqual(['inside the transaction', 'not yet committed']);
    expect(cache.peek(1)).toBe('committed');
    expect(cache.peek(2)).toBeUndefined();
  });
});

describe('readCachesVersion (reused answers skip their trace while it stands still)', () => {
  test('moves with every change to what is kept — stored, replaced, evicted, dropped, cleared — and not with a hit', async () => {
    const { cache } = cacheOf<{ key: number }>({ maxEntries: 2 });
    const moved = async (change: () => unknown) => {
      const before = readCachesVersion();
      await change();
      return readCachesVersion() !== before;
    };
    expect(await moved(() => cache.get(1, loader(1)))).toBe(true); // stored
    expect(await moved(() => cache.get(1, loader(1)))).toBe(false); // a hit
    expect(await moved(() => cache.peek(1))).toBe(false);
    expect(await moved(() => cache.set(1, { key: 10 }))).toBe(true); // replaced
    expect(await moved(() => cache.get(2, loader(2)))).toBe(true);
    expect(await moved(() => cache.get(3, loader(3)))).toBe(true); // 1 evicted
    expect(await moved(() => cache.drop(2))).toBe(true);
    expect(await moved(() => cache.drop(2))).toBe(false); // nothing kept for 2 any more
    expect(await moved(() => cache.dropWhere((key) => key === 3))).toBe(true);
    await cache.get(4, loader(4));
    expect(await moved(() => cache.clear())).toBe(true);
    expect(await moved(() => cache.clear())).toBe(false); // already empty
  });
});
