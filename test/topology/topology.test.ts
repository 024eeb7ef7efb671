/**
 * The scaled install, run for real on one machine (issue #39): every host its own network
 * namespace on one bridge (test/topology/netns.ts) — a database host (the embedded engine served
 * on its own, `npm run quire -- engine:serve`), a Redis host, two API hosts (ROLE=api), two
 * realtime hosts (ROLE=realtime) and nginx in front. Under a steady load through the proxy
 * (test/topology/load.ts: reads, saves, "save and notify", lock changes, 16 live sockets) it
 *   1. kills one API host (kill -9): the proxy routes around it, no acknowledged write is lost;
 *   2. kills one realtime host (kill -9): its sockets reconnect to the other and resync their
 *      locks and unread state;
 *   3. cuts Redis off the network for 10 s: pushes resume, every client's state is right again;
 *   4. kills the database host (kill -9) and starts it again 5 s later: the API answers a clear
 *      503 (10505, Retry-After) meanwhile and everything recovers after;
 * then checks that every acknowledged save is in the database with its content, and prints the
 * figures (errors per phase, time to recover). README "Scaling out" quotes them.
 *
 * Needs root, `ip netns`, nginx and redis-server: run by `npm run test:topology` (.ci/run), not by
 * `npm test`; without them it fails and says why, it never skips.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// The test process calls model functions itself (outside the app, which loads every domain):
// the domains that fill access's ports (models/platform/port.ts) are loaded here.
import '../../models/catalogs';
import '../../models/items';
import '../../models/members';
import '../../models/pages';
import { Message } from '../../models/notices/schemas';
import { subscribeUsers } from '../../models/notices';
import { liveLockOf } from '../../models/pages/liveReads';
import { openDatabase, type Database } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { ensureServerBuilt } from '../../server/serverBuild';
import { ROOT } from '../../server/paths';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import {
  killAllHosts,
  MONGODB_URI,
  startEngineHost,
  startProxyHost,
  startQuireHost,
  startRedisHost,
  type Host,
} from './hosts';
import { call, LiveClient, Recorder, startLoad, type PhaseCounts } from './load';
import {
  buildNetwork,
  clientAddress,
  missingPrerequisite,
  setHostLink,
  teardownNetwork,
} from './netns';

const USERS = 8;
const SOCKETS_PER_USER = 2;
const REDIS_CUT_MS = 10_000;
const DB_DOWN_MS = 5_000;

const missing = missingPrerequisite();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quire-topology-'));
const dataOf = (name: string) => path.join(dir, name);

let db: Database | undefined;
const hosts: Partial<Record<'db' | 'redis' | 'api1' | 'api2' | 'rt1' | 'rt2' | 'proxy', Host>> = {};
const clients: LiveClient[] = [];
const recorder = new Recorder();
let load: ReturnType<typeof startLoad> | undefined;
let itemId = 0;
let socketUsers: TestUser[] = [];
let notifier: TestUser;
let watchedPages: number[] = [];

/** One row of the figures table per phase. */
interface Figures {
  phase: string;
  drops: number;
  httpRecoveryMs?: number;
  liveRecoveryMs?: number;
  note: string;
}
const figures: Figures[] = [];

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const quireEnv = { ADMIN_PASSWORD: 'topology-admin-pw' };

function startQuire(name: 'api1' | 'api2' | 'rt1' | 'rt2'): Promise<Host> {
  return startQuireHost(name, dataOf(name), quireEnv).then((host) => (hosts[name] = host));
}

/** The "unhandled error" lines the Quire hosts have logged (JSON lines at level warn and above). */
function unhandledErrorsLogged(): string[] {
  return (['api1', 'api2', 'rt1', 'rt2'] as const).flatMap((name) =>
    (hosts[name]?.output() ?? '')
      .split('\n')
      .filter((line) => line.includes('unhandled error'))
      .map((line) => `${name}: ${line.slice(0, 2000)}`),
  );
}

function totalDrops(): number {
  return clients.reduce((n, c) => n + c.drops, 0);
}

/** What the database says each live client should now show, read twice to catch a moving target. */
async function truth() {
  const read = async () => {
    const perUser = await Promise.all(
      socketUsers.map(async (u) => {
        const filter = { to_uid: u.uid, message_type: 'remind', status: 0 };
        const [latest, count] = await Promise.all([
          Message.findOne(filter, { message_content_id: 1, _id: 0 }).sort({ id: -1 }).lean(),
          Message.countDocuments(filter),
        ]);
        return [u.uid, { latest: latest?.message_content_id ?? 0, count }] as const;
      }),
    );
    const locks = await Promise.all(
      watchedPages.map(async (p) => [p, (await liveLockOf(p))?.uid ?? 0] as const),
    );
    return JSON.stringify({ perUser, locks });
  };
  const first = await read();
  return first === (await read())
    ? (JSON.parse(first) as {
        perUser: [number, { latest: number; count: number }][];
        locks: [number, number][];
      })
    : null;
}

/** Why the live clients are not (yet) what the database says, or '' when every one is. */
async function divergence(): Promise<string> {
  const notConnected = clients.filter((c) => !c.socket.connected || !c.synced).length;
  if (notConnected) return `${notConnected} clients not connected and resynchronised`;
  let expected;
  try {
    expected = await truth();
  } catch (error) {
    return `database not readable: ${(error as Error).message}`;
  }
  if (!expected) return 'state changing while read';
  const users = new Map(expected.perUser);
  const locks = new Map(expected.locks);
  const wrong: string[] = [];
  for (const c of clients) {
    const mine = users.get(c.uid)!;
    if (c.latestRemind !== mine.latest)
      wrong.push(`uid ${c.uid}: newest reminder ${c.latestRemind}, database ${mine.latest}`);
    if (c.unread?.remind !== mine.count)
      wrong.push(`uid ${c.uid}: unread ${c.unread?.remind}, database ${mine.count}`);
    for (const { pageId } of c.pages)
      if (c.locks.get(pageId) !== locks.get(pageId))
        wrong.push(
          `uid ${c.uid}: page ${pageId} lock ${c.locks.get(pageId)}, database ${locks.get(pageId)}`,
        );
  }
  return wrong.slice(0, 5).join('; ');
}

async function until(check: () => boolean, timeoutMs: number, failure: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(failure);
    await pause(20);
  }
}

/** Waits until every live client shows what the database holds; the ms since `since`. */
async function liveRecovered(since: number, timeoutMs = 60_000): Promise<number> {
  let why = '';
  while (Date.now() - since < timeoutMs) {
    why = await divergence();
    if (!why) return Date.now() - since;
    await pause(100);
  }
  throw new Error(`live clients not recovered ${timeoutMs} ms after the fault: ${why}`);
}

/** Saves until one is acknowledged through the proxy; the ms since `since`. */
async function httpRecovered(since: number, timeoutMs = 60_000): Promise<number> {
  while (Date.now() - since < timeoutMs) {
    const answer = await call(
      'page/save',
      notifier.user_token,
      {
        item_id: itemId,
        cat_id: 0,
        page_title: 'recovery probe',
        page_content: `probe ${Date.now()}`,
      },
      5000,
    );
    if (answer.ok) return Date.now() - since;
    await pause(100);
  }
  throw new Error(`no save acknowledged ${timeoutMs} ms after the fault`);
}

function describeCounts(c: PhaseCounts): string {
  const outcomes = [...c.outcomes].map(([what, n]) => `${n}× ${what}`).join(', ');
  return `${c.ok} ok, ${c.failed} failed${outcomes ? ` (${outcomes})` : ''}, slowest ${c.maxMs} ms`;
}

beforeAll(async () => {
  if (missing) throw new Error(`Cannot build the topology: ${missing}`);
  await ensureServerBuilt(ROOT, (text) => process.stdout.write(`${text}\n`));
  buildNetwork(USERS * SOCKETS_PER_USER);
  [hosts.db, hosts.redis] = await Promise.all([startEngineHost(dataOf('db')), startRedisHost()]);
  // The first API host migrates the new database and makes the first admin; the others find it done.
  await startQuire('api1');
  await Promise.all([startQuire('api2'), startQuire('rt1'), startQuire('rt2')]);
  hosts.proxy = await startProxyHost(dataOf('nginx'));

  db = await openDatabase({
    mongodbUri: MONGODB_URI,
    dataDir: dataOf('tester'),
    logger: createLogger({ level: 'silent' }),
    role: 'tool',
  });
  const owner = await makeUser();
  notifier = owner;
  ({ item_id: itemId } = await makeItem(owner, { item_name: 'Topology' }));
  const [saverA, saverB, churner] = [await makeUser(), await makeUser(), await makeUser()];
  socketUsers = await Promise.all(Array.from({ length: USERS }, () => makeUser()));
  for (const user of [saverA, saverB, churner, ...socketUsers]) await addMember(itemId, user, 1);
  const notifyPage = await makePage(owner, itemId, { title: 'notify page' });
  const churnPage = await makePage(owner, itemId, { title: 'churn page' });
  await subscribeUsers(
    await actorOf(owner),
    notifyPage.page_id,
    socketUsers.map((u) => u.uid),
  );
  // Half the live users hold the lock of a page of their own, open in their editor.
  const held = new Map<number, number>();
  for (const user of socketUsers.slice(0, USERS / 2)) {
    const page = await makePage(owner, itemId, { title: `held by ${user.username}` });
    const answer = await call('page/setLock', user.user_token, {
      item_id: itemId,
      page_id: page.page_id,
    });
    expect(answer).toMatchObject({ ok: true });
    held.set(user.uid, page.page_id);
  }
  watchedPages = [churnPage.page_id, ...held.values()];
  socketUsers.forEach((user, u) => {
    const pages = [
      { pageId: churnPage.page_id, mode: 'viewing' as const },
      ...(held.has(user.uid) ? [{ pageId: held.get(user.uid)!, mode: 'editing' as const }] : []),
    ];
    for (let s = 0; s < SOCKETS_PER_USER; s++)
      clients.push(
        new LiveClient(
          user.uid,
          user.user_token,
          itemId,
          pages,
          clientAddress(u * SOCKETS_PER_USER + s),
        ),
      );
  });

  load = startLoad({
    recorder,
    itemId,
    savers: [saverA.user_token, saverB.user_token],
    readers: [owner.user_token, socketUsers[0].user_token],
    notifier: { token: owner.user_token, pageId: notifyPage.page_id },
    churner: { token: churner.user_token, pageId: churnPage.page_id },
  });
  // Steady state first: everything flows before any fault.
  recorder.phase = 'steady';
  await pause(5000);
  await liveRecovered(Date.now(), 30_000);
}, 240_000);

afterAll(async () => {
  for (const c of clients) c.close();
  await load?.stop();
  await db?.close().catch(() => {});
  await killAllHosts();
  teardownNetwork();
  fs.rmSync(dir, { recursive: true, force: true });

  const kinds = ['read', 'save', 'notify', 'lock'];
  const lines = [
    '',
    'Topology figures (every request through nginx; times from the fault, or from the restore where noted):',
  ];
  for (const row of figures) {
    lines.push(`  ${row.phase}`);
    for (const kind of kinds)
      lines.push(`    ${kind.padEnd(7)} ${describeCounts(recorder.of(row.phase, kind))}`);
    lines.push(`    sockets dropped: ${row.drops}`);
    if (row.httpRecoveryMs !== undefined)
      lines.push(`    first acknowledged save after: ${row.httpRecoveryMs} ms`);
    if (row.liveRecoveryMs !== undefined)
      lines.push(
        `    every live client resynchronised and pushed to after: ${row.liveRecoveryMs} ms`,
      );
    if (row.note) lines.push(`    ${row.note}`);
  }
  const reasons = new Map<string, number>();
  for (const c of clients) for (const r of c.dropReasons) reasons.set(r, (reasons.get(r) ?? 0) + 1);
  lines.push(`  socket drops by reason: ${JSON.stringify(Object.fromEntries(reasons))}`);
  lines.push(
    `  client resync errors: ${JSON.stringify(clients.flatMap((c) => c.errors).slice(0, 10))}`,
  );
  process.stdout.write(`${lines.join('\n')}\n`);
});

describe('the scaled topology in network namespaces', () => {
  test('steady load: reads, saves and pushes flow through nginx with no error', () => {
    figures.push({ phase: 'steady', drops: totalDrops(), note: '5 s of load before any fault' });
    for (const kind of ['read', 'save', 'notify', 'lock'])
      expect(recorder.of('steady', kind)).toMatchObject({ failed: 0 });
    expect(recorder.of('steady', 'save').ok).toBeGreaterThan(5);
  });

  test('kill -9 of an API host: the proxy routes around it at once', async () => {
    recorder.phase = 'API host killed';
    const drops = totalDrops();
    const t0 = Date.now();
    await hosts.api1!.kill('SIGKILL');
    const [http, live] = await Promise.all([httpRecovered(t0), liveRecovered(t0)]);
    await pause(6000);
    // Only requests api1 had in hand when it died can fail; afterwards nginx sends none there.
    const saves = recorder.of(recorder.phase, 'save');
    expect(saves.ok).toBeGreaterThan(10);
    expect(saves.failed).toBeLessThanOrEqual(3);
    expect(totalDrops()).toBe(drops);
    figures.push({
      phase: 'API host killed',
      drops: totalDrops() - drops,
      httpRecoveryMs: http,
      liveRecoveryMs: live,
      note: 'load for 6 s on the remaining API host',
    });
    recorder.phase = 'API host back';
    const started = Date.now();
    await startQuire('api1');
    const startMs = Date.now() - started;
    await pause(5000);
    figures.push({
      phase: 'API host back',
      drops: totalDrops() - drops,
      note: `restarted (ready ${startMs} ms after its start), then 5 s of load on both`,
    });
  });

  test('kill -9 of a realtime host: its sockets reconnect to the other and resync', async () => {
    recorder.phase = 'realtime host killed';
    const drops = totalDrops();
    const t0 = Date.now();
    await hosts.rt1!.kill('SIGKILL');
    // The proxy's hash had put some clients on each realtime host: those on rt1 drop.
    await until(() => totalDrops() > drops, 10_000, 'no socket dropped: were all on rt2?');
    const live = await liveRecovered(t0);
    const dropped = totalDrops() - drops;
    expect(dropped).toBeLessThan(clients.length);
    await pause(3000);
    for (const kind of ['read', 'save', 'notify', 'lock'])
      expect(recorder.of(recorder.phase, kind)).toMatchObject({ failed: 0 });
    figures.push({ phase: 'realtime host killed', drops: dropped, liveRecoveryMs: live, note: '' });
    recorder.phase = 'realtime host back';
    await startQuire('rt1');
    await pause(3000);
    figures.push({ phase: 'realtime host back', drops: totalDrops() - drops - dropped, note: '' });
  });

  test('Redis cut off for 10 s: pushes resume and every client catches up', async () => {
    recorder.phase = 'Redis cut off';
    const drops = totalDrops();
    setHostLink('redis', false);
    await pause(REDIS_CUT_MS);
    setHostLink('redis', true);
    const restored = Date.now();
    const [http, live] = await Promise.all([httpRecovered(restored), liveRecovered(restored)]);
    await pause(2000);
    figures.push({
      phase: 'Redis cut off',
      drops: totalDrops() - drops,
      httpRecoveryMs: http,
      liveRecoveryMs: live,
      note: `times from the restore, after ${REDIS_CUT_MS / 1000} s cut off`,
    });
  });

  test('the database host killed and restarted: clear 503s meanwhile, full recovery after', async () => {
    recorder.phase = 'database host down';
    const drops = totalDrops();
    await hosts.db!.kill('SIGKILL');
    await pause(DB_DOWN_MS);
    // While it is down, a request is answered at once with the envelope that says so.
    const during = await call('page/info', notifier.user_token, { page_id: watchedPages[0] }, 5000);
    expect(during).toMatchObject({ status: 503, code: 10505 });
    const restarting = Date.now();
    hosts.db = await startEngineHost(dataOf('db'));
    const restored = Date.now();
    recorder.phase = 'database host back';
    const [http, live] = await Promise.all([httpRecovered(restored), liveRecovered(restored)]);
    await pause(2000);
    // Every failure while it was down was the clear one (or a request cut mid-way, when it died).
    for (const kind of ['read', 'save', 'notify', 'lock']) {
      const outcomes = ['database host down', 'database host back'].flatMap((phase) => [
        ...recorder.of(phase, kind).outcomes.keys(),
      ]);
      const unclear = outcomes.filter((o) => !o.startsWith('HTTP 503 / 10505'));
      // What the API hosts logged for an unexpected answer, so a failure here names its cause.
      const logged = unclear.length ? unhandledErrorsLogged() : [];
      expect({ kind, unclear, logged }).toEqual({ kind, unclear: [], logged: [] });
    }
    figures.push({
      phase: 'database host down',
      drops: totalDrops() - drops,
      httpRecoveryMs: http,
      liveRecoveryMs: live,
      note: `down ${DB_DOWN_MS / 1000} s; the engine took ${restored - restarting} ms to start; times from its restart`,
    });
    figures.push({
      phase: 'database host back',
      drops: 0,
      note: 'from the restart of the engine to the end of the phase',
    });
  });

  test('no acknowledged write was lost', async () => {
    await load!.stop();
    let acked = 0;
    const lost: string[] = [];
    for (const page of load!.saved.values()) {
      const lastAcked = page.attempts.map((a) => a.acked).lastIndexOf(true);
      acked += page.attempts.filter((a) => a.acked).length;
      const answer = await call('page/info', notifier.user_token, { page_id: page.pageId });
      const content = (answer.data as { page_content?: string } | null)?.page_content;
      // The last acknowledged content, or one sent after it whose answer never came.
      const allowed = page.attempts.slice(lastAcked).map((a) => a.content);
      if (!answer.ok || !allowed.includes(content ?? ''))
        lost.push(`page ${page.pageId}: ${content}`);
    }
    process.stdout.write(`\n${acked} acknowledged saves on ${load!.saved.size} pages checked.\n`);
    expect(lost).toEqual([]);
    expect(acked).toBeGreaterThan(50);
  });
});
