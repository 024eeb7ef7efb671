/**
 * `bus.delivered()`: an API answer waits for its events to reach the other processes. Inside a
 * request (`runForClient`) it waits for that request's own hand-overs only — a slow hand-over of
 * another request does not hold it — and outside one for every hand-over under way.
 */
import { describe, expect, test } from '@jest/globals';
import { createEventBus } from '../../../models/platform/events';
import { runForClient } from '../../../models/platform/requestClient';

function handOver() {
  let finish: () => void = () => {};
  const promise = new Promise<void>((resolve) => (finish = resolve));
  return { promise, finish: () => finish() };
}

const settledYet = async (promise: Promise<unknown>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('delivered()', () => {
  test("a request waits for its own hand-overs, not another request's", async () => {
    const bus = createEventBus();
    const slow = handOver();
    const own = handOver();
    runForClient('a', () => bus.track(slow.promise));
    const waiting = runForClient('b', () => {
      bus.track(own.promise);
      return bus.delivered();
    });
    expect(await settledYet(waiting)).toBe(false); // its own hand-over is still under way
    own.finish();
    expect(await settledYet(waiting)).toBe(true); // the other request's slow one does not hold it

    // Outside any request, every hand-over under way is waited for.
    const everything = bus.delivered();
    expect(await settledYet(everything)).toBe(false);
    slow.finish();
    expect(await settledYet(everything)).toBe(true);
  });

  test('a request with no hand-overs answers at once, even while others are under way', async () => {
    const bus = createEventBus();
    const pending = handOver();
    runForClient('a', () => bus.track(pending.promise));
    expect(await settledYet(runForClient('b', () => bus.delivered()))).toBe(true);
    pending.finish();
  });
});
