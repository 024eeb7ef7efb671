/**
 * Id counters: `nextIds` ranges and `reservedId`, which hands out ids from a block this process
 * took from the counter — distinct under concurrency, refilled when used up, set aside when the
 * data is replaced.
 */
import { describe, expect, test } from '@jest/globals';
import { events, nextId, nextIds, reservedId } from '../../../models/platform';
import { serverSuite } from '../../helpers/apiSuite';

serverSuite();

describe('reservedId', () => {
  test('concurrent callers get distinct ids, one counter round trip per block', async () => {
    const before = await nextId('reserve_test');
    const ids = await Promise.all(Array.from({ length: 10 }, () => reservedId('reserve_test', 4)));
    expect(new Set(ids).size).toBe(10);
    for (const id of ids) expect(id).toBeGreaterThan(before);
    // Three blocks of 4 were taken: the counter moved by 12, the two ids left are handed out next.
    const after = await nextId('reserve_test');
    expect(after).toBe(before + 12 + 1);
    const rest = [await reservedId('reserve_test', 4), await reservedId('reserve_test', 4)];
    expect(rest.every((id) => id <= before + 12 && !ids.includes(id))).toBe(true);
    expect(await reservedId('reserve_test', 4)).toBeGreaterThan(after);
  });

  test('a data replacement sets the block aside: the next id comes from the counter', async () => {
    const first = await reservedId('reserve_replaced', 100);
    events.publish('data.replaced', {});
    const [next] = await nextIds('reserve_replaced', 1);
    expect(next).toBe(first + 100);
    expect(await reservedId('reserve_replaced', 100)).toBe(next + 1);
  });
});
