/**
 * Admission control under overload (api/admission.ts), over real HTTP against a real Quire with
 * its limits set low: reads past the running and waiting budget are refused at once with 503,
 * Retry-After and the ShowDoc envelope (code 10504) while the slow reads still run; a waiting
 * read is refused when its wait runs out rather than left hanging; saves have a lane of their
 * own and get through while reads are saturated; /healthz answers while saturated; waiting reads
 * are served in order once a slot frees. Slowness comes from a probe action held on a gate, so
 * every assertion is about order (503 before the slow reads finish), never about timings.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { Request } from 'express';
import { laneOf } from '../../api/admission';
import { defineController } from '../../api/registry';
import type { ApiAnswer } from '../helpers/client';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

/** A read action that runs until the test opens its gate. */
function gatedRead() {
  let open!: () => void;
  let gate = new Promise<void>((resolve) => (open = resolve));
  let entered = 0;
  const waiters: Array<() => void> = [];
  const controller = defineController('quireSlow', {
    wait: async () => {
      entered += 1;
      waiters.splice(0).forEach((wake) => wake());
      await gate;
      return { finished: true };
    },
  });
  return {
    controller,
    /** Resolves once `count` reads have entered the action. */
    async entered(count: number) {
      while (entered < count) await new Promise<void>((resolve) => waiters.push(resolve));
    },
    release() {
      open();
    },
    reset() {
      entered = 0;
      gate = new Promise<void>((resolve) => (open = resolve));
    },
  };
}

/** A pending call whose settlement can be checked without awaiting it. */
function track(call: Promise<ApiAnswer>) {
  const tracked = { settled: false, answer: call };
  void call.finally(() => (tracked.settled = true)).catch(() => undefined);
  return tracked;
}

describe('admission control with two running and two waiting reads per lane', () => {
  const slow = gatedRead();
  let server: TestServer;
  let owner: TestUser;
  let itemId: number;

  beforeAll(async () => {
    server = await startTestServer({
      controllers: [slow.controller],
      env: {
        LOG_LEVEL: 'silent',
        MAX_INFLIGHT_PER_WORKER: '2',
        MAX_QUEUE_PER_WORKER: '2',
        // Long enough that no waiting read runs out here: refusals must come from the full queue.
        QUEUE_TIMEOUT_MS: '600000',
      },
    });
    owner = await makeUser();
    itemId = (await makeItem(owner)).item_id;
  });
  afterAll(async () => {
    slow.release();
    await server?.stop();
  });

  test('past the limits reads get 503 + Retry-After at once, saves and /healthz still go through, and the waiting reads are then served', async () => {
    const running = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    await slow.entered(2);
    const waiting = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    // The waiting reads reach the server before the refused ones: each answer below proves it.
    await new Promise((resolve) => setTimeout(resolve, 50));

    const refused = await Promise.all([1, 2, 3].map(() => server.api.call('quireSlow/wait')));
    for (const answer of refused) {
      expect(answer.status).toBe(503);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
      expect(answer.body).toEqual({
        error_code: 10504,
        error_message: 'Server busy, try again shortly',
      });
    }
    // Refused while every slow read is still running or waiting: no timeout was involved.
    expect([...running, ...waiting].every((call) => !call.settled)).toBe(true);

    // A real read (page/info) is refused the same way, in every URL form.
    const info = await server.api.call('item/info', { item_id: itemId }, { form: 'index.php' });
    expect(info.status).toBe(503);
    expect(info.body.error_code).toBe(10504);

    const health = await server.request('/healthz');
    expect(health.status).toBe(200);

    const saved = await server.api
      .withToken(owner.user_token)
      .call('page/save', { item_id: itemId, page_title: 'Saved under load', page_content: 'x' });
    expect(saved.status).toBe(200);
    expect(saved.body.error_code).toBe(0);
    const viaIndex = await server.api
      .withToken(owner.user_token)
      .call(
        'page/save',
        { item_id: itemId, page_title: 'Saved under load too', page_content: 'y' },
        { form: 'index.php' },
      );
    expect(viaIndex.body.error_code).toBe(0);
    expect([...running, ...waiting].every((call) => !call.settled)).toBe(true);

    slow.release();
    for (const call of [...running, ...waiting]) {
      const answer = await call.answer;
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ error_code: 0, data: { finished: true } });
    }
    // Slots are given back: the lane serves normally again.
    const after = await server.api.call('quireSlow/wait');
    expect(after.body).toEqual({ error_code: 0, data: { finished: true } });
  });

  test('the web app is refused with a plain-text 503 and Retry-After when the read lane is full', async () => {
    slow.reset();
    const running = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    await slow.entered(2);
    const waiting = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const page = await server.request('/');
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(page.headers.get('content-type')).toMatch(/^text\/plain/);
    slow.release();
    await Promise.all([...running, ...waiting].map((call) => call.answer));
  });
  test('a kept answer (api/answerCache.ts) takes its turn in the read lane: refused while the lane is full, served from memory again after', async () => {
    slow.reset();
    const page = await makePage(owner, itemId, { content: 'Kept while the lane is busy' });
    const reader = server.api.withToken(owner.user_token);
    const hits = () => server.quire.answers!.stats().hits;
    const servedFromMemory = async () => {
      const before = hits();
      const answer = await reader.call('page/info', { page_id: page.page_id });
      expect(answer.body).toMatchObject({ error_code: 0, data: { page_id: String(page.page_id) } });
      return hits() > before;
    };
    let served = false;
    for (let i = 0; i < 6 && !served; i++) served = await servedFromMemory();
    expect(served).toBe(true);

    const running = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    await slow.entered(2);
    const waiting = [1, 2].map(() => track(server.api.call('quireSlow/wait')));
    await new Promise((resolve) => setTimeout(resolve, 50));
    const before = hits();
    const refused = await reader.call('page/info', { page_id: page.page_id });
    expect(refused.status).toBe(503);
    expect(refused.body.error_code).toBe(10504);
    expect(hits()).toBe(before);
    expect([...running, ...waiting].every((call) => !call.settled)).toBe(true);

    slow.release();
    await Promise.all([...running, ...waiting].map((call) => call.answer));
    expect(await servedFromMemory()).toBe(true);
  });
});

describe('a read that waits longer than QUEUE_TIMEOUT_MS', () => {
  const slow = gatedRead();
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      controllers: [slow.controller],
      env: {
        LOG_LEVEL: 'silent',
        MAX_INFLIGHT_PER_WORKER: '1',
        MAX_QUEUE_PER_WORKER: '10',
        QUEUE_TIMEOUT_MS: '200',
      },
    });
  });
  afterAll(async () => {
    slow.release();
    await server?.stop();
  });

  test('is answered 503 with Retry-After while the read ahead of it still runs', async () => {
    const running = track(server.api.call('quireSlow/wait'));
    await slow.entered(1);
    const waited = await server.api.call('quireSlow/wait');
    expect(waited.status).toBe(503);
    expect(waited.headers.get('retry-after')).toBe('1');
    expect(waited.body.error_code).toBe(10504);
    expect(running.settled).toBe(false);
    slow.release();
    expect((await running.answer).status).toBe(200);
  });
});

describe('a lane starts at most its limit of requests per turn of the event loop', () => {
  // An action that answers without waiting for anything (as a cached page/info does): it notes
  // the turn of the event loop it ran in. The server runs in this process, so the turns are the
  // same; a turn is counted from one check phase (setImmediate) to the next.
  let turn = 0;
  let ticking = false;
  const startedIn: number[] = [];
  const tick = () => {
    turn += 1;
    if (ticking) setImmediate(tick);
  };
  const quick = defineController('quireQuick', {
    now: async () => {
      startedIn.push(turn);
      return { turn };
    },
  });
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer({
      controllers: [quick],
      env: { LOG_LEVEL: 'silent', MAX_INFLIGHT_PER_WORKER: '2', MAX_QUEUE_PER_WORKER: '200' },
    });
  });
  afterAll(async () => {
    ticking = false;
    await server?.stop();
  });

  test('a flood of answers that wait for nothing is spread over turns, so other work gets in between', async () => {
    // Sockets opened first, then every request sent at once: they arrive together, as a flood's
    // keep-alive readers do.
    await Promise.all(Array.from({ length: 40 }, () => server.api.call('quireQuick/now')));
    startedIn.length = 0;
    ticking = true;
    setImmediate(tick);
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => server.api.call('quireQuick/now')),
    );
    ticking = false;
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(startedIn).toHaveLength(40);
    const perTurn = new Map<number, number>();
    for (const t of startedIn) perTurn.set(t, (perTurn.get(t) ?? 0) + 1);
    // Two start where connections are read and two where the freed slots pass on, at most.
    expect(Math.max(...perTurn.values())).toBeLessThanOrEqual(4);
    expect(perTurn.size).toBeGreaterThanOrEqual(10);
  });
});

describe('lanes', () => {
  const lane = (url: string) =>
    laneOf({
      originalUrl: url,
      query: Object.fromEntries(new URL(url, 'http://x').searchParams),
    } as unknown as Request);

  test('saves, deletes and other changes take the write lane in every URL form; reads and the web app the read lane', () => {
    expect(lane('/api/page/save')).toBe('write');
    expect(lane('/server/index.php?s=/api/page/save')).toBe('write');
    expect(lane('/server/api/catalog/delete')).toBe('write');
    expect(lane('/api/open/updatePage')).toBe('write');
    expect(lane('/api/read/mark')).toBe('write');
    expect(lane('/api/page/uploadImg')).toBe('write');
    expect(lane('/api/page/info')).toBe('read');
    expect(lane('/api/page/uploadList')).toBe('read');
    expect(lane('/server/index.php?s=/api/item/info')).toBe('read');
    expect(lane('/api/item/search')).toBe('read');
    expect(lane('/item/5')).toBe('read');
  });
});
