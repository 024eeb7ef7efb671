/**
 * Scale-out with Redis. First the event relay on its own (two buses, one Redis): each event
 * reaches the other process exactly once, never echoes back, and skips `localOnly` listeners.
 * Then three real Quire processes on one database and one Redis:
 *   A  ROLE=all      — owns the embedded engine (the others reach it through its unix socket)
 *   B  ROLE=api      — REST only: every change below is caused through B
 *   C  ROLE=realtime — Socket.IO only, started with `npm start`'s own entry (server/start.mjs)
 * Clients on A and C receive lock and notice events caused through B exactly once, presence spans
 * processes, the lock grace counts a user's sockets on every process, and two editors of one
 * page document on different processes converge.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rm } from 'node:fs/promises';
import { ConfigError, loadConfig } from '../../models/platform/config';
import type { Database } from '../../models/platform/db';
import { startRedisEventRelay, type RedisEventRelay } from '../../models/platform/eventBusRedis';
import { createEventBus, type DomainEvents, type EventBus } from '../../models/platform/events';
import { createLogger } from '../../models/platform/log';
import { ShowdocClient } from '../helpers/client';
import { closeAllCollabClients, openSynced } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeSharedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startSharedEngine, stopAllQuires, type QuireProcess } from '../helpers/quireProcesses';
import { startRedis, type TestRedis } from '../helpers/redis';
import { makeTempDir } from '../helpers/server';
import {
  closeAllSockets,
  connectClient,
  expectPresenceAcross,
  type TestClient,
} from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';

const silent = createLogger({ level: 'silent' });
let redis: TestRedis;

beforeAll(async () => {
  redis = await startRedis();
});
afterAll(async () => {
  closeAllSockets();
  closeAllCollabClients();
  await stopAllQuires();
  await redis?.stop();
});

describe('the Redis event relay', () => {
  const relays: RedisEventRelay[] = [];
  afterAll(async () => {
    for (const relay of relays) await relay.close();
  });

  async function relayedBus(): Promise<{ bus: EventBus; seen: unknown[]; localOnly: unknown[] }> {
    const bus = createEventBus();
    relays.push(await startRedisEventRelay({ bus, redisUrl: redis.url, logger: silent }));
    const seen: unknown[] = [];
    const localOnly: unknown[] = [];
    bus.subscribe('menu.changed', (p) => void seen.push(p));
    bus.subscribe('menu.changed', (p) => void localOnly.push(p), { localOnly: true });
    return { bus, seen, localOnly };
  }

  test('an event reaches every other process once, its own process once, and never echoes', async () => {
    const [one, two, three] = [await relayedBus(), await relayedBus(), await relayedBus()];
    const first: DomainEvents['menu.changed'] = { itemId: 1, byUid: 7 };
    const second: DomainEvents['menu.changed'] = { itemId: 2, byUid: 7 };
    one.bus.publish('menu.changed', first);
    two.bus.publish('menu.changed', second);
    for (const p of [one, two, three])
      await eventually(() => expect(p.seen).toHaveLength(2), { timeoutMs: 5000 });
    // A last event from a third publisher is a barrier: earlier messages were delivered before it.
    three.bus.publish('menu.changed', { itemId: 3, byUid: 7 });
    for (const p of [one, two, three])
      await eventually(() => expect(p.seen).toHaveLength(3), { timeoutMs: 5000 });
    for (const p of [one, two, three])
      expect(
        [...p.seen].sort(
          (a, b) => (a as { itemId: number }).itemId - (b as { itemId: number }).itemId,
        ),
      ).toEqual([first, second, { itemId: 3, byUid: 7 }]);
    // `localOnly` listeners (those that write) hear only their own process's events.
    expect(one.localOnly).toEqual([first]);
    expect(two.localOnly).toEqual([second]);
    expect(three.localOnly).toEqual([{ itemId: 3, byUid: 7 }]);
  });

  test('start-up fails clearly when Redis cannot be reached', async () => {
    await expect(
      startRedisEventRelay({
        bus: createEventBus(),
        redisUrl: 'redis://127.0.0.1:1',
        logger: silent,
        connectTimeoutMs: 1500,
      }),
    ).rejects.toThrow();
  });
});

describe('three Quire processes on one database and one Redis', () => {
  let dir: string;
  let a: QuireProcess;
  let b: QuireProcess;
  let c: QuireProcess;
  let db: Database;
  let owner: TestUser, editor: TestUser, reader: TestUser, itemId: number;

  beforeAll(async () => {
    dir = await makeTempDir('quire-redis-');
    const common = {
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      LOCK_GRACE_SECONDS: '1',
    };
    const engine = await startSharedEngine(dir, common);
    a = engine.owner;
    [b, c] = await Promise.all([
      engine.join('child', 'b', { ...common, ROLE: 'api' }),
      engine.join('start', 'c', { ...common, ROLE: 'realtime' }),
    ]);
    // This test process reaches the same database to make its users and items.
    db = await engine.openHere();
    ({ owner, editor, reader, itemId } = await makeSharedItem({ password: 'pw' }));
  });
  afterAll(async () => {
    closeAllSockets();
    await db?.close();
    // The processes that use A's engine stop before A.
    await Promise.all([b?.stop(), c?.stop()]);
    await a?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const on = (proc: QuireProcess, user: TestUser) =>
    connectClient(proc.url, { user_token: user.user_token });
  const viaB = (user: TestUser) => new ShowdocClient(b.url, user.user_token);
  const roundTrip = (client: TestClient) => client.unwatch({ page_id: 999_999_999 });

  test('split roles are refused without REDIS_URL (their events would go nowhere)', () => {
    for (const role of ['api', 'realtime'])
      expect(() => loadConfig({ ROLE: role })).toThrow(/ROLE .* needs REDIS_URL/);
    expect(loadConfig({ ROLE: 'realtime', REDIS_URL: redis.url }).role).toBe('realtime');
    expect(() => loadConfig({ ROLE: 'worker' })).toThrow(ConfigError);
  });

  test('each role serves only its part', async () => {
    // B (api) has no Socket.IO; C (realtime) has no API but answers health checks.
    await expect(on(b, reader)).rejects.toThrow();
    const api = await fetch(`${c.url}/api/page/isLock`, { method: 'POST' });
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error_code: 10404 });
    expect((await fetch(`${c.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${b.url}/healthz`)).status).toBe(200);
  });

  test('a lock taken and released through B reaches watchers on A and on C, once each', async () => {
    const page = await makePage(owner, itemId);
    const onA = await on(a, reader);
    const onC = await on(c, reader);
    for (const client of [onA, onC])
      expect(await client.watch({ page_id: page.page_id })).toMatchObject({ ok: true });

    await viaB(editor).ok('page/setLock', { page_id: page.page_id, item_id: itemId });
    for (const client of [onA, onC])
      expect(await client.waitFor('lock', (p) => p.locked)).toMatchObject({
        page_id: page.page_id,
        lock_uid: editor.uid,
        lock_username: editor.username,
      });
    await viaB(editor).ok('page/setLock', {
      page_id: page.page_id,
      item_id: itemId,
      lock_to: 1000,
    });
    for (const client of [onA, onC]) await client.waitFor('lock', (p) => !p.locked);
    await Promise.all([roundTrip(onA), roundTrip(onC)]);
    for (const client of [onA, onC]) expect(client.all('lock')).toHaveLength(2);
    onA.close();
    onC.close();
  });

  test('a site setting saved through B applies on A at once (settings.changed drops its cache)', async () => {
    const admin = await makeUser({ admin: true });
    const onA = new ShowdocClient(a.url);
    // A reads (and caches) the settings first.
    expect((await onA.ok<{ register_open: number }>('common/homePageSetting')).register_open).toBe(
      1,
    );
    await viaB(admin).ok('adminSetting/saveConfig', { register_open: 0, beian: 'ICP-relayed' });
    // The cache would keep the old answer for a minute: only the relayed event refreshes it.
    await eventually(
      async () =>
        expect(await onA.ok('common/homePageSetting')).toMatchObject({
          register_open: 0,
          beian: 'ICP-relayed',
        }),
      { timeoutMs: 10_000 },
    );
    await viaB(admin).ok('adminSetting/saveConfig', { register_open: 1, beian: '' });
  });

  test('save-and-notify through B reaches the subscriber on A and on C exactly once', async () => {
    const page = await makePage(editor, itemId);
    await viaB(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(reader.uid),
    });
    const onA = await on(a, reader);
    const onC = await on(c, reader);
    await viaB(editor).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: page.page_title,
      page_content: 'new text',
      is_notify: 1,
      notify_content: 'Have a look',
    });
    for (const client of [onA, onC]) {
      expect(await client.waitFor('notice')).toMatchObject({
        kind: 'remind',
        object_id: page.page_id,
      });
      await client.waitFor('unread', (u) => u.remind >= 1);
    }
    // A second, later reminder is the barrier: by then any duplicate of the first had arrived.
    await viaB(editor).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: page.page_title,
      page_content: 'newer text',
      is_notify: 1,
      notify_content: 'And again',
    });
    for (const client of [onA, onC]) {
      await client.waitFor('notice', (n) => n.message_content.includes('And again'));
      await roundTrip(client);
      expect(client.all('notice')).toHaveLength(2);
    }
    onA.close();
    onC.close();
  });

  test('presence lists span processes', async () => {
    const page = await makePage(owner, itemId);
    const viewerOnA = await on(a, reader);
    const editorOnC = await on(c, editor);
    await expectPresenceAcross(
      page.page_id,
      { client: viewerOnA, user: reader },
      { client: editorOnC, user: editor },
    );
  });

  test("the lock grace counts the holder's sockets on every process", async () => {
    const page = await makePage(owner, itemId);
    const watcher = await on(a, reader);
    await watcher.watch({ page_id: page.page_id });

    // The holder moves from C to A within the grace: the lock stays.
    const holderOnC = await on(c, editor);
    await holderOnC.watch({ page_id: page.page_id, mode: 'editing' });
    await viaB(editor).ok('page/setLock', { page_id: page.page_id, item_id: itemId });
    await watcher.waitFor('lock', (p) => p.locked);
    const holderOnA = await on(a, editor);
    await holderOnA.watch({ page_id: page.page_id, mode: 'editing' });
    holderOnC.close();
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const state = await viaB(reader).ok<{ lock: number }>('page/isLock', { page_id: page.page_id });
    expect(state.lock).toBe(1);

    // Its last socket goes: released after the grace, and the watcher on A is told.
    holderOnA.close();
    await watcher.waitFor('lock', (p) => !p.locked);
    watcher.close();
  });

  test('two editors of one page on different processes converge to the same text', async () => {
    const page = await makePage(owner, itemId, { content: 'middle' });
    const onA = await openSynced(a.url, page.page_id, editor.user_token);
    const onC = await openSynced(c.url, page.page_id, owner.user_token);
    expect(onA.text.toString()).toBe('middle');
    expect(onC.text.toString()).toBe('middle');
    onA.text.insert(0, 'start ');
    onC.append(' end');
    for (const client of [onA, onC])
      await eventually(() => expect(client.text.toString()).toBe('start middle end'));
    onA.destroy();
    onC.destroy();
  });

  test("every role stops cleanly on SIGTERM (the users of A's engine first)", async () => {
    expect(await Promise.all([b.stop(), c.stop()])).toEqual([0, 0]);
    expect(await a.stop()).toBe(0);
  });
});
