/**
 * Page documents across two Quire processes joined by Redis (Hocuspocus's Redis extension plus
 * the relayed domain events): A runs in this test process and owns the embedded engine; B is a
 * child process that reaches A's engine through its unix socket. Both use the same REDIS_URL.
 * Editors on different processes converge; a page opened on both at once is not doubled; a REST
 * save through one process appears, once, in the documents open on either; awareness crosses.
 * Needs redis-server: the test fails (it does not skip) when the binary is missing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import path from 'node:path';
import { loadDraft } from '../../models/pages/liveDrafts';
import { engineSocketPath } from '../../models/platform/db';
import { socketUriFor } from '../../models/embedded';
import { ShowdocClient } from '../helpers/client';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeEditedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startQuireProcess, stopAllQuires, type QuireProcess } from '../helpers/quireProcesses';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestUser } from '../helpers/users';

let redis: TestRedis;
let a: TestServer;
let b: QuireProcess;
let owner: TestUser, editor: TestUser, itemId: number;

beforeAll(async () => {
  redis = await startRedis();
  a = await startTestServer({ env: { REDIS_URL: redis.url, LOG_LEVEL: 'silent' } });
  b = await startQuireProcess(
    'child',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      MONGODB_URI: socketUriFor(engineSocketPath(a.dataDir)),
      DATA_DIR: path.join(a.dataDir, 'b'),
    },
    { cwd: a.dataDir },
  );
  ({ owner, editor, itemId } = await makeEditedItem({ password: 'pw' }));
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  // B uses A's engine: it stops first.
  await b?.stop();
  await stopAllQuires();
  await a?.stop();
  await redis?.stop();
});

const onA = (user: TestUser, pageId: number) => openSynced(a.url, pageId, user.user_token);
const onB = (user: TestUser, pageId: number) => openSynced(b.url, pageId, user.user_token);
/** The owner saves the page over REST through process B, as a script would. */
const scriptSavesThroughB = (pageId: number, content: string) =>
  new ShowdocClient(b.url, owner.user_token).ok('page/save', {
    page_id: pageId,
    item_id: itemId,
    page_title: 'Scripted',
    page_content: content,
  });

describe('two processes, one page', () => {
  test('two editors on different processes converge', async () => {
    const page = await makePage(owner, itemId, { content: 'middle' });
    const first = await onA(editor, page.page_id);
    const second = await onB(owner, page.page_id);
    first.text.insert(0, 'start ');
    second.append(' end');
    await textBecomes(first, 'start middle end');
    await textBecomes(second, 'start middle end');
    // The draft both processes may write holds the converged text once everyone left.
    first.destroy();
    second.destroy();
    await eventually(async () =>
      expect((await loadDraft(page.page_id))?.text).toBe('start middle end'),
    );
  });

  test('a page first opened on both processes at the same moment is not doubled', async () => {
    const page = await makePage(owner, itemId, { content: 'only once\n' });
    const [first, second] = await Promise.all([
      onA(editor, page.page_id),
      onB(owner, page.page_id),
    ]);
    first.append('+');
    await textBecomes(second, 'only once\n+');
    await textBecomes(first, 'only once\n+');
  });

  test("awareness set on one process reaches the other's clients", async () => {
    const page = await makePage(owner, itemId);
    const watcher = await onA(owner, page.page_id);
    const speaker = await onB(editor, page.page_id);
    speaker.provider.setAwarenessField('user', { id: editor.uid, name: editor.username });
    await eventually(() =>
      expect(watcher.provider.awareness!.getStates().get(speaker.doc.clientID)).toMatchObject({
        user: { id: editor.uid },
      }),
    );
  });
});

describe('a REST save through the other process', () => {
  test('appears in a document open only on this process', async () => {
    const page = await makePage(owner, itemId, { content: 'before the script' });
    const client = await onA(editor, page.page_id);
    await scriptSavesThroughB(page.page_id, 'after the script ran through B');
    await textBecomes(client, 'after the script ran through B');
  });

  test('is applied exactly once when the document is open on both processes', async () => {
    const page = await makePage(owner, itemId, { content: 'shared\n' });
    const first = await onA(editor, page.page_id);
    const second = await onB(owner, page.page_id);
    await scriptSavesThroughB(page.page_id, 'shared\nadded by a script\n');
    await textBecomes(first, 'shared\nadded by a script\n');
    await textBecomes(second, 'shared\nadded by a script\n');
    // A round trip through both processes: nothing else (a second copy) arrives after it.
    first.append('.');
    await textBecomes(second, 'shared\nadded by a script\n.');
    expect(first.text.toString()).toBe('shared\nadded by a script\n.');
  });
});
