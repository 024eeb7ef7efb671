/**
 * The delivery queue against a slow receiver and across a restart, over real HTTP with a real
 * local receiver (127.0.0.1, allowed by ALLOW_PRIVATE_HOSTS):
 * - saves answer while a receiver holds every delivery it gets; that receiver is sent at most
 *   PER_HOOK deliveries at once (it holds that many sockets, not one per save), another hook of
 *   the item gets every delivery meanwhile, and the held ones follow once it answers;
 * - saves batched into one write still each carry their own digest (the version that save
 *   replaced);
 * - "send test message" to a chat preset sends that service's format, and a chat service's error
 *   inside an HTTP 200 answer counts as a failure;
 * - a delivery still queued when the server stops (a retry due later, and a save's event taken
 *   just before the stop) is sent by the next server on the same data.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import type http from 'node:http';
import { PER_HOOK } from '../../models/webhooks/queue';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import { startReceiver, type Receiver } from '../helpers/receiver';
import { makeUser, type TestUser } from '../helpers/users';

/** Answers the slow path holds back, oldest first. */
const held: http.ServerResponse[] = [];
let slowOpen = 0;
let slowMaxOpen = 0;
/** Status for the `/restart` path (503 while "down"). */
let restartStatus = 200;
let receiver: Receiver;
let base = '';

beforeAll(async () => {
  receiver = await startReceiver(({ path }, res) => {
    if (path === '/slow') {
      slowOpen++;
      slowMaxOpen = Math.max(slowMaxOpen, slowOpen);
      res.on('close', () => slowOpen--);
      held.push(res);
      return;
    }
    res.statusCode = path === '/restart' ? restartStatus : 200;
    // WeCom's answer to a revoked robot key: HTTP 200 with the error inside.
    res.end(path === '/wecom-revoked' ? '{"errcode":93000,"errmsg":"invalid webhook url"}' : 'ok');
  });
  base = receiver.base;
});

afterAll(() => receiver.close());

/** What a path received, bodies parsed. */
const at = (path: string) =>
  receiver.received
    .filter((r) => r.path === path)
    .map((r) => ({ path: r.path, body: JSON.parse(r.body) as Record<string, any> }));

/** Polls until `probe` answers something truthy, and resolves that. */
async function until<T>(
  probe: () => T | Promise<T>,
  what: string,
  ms = 10_000,
): Promise<Exclude<T, false | null | undefined>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, false | null | undefined>;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const env = {
  ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  // Longer than the test holds an answer: held deliveries are slow, not failed.
  WEBHOOK_TIMEOUT_MS: '60000',
  // Two retries, later than a stop takes: the restart's server makes the retry.
  WEBHOOK_RETRY_SCHEDULE: '2,2',
};

describe('a slow receiver', () => {
  const suite = apiSuite({ env, item: {} });
  const { as } = suite;

  const save = (pageId: number, content: string) =>
    as(suite.owner).ok<{ page_id: number }>('page/save', {
      item_id: suite.itemId,
      page_id: pageId,
      page_title: 'Orders',
      page_content: content,
    });

  test('saves answer while it holds every delivery; it gets PER_HOOK at a time, the other hook all', async () => {
    const pageId = Number((await save(0, 'line 0')).page_id);
    for (const path of ['/slow', '/fast'])
      await as(suite.owner).ok('webhook/save', {
        item_id: suite.itemId,
        url: `${base}${path}`,
        events: 'page.updated',
      });

    const saves = 6;
    for (let i = 1; i <= saves; i++) await save(pageId, `line ${i}`);
    // Every save has answered, and the slow receiver has answered nothing yet.
    expect(held.every((res) => !res.writableEnded)).toBe(true);

    await until(() => at('/fast').length === saves, 'every delivery to the fast hook');
    await until(() => at('/slow').length === PER_HOOK, 'the slow hook’s first deliveries');
    await new Promise((r) => setTimeout(r, 400));
    expect(at('/slow')).toHaveLength(PER_HOOK);
    expect(slowMaxOpen).toBe(PER_HOOK);

    // Saves a few milliseconds apart share a batch; each delivery still diffs its own save.
    const digests = at('/fast')
      .map((r) => r.body.digest.diff.lines as string[])
      .sort((a, b) => a[1].localeCompare(b[1]));
    expect(digests).toEqual(
      Array.from({ length: saves }, (_, k) => [`- line ${k}`, `+ line ${k + 1}`]),
    );

    // Answered, the slow receiver gets the rest, never more than PER_HOOK at once.
    await until(() => {
      held.find((res) => !res.writableEnded)?.end('ok');
      return at('/slow').length === saves && held.every((res) => res.writableEnded);
    }, 'the rest of the slow hook’s deliveries');
    expect(slowMaxOpen).toBe(PER_HOOK);
    const versions = at('/slow').map((r) => r.body.digest.diff.lines[1] as string);
    expect(new Set(versions).size).toBe(saves);
  });
});

describe('switching a hook off', () => {
  const suite = apiSuite({ env, item: {} });
  const { as } = suite;

  test('its waiting deliveries fail at once, logged; the receiver gets no more', async () => {
    const save = (pageId: number, content: string) =>
      as(suite.owner).ok<{ page_id: number }>('page/save', {
        item_id: suite.itemId,
        page_id: pageId,
        page_title: 'Off',
        page_content: content,
      });
    const pageId = Number((await save(0, 'v0')).page_id);
    const hook = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: suite.itemId,
      url: `${base}/slow`,
      events: 'page.updated',
    });
    const sent = at('/slow').length;
    for (let i = 1; i <= 5; i++) await save(pageId, `v${i}`);
    await until(() => at('/slow').length === sent + PER_HOOK, 'the first deliveries');
    const logged = () =>
      as(suite.owner).ok<{ list: Array<{ status: string; error: string }>; total: number }>(
        'webhook/deliveries',
        { item_id: suite.itemId, id: hook.id },
      );
    await until(async () => (await logged()).total === 5, 'all five queued');

    await as(suite.owner).ok('webhook/save', { item_id: suite.itemId, id: hook.id, enabled: 0 });
    const log = await logged();
    const failed = log.list.filter((row) => row.status === 'failed');
    expect(failed).toHaveLength(5 - PER_HOOK);
    expect(failed.every((row) => row.error === 'the hook is switched off')).toBe(true);

    for (const res of held) if (!res.writableEnded) res.end('ok');
    await new Promise((r) => setTimeout(r, 500));
    expect(at('/slow')).toHaveLength(sent + PER_HOOK);
  });
});

describe('chat presets', () => {
  const suite = apiSuite({ env, item: {} });
  const { as } = suite;

  test('"send test message" sends the service’s format; an error inside HTTP 200 is a failure', async () => {
    const slack = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: suite.itemId,
      url: `${base}/slack`,
      preset: 'slack',
    });
    const ok = await as(suite.owner).ok<Record<string, unknown>>('webhook/test', {
      item_id: suite.itemId,
      id: slack.id,
    });
    expect(ok).toMatchObject({ status: 'success', response_code: 200, error: '' });
    const [message] = at('/slack');
    expect(message.body).toMatchObject({ text: expect.stringContaining('Test message') });
    expect(message.body.blocks[0].type).toBe('section');

    const wecom = await as(suite.owner).ok<{ id: number }>('webhook/save', {
      item_id: suite.itemId,
      url: `${base}/wecom-revoked`,
      preset: 'wecom',
    });
    const failed = await as(suite.owner).ok<Record<string, any>>('webhook/test', {
      item_id: suite.itemId,
      id: wecom.id,
    });
    expect(failed).toMatchObject({ status: 'failed', response_code: 200 });
    expect(failed.error).toContain('service error 93000');
    expect(at('/wecom-revoked')[0].body).toMatchObject({ msgtype: 'markdown' });
    // A test message is not counted against the hook.
    const hooks = await as(suite.owner).ok<Array<{ id: number; fail_count: number }>>(
      'webhook/list',
      { item_id: suite.itemId },
    );
    expect(hooks.find((h) => h.id === wecom.id)?.fail_count).toBe(0);
  });
});

describe('a restart', () => {
  let dataDir = '';
  let server: TestServer | null = null;
  let owner: TestUser;

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('deliveries queued when the server stops are sent by the next one', async () => {
    dataDir = await makeTempDir();
    server = await startTestServer({ dataDir, env: { ...env, LOG_LEVEL: 'silent' } });
    owner = await makeUser();
    const { item_id: itemId } = await makeItem(owner);
    const api = () => server!.api.withToken(owner.user_token);
    const save = async (pageId: number, content: string) =>
      Number(
        (
          await api().ok<{ page_id: number }>('page/save', {
            item_id: itemId,
            page_id: pageId,
            page_title: 'Kept',
            page_content: content,
          })
        ).page_id,
      );
    const pageId = await save(0, 'v0');
    const hook = await api().ok<{ id: number }>('webhook/save', {
      item_id: itemId,
      url: `${base}/restart`,
      events: 'page.updated',
    });

    // The receiver is down: the first attempt fails and a retry is queued.
    restartStatus = 503;
    await save(pageId, 'v1');
    await until(() => at('/restart').length === 1, 'the failed attempt');
    // This save's event may still be in the outbox when the stop begins: the stop writes it.
    await save(pageId, 'v2');
    await server.stop();
    server = null;
    restartStatus = 200;
    const before = at('/restart').length;

    server = await startTestServer({ dataDir, env: { ...env, LOG_LEVEL: 'silent' } });
    const delivered = await until(() => {
      const ok = at('/restart').slice(before);
      const lines = new Set(ok.map((r) => r.body.digest.diff.lines[1] as string));
      return lines.has('+ v1') && lines.has('+ v2') && ok;
    }, 'both deliveries after the restart');
    expect(delivered.every((r) => r.body.event === 'page.updated')).toBe(true);
    const log = await until(async () => {
      const { list } = await api().ok<{ list: Array<{ status: string; attempts: number }> }>(
        'webhook/deliveries',
        { item_id: itemId, id: hook.id },
      );
      return list.length === 2 && list.every((row) => row.status === 'success') && list;
    }, 'both logged as successes');
    // v1's row: the attempt(s) before the stop failed, the one after it succeeded.
    expect(Math.max(...log.map((row) => row.attempts))).toBeGreaterThanOrEqual(2);
  });
});
