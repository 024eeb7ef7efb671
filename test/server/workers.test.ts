/**
 * WORKERS=2 (server/serve.ts from the sources; `npm start` runs the same primary in its own
 * process, test/server/supervisor.test.ts): a primary handing connections to two worker
 * processes, without Redis; the lead worker (slot 0) runs the embedded engine. Real sockets on
 * each worker (told apart by their session ids, `w0-…` / `w1-…`): a lock change and a reminder
 * reach the sockets on both workers once each, presence spans them, a polling session works on a
 * kept-alive connection another worker holds, two editors share one Yjs document and REST saves
 * through either worker appear in it live. Either worker killed with SIGKILL during a write loop
 * — the lead with the engine in it — is replaced, every acknowledged write is still there and
 * the site answers again on both workers; SIGTERM stops the other worker, then the lead.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { engineSocketPath, openDatabase, type Database } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { ShowdocClient } from '../helpers/client';
import { closeAllCollabClients, openSynced } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { Message } from '../../models/notices/schemas/message';
import { addMember, makeSharedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import {
  startQuireProcess,
  stopAllQuires,
  workerPids,
  type QuireProcess,
} from '../helpers/quireProcesses';
import { makeTempDir } from '../helpers/server';
import {
  closeAllSockets,
  connectClient,
  expectPresenceAcross,
  type TestClient,
} from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';

let dir: string;
let quire: QuireProcess;
let db: Database;
let owner: TestUser, editor: TestUser, reader: TestUser, itemId: number;

beforeAll(async () => {
  dir = await makeTempDir('quire-workers-');
  quire = await startQuireProcess(
    'serve',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      WORKERS: '2',
      DATA_DIR: path.join(dir, 'data'),
      LOG_LEVEL: 'info',
      ADMIN_PASSWORD: 'Admin-pass-1',
    },
    { cwd: dir, startTimeoutMs: 120_000 },
  );
  // This test reaches the lead worker's engine over its socket, as the admin CLI does.
  db = await openDatabase({
    mongodbUri: '',
    dataDir: path.join(dir, 'data'),
    logger: createLogger({ level: 'silent' }),
    role: 'tool',
  });
  expect(db.via).toBe('engine-socket');
  ({ owner, editor, reader, itemId } = await makeSharedItem());
});

afterAll(async () => {
  closeAllSockets();
  closeAllCollabClients();
  await db?.close();
  await stopAllQuires();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const api = (user: TestUser) => new ShowdocClient(quire.url, user.user_token);
const slotOf = (client: TestClient) => Number(/^w(\d+)-/.exec(client.socket.io.engine.id)![1]);
const roundTrip = (client: TestClient) => client.unwatch({ page_id: 999_999_999 });

/** A socket of `user` on worker `slot` (new connections go to the workers in turn). */
async function socketOn(slot: number, user: TestUser): Promise<TestClient> {
  for (let attempt = 0; attempt < 20; attempt++) {
    let timer: NodeJS.Timeout | undefined;
    const client = await Promise.race([
      connectClient(quire.url, { user_token: user.user_token }),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`connecting hung (attempt ${attempt})`)), 10_000);
      }),
    ]).finally(() => clearTimeout(timer));
    if (slotOf(client) === slot) return client;
    client.close();
  }
  throw new Error(`no socket landed on worker ${slot}`);
}

/** The worker processes now: slot → pid (children of the primary running worker.ts). */
const workers = () => workerPids(quire.child.pid!);

/** One HTTP request on a connection of its own (so the primary routes it afresh). */
function request(
  url: string,
  options: http.RequestOptions & { body?: string } = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { agent: options.agent ?? false, ...options }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end(options.body);
  });
}

describe('live pushes across workers', () => {
  test('two workers serve, one engine: sockets land on both', async () => {
    expect([...workers().keys()].sort()).toEqual([0, 1]);
    const on0 = await socketOn(0, reader);
    const on1 = await socketOn(1, reader);
    expect([slotOf(on0), slotOf(on1)]).toEqual([0, 1]);
    on0.close();
    on1.close();
  });

  test('a lock taken and released reaches watchers on both workers, once each', async () => {
    const page = await makePage(owner, itemId);
    const watchers = [await socketOn(0, reader), await socketOn(1, reader)];
    for (const client of watchers)
      expect(await client.watch({ page_id: page.page_id })).toMatchObject({ ok: true });

    await api(editor).ok('page/setLock', { page_id: page.page_id, item_id: itemId });
    for (const client of watchers)
      expect(await client.waitFor('lock', (p) => p.locked)).toMatchObject({
        page_id: page.page_id,
        lock_uid: editor.uid,
      });
    await api(editor).ok('page/setLock', { page_id: page.page_id, item_id: itemId, lock_to: 1000 });
    for (const client of watchers) await client.waitFor('lock', (p) => !p.locked);
    await Promise.all(watchers.map(roundTrip));
    for (const client of watchers) expect(client.all('lock')).toHaveLength(2);
    for (const client of watchers) client.close();
  });

  test("save-and-notify reaches the subscriber's sockets on both workers exactly once", async () => {
    const page = await makePage(editor, itemId);
    await api(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: String(reader.uid),
    });
    const sockets = [await socketOn(0, reader), await socketOn(1, reader)];
    for (const text of ['Have a look', 'And again'])
      await api(editor).ok('page/save', {
        page_id: page.page_id,
        item_id: itemId,
        page_title: page.page_title,
        page_content: text,
        is_notify: 1,
        notify_content: text,
      });
    for (const client of sockets) {
      await client.waitFor('notice', (n) => n.message_content.includes('And again'));
      await roundTrip(client);
      // The second reminder is the barrier: a duplicate of the first would have come before it.
      expect(client.all('notice').map((n) => n.kind)).toEqual(['remind', 'remind']);
    }
    for (const client of sockets) client.close();
  });

  test('a notice to many subscribers across both workers: one row each with consecutive ids, one notice and one unread per recipient socket, none to others', async () => {
    const readers = await Promise.all(Array.from({ length: 6 }, () => makeUser()));
    const bystander = await makeUser();
    for (const user of [...readers, bystander]) await addMember(itemId, user, 0);
    const page = await makePage(editor, itemId);
    await api(editor).ok('subscription/savePage', {
      page_id: page.page_id,
      uids: readers.map((r) => r.uid).join(','),
    });
    // Half the readers on each worker, the first one on both; the bystander on both as well.
    const recipients: TestClient[] = [await socketOn(1, readers[0])];
    for (const [i, user] of readers.entries()) recipients.push(await socketOn(i % 2, user));
    const others = [await socketOn(0, bystander), await socketOn(1, bystander)];

    await api(editor).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: page.page_title,
      page_content: 'for all six',
      is_notify: 1,
      notify_content: 'Six readers, one batch',
    });
    const notices = await Promise.all(
      recipients.map((c) => c.waitFor('notice', (n) => n.object_id === page.page_id)),
    );
    for (const client of recipients) await client.waitFor('unread', (u) => u.remind >= 1);
    await Promise.all([...recipients, ...others].map(roundTrip));

    const contentId = notices[0].message_content_id;
    for (const notice of notices)
      expect(notice).toEqual({
        kind: 'remind',
        message_content_id: contentId,
        from_name: editor.username,
        message_content: 'Six readers, one batch',
        object_type: 'page',
        object_id: page.page_id,
        addtime: expect.stringMatching(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/),
      });
    for (const client of recipients) {
      expect(client.all('notice')).toHaveLength(1);
      expect(client.all('unread')).toEqual([{ remind: 1, announce: expect.any(Number) }]);
    }
    for (const client of others) {
      expect(client.all('notice')).toEqual([]);
      expect(client.all('unread')).toEqual([]);
    }

    const rows = await Message.find({ message_content_id: contentId }, { _id: 0 }).lean();
    expect(rows.map((r) => r.to_uid).sort((a, b) => a - b)).toEqual(
      readers.map((r) => r.uid).sort((a, b) => a - b),
    );
    const ids = rows.map((r) => r.id).sort((a, b) => a - b);
    expect(ids).toEqual(ids.map((_, i) => ids[0] + i));
    for (const client of [...recipients, ...others]) client.close();
  });

  test('presence lists span workers (the cluster adapter)', async () => {
    const page = await makePage(owner, itemId);
    const viewer = await socketOn(0, reader);
    const writer = await socketOn(1, editor);
    await expectPresenceAcross(
      page.page_id,
      { client: viewer, user: reader },
      { client: writer, user: editor },
    );
  });

  test('a polling session is served on a kept-alive connection that another worker holds', async () => {
    // One kept-alive connection, first used by a plain request: it stays with that worker.
    const pinned = new http.Agent({ keepAlive: true, maxSockets: 1 });
    await request(`${quire.url}/api/common/homePageSetting`, { agent: pinned });
    let pinnedSlot = -1;
    await eventually(() => {
      const lines = [
        ...quire.output().matchAll(/"worker":(\d)[^\n]*"path":"\/api\/common\/homePageSetting"/g),
      ];
      expect(lines).toHaveLength(1);
      pinnedSlot = Number(lines[0][1]);
    });
    // A polling handshake on fresh connections until one lands on the other worker.
    let sid = '';
    for (let attempt = 0; attempt < 20 && !sid; attempt++) {
      const open = await request(`${quire.url}/socket.io/?EIO=4&transport=polling`);
      const id = (JSON.parse(open.body.slice(1)) as { sid: string }).sid;
      if (!id.startsWith(`w${pinnedSlot}-`)) sid = id;
    }
    expect(sid).toMatch(/^w\d-/);
    const poll = `${quire.url}/socket.io/?EIO=4&transport=polling&sid=${encodeURIComponent(sid)}`;
    const connect = await request(poll, {
      agent: pinned,
      method: 'POST',
      headers: { 'content-type': 'text/plain;charset=UTF-8' },
      body: `40${JSON.stringify({ user_token: reader.user_token })}`,
    });
    expect(connect).toEqual({ status: 200, body: 'ok' });
    const answer = await request(poll, { agent: pinned });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatch(/^40\{"sid":/);
    pinned.destroy();
  });

  test('two editors share one Yjs document, and REST saves through either worker appear in it', async () => {
    const page = await makePage(owner, itemId, { content: 'middle' });
    const one = await openSynced(quire.url, page.page_id, editor.user_token);
    const two = await openSynced(quire.url, page.page_id, owner.user_token);
    one.text.insert(0, 'start ');
    two.append(' end');
    for (const client of [one, two])
      await eventually(() => expect(client.text.toString()).toBe('start middle end'));

    // Saves over fresh connections go to the workers in turn; each shows up in both editors.
    const servedBy = new Set<number>();
    for (let n = 0; n < 6 && servedBy.size < 2; n++) {
      const content = `saved ${n}`;
      const before = quire.output().length;
      const answer = await request(`${quire.url}/api/page/save`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          user_token: owner.user_token,
          page_id: String(page.page_id),
          item_id: String(itemId),
          page_title: page.page_title,
          page_content: content,
        }).toString(),
      });
      expect(JSON.parse(answer.body)).toMatchObject({ error_code: 0 });
      for (const client of [one, two])
        await eventually(() => expect(client.text.toString()).toBe(content));
      await eventually(() =>
        expect(quire.output().slice(before)).toMatch(/"worker":\d[^\n]*"path":"\/api\/page\/save"/),
      );
      const line = /"worker":(\d)[^\n]*"path":"\/api\/page\/save"/.exec(
        quire.output().slice(before),
      )!;
      servedBy.add(Number(line[1]));
    }
    expect([...servedBy].sort()).toEqual([0, 1]);
    one.destroy();
    two.destroy();
  });
});

/**
 * Writes pages in a loop (each answer awaited), SIGKILLs worker `slot` once 20 writes are in,
 * waits for its replacement, then for 20 more writes; every acknowledged write must then read
 * back. Requests cut by the kill, or failing while the engine is away, are not acknowledged.
 */
async function killUnderWriteLoad(slot: number): Promise<void> {
  const client = api(owner);
  const acknowledged: { page_id: number; content: string }[] = [];
  const failed: string[] = [];
  let writing = true;
  const load = (async () => {
    for (let n = 0; writing; n++) {
      const content = `write ${slot}-${n}`;
      try {
        const answer = await client.call('page/save', {
          page_id: 0,
          item_id: itemId,
          page_title: `W${slot}-${n}`,
          page_content: content,
        });
        if (answer.body.error_code === 0)
          acknowledged.push({
            page_id: Number((answer.body.data as { page_id: number }).page_id),
            content,
          });
        else failed.push(answer.body.error_message ?? String(answer.body.error_code));
      } catch (error) {
        // a request on the killed worker's connection: not acknowledged
        failed.push((error as Error).message);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  })();

  await eventually(() => expect(acknowledged.length).toBeGreaterThan(20), { timeoutMs: 30_000 });
  const readyLines = () =>
    quire.output().match(new RegExp(`"worker":${slot}[^\n]*"msg":"ready"`, 'g'));
  const readyBefore = readyLines()!.length;
  const victim = workers().get(slot)!;
  process.kill(victim, 'SIGKILL');
  await eventually(
    () =>
      expect(quire.output()).toMatch(
        new RegExp(`worker ${slot} \\(pid ${victim}\\) exited \\(SIGKILL\\)`),
      ),
    { timeoutMs: 30_000 },
  );
  await eventually(
    () => {
      const now = workers().get(slot);
      expect(now).toBeDefined();
      expect(now).not.toBe(victim);
      expect(readyLines()).toHaveLength(readyBefore + 1);
    },
    { timeoutMs: 120_000 },
  );
  const count = acknowledged.length;
  // The new worker takes its turn: sockets land on it again, and on the other one.
  (await socketOn(slot, reader)).close();
  (await socketOn(1 - slot, reader)).close();
  await eventually(() => expect(acknowledged.length).toBeGreaterThan(count + 20), {
    timeoutMs: 30_000,
  });
  writing = false;
  await load;
  process.stdout.write(
    `worker ${slot} killed: ${acknowledged.length} writes acknowledged, ${failed.length} not (${[...new Set(failed)].join('; ')})\n`,
  );

  // Read back through the API on fresh connections (either worker) and in the engine itself.
  for (const write of acknowledged) {
    const page = await api(owner).ok<{ page_content: string }>('page/info', {
      page_id: write.page_id,
    });
    expect(page.page_content).toBe(write.content);
  }
}

describe('a worker dies', () => {
  test('SIGKILL of the other worker under a page/save loop: it is replaced, every acknowledged write kept', async () => {
    await killUnderWriteLoad(1);
  }, 240_000);

  test('SIGKILL of the lead worker (the engine with it) under a page/save loop: replaced, the engine recovers from its journal, every acknowledged write kept, the other worker reconnects', async () => {
    await killUnderWriteLoad(0);
    // The other worker reaches the new engine: a request routed to it reads and writes again.
    const servedBy = new Set<number>();
    for (let n = 0; n < 10 && servedBy.size < 2; n++) {
      const before = quire.output().length;
      const answer = await request(`${quire.url}/api/item/info`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          user_token: owner.user_token,
          item_id: String(itemId),
        }).toString(),
      });
      expect(JSON.parse(answer.body)).toMatchObject({ error_code: 0 });
      await eventually(() =>
        expect(quire.output().slice(before)).toMatch(/"worker":\d[^\n]*"path":"\/api\/item\/info"/),
      );
      servedBy.add(
        Number(
          /"worker":(\d)[^\n]*"path":"\/api\/item\/info"/.exec(quire.output().slice(before))![1],
        ),
      );
    }
    expect([...servedBy].sort()).toEqual([0, 1]);
  }, 240_000);

  test('SIGTERM stops the other worker, then the lead and its engine: exit 0, the engine socket removed', async () => {
    await db.close();
    expect(await quire.stop()).toBe(0);
    expect(quire.output()).toContain('Quire stopped.');
    const stoppedAt = (slot: number) =>
      quire.output().search(new RegExp(`"worker":${slot}[^\n]*"msg":"stopped"`));
    expect(stoppedAt(1)).toBeGreaterThan(-1);
    expect(stoppedAt(0)).toBeGreaterThan(stoppedAt(1));
    expect(fs.existsSync(engineSocketPath(path.join(dir, 'data')))).toBe(false);
    expect(workers().size).toBe(0);
  });
});
