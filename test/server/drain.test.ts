/**
 * SIGTERM drains (a rolling restart loses nothing): the real server as a child process
 * (server/serve.ts, what `npm start` supervises — one process, and the cluster primary with two
 * workers), holding at once a request whose body is still arriving on a keep-alive connection, a
 * Socket.IO client, and a collaborative document with an edit the server has but has not stored
 * yet. On SIGTERM the socket is told `server_shutdown` and its transport closes, the editor gets
 * close 1012, the slow request still completes (200, saved, `Connection: close`), the edit is in
 * the database after the exit, and the exit code is 0.
 */
import { afterAll, afterEach, describe, expect, test } from '@jest/globals';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { loadDraft, livePageContent } from '../../models/pages';
import { openDatabase, type Database } from '../../models/platform/db';
import { createLogger } from '../../models/platform/log';
import { closeAllCollabClients, openSynced } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeSharedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startQuireProcess, stopAllQuires } from '../helpers/quireProcesses';
import { makeTempDir } from '../helpers/server';
import { closeAllSockets, connectClient } from '../helpers/sockets';

const dirs: string[] = [];
let db: Database | undefined;

afterEach(async () => {
  closeAllSockets();
  closeAllCollabClients();
  await db?.close();
  db = undefined;
  await stopAllQuires();
});

afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const openHere = (dataDir: string) =>
  openDatabase({
    mongodbUri: '',
    dataDir,
    logger: createLogger({ level: 'silent' }),
    role: 'tool',
  });

/** A POST whose body is sent in two parts: `finish()` sends the rest and awaits the answer. */
function slowPost(url: string, body: string, agent: http.Agent) {
  const cut = body.length - 8;
  const req = http.request(url, {
    method: 'POST',
    agent,
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': Buffer.byteLength(body),
    },
  });
  const answer = new Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }>(
    (resolve, reject) => {
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      });
      req.on('error', reject);
    },
  );
  req.write(body.slice(0, cut));
  return {
    finish() {
      req.end(body.slice(cut));
      return answer;
    },
  };
}

describe.each([
  { mode: 'one process', workers: '1' },
  { mode: 'a primary and two workers', workers: '2' },
])('SIGTERM drains ($mode)', ({ workers }) => {
  test('the slow request completes, the socket is told to reconnect, the live edit is stored, exit 0', async () => {
    const dir = await makeTempDir('quire-drain-');
    dirs.push(dir);
    const dataDir = path.join(dir, 'data');
    const quire = await startQuireProcess(
      'serve',
      {
        HOST: '127.0.0.1',
        PORT: '0',
        WORKERS: workers,
        DATA_DIR: dataDir,
        ADMIN_PASSWORD: 'Admin-pass-1',
        GC_AFTER_START: 'false',
        SHUTDOWN_GRACE_MS: '8000',
      },
      { cwd: dir, startTimeoutMs: 120_000 },
    );
    db = await openHere(dataDir);
    const { owner, editor, itemId } = await makeSharedItem();
    const page = await makePage(owner, itemId, { content: 'saved text' });

    const socket = await connectClient(quire.url, { user_token: owner.user_token });
    await socket.watch({ page_id: page.page_id, mode: 'viewing' });
    let transportClosed = '';
    socket.socket.on('disconnect', (reason) => (transportClosed = reason));

    const collab = await openSynced(quire.url, page.page_id, editor.user_token);
    collab.stopReconnecting();
    collab.append('\nunsaved live edit');
    // The server has the edit (its sync answer came back) but stores drafts only after 2 s of quiet.
    await eventually(() => expect(collab.provider.hasUnsyncedChanges).toBe(false));
    expect((await loadDraft(page.page_id))?.text ?? '').not.toContain('unsaved live edit');

    const agent = new http.Agent({ keepAlive: true });
    const form = new URLSearchParams({
      user_token: owner.user_token,
      item_id: String(itemId),
      page_title: 'Sent during the stop',
      page_content: 'acknowledged while draining',
    }).toString();
    const slow = slowPost(`${quire.url}/api/page/save`, form, agent);
    // Its headers reached the server: the request is in flight.
    await new Promise((resolve) => setTimeout(resolve, 300));

    const exited = new Promise<number | null>((resolve) =>
      quire.child.once('exit', (code) => resolve(code)),
    );
    quire.child.kill('SIGTERM');
    const hint = await socket.waitFor('server_shutdown', undefined, 10_000);
    expect(hint).toEqual({ reconnect: true });
    // The transport was closed (the client would reconnect), not a server-side disconnect.
    await eventually(() => expect(transportClosed).toBe('transport close'));
    await eventually(() => expect(collab.closes).toContain('server-shutdown'));

    const answer = await slow.finish();
    expect(answer.status).toBe(200);
    expect(answer.headers.connection).toBe('close');
    const envelope = JSON.parse(answer.body) as { error_code: number; data: { page_id: number } };
    expect(envelope.error_code).toBe(0);
    agent.destroy();

    const code = await exited;
    // The output says why, should it not be 0.
    expect({ code, output: code === 0 ? '' : quire.output() }).toEqual({ code: 0, output: '' });
    expect(quire.output()).toMatch(/Quire stopped\./);

    // Everything is on disk: open the data folder itself, the server being gone.
    await db.close();
    db = await openHere(dataDir);
    expect(db.via).not.toBe('engine-socket');
    expect((await loadDraft(page.page_id))?.text).toContain('unsaved live edit');
    expect((await livePageContent(Number(envelope.data.page_id)))?.content).toBe(
      'acknowledged while draining',
    );
  }, 180_000);
});
