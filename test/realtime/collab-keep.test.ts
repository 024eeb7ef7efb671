/**
 * `keep` (realtime/collab/keepCommand.ts, issue #41): a page nobody edited has no stored draft;
 * a client keeping it for offline editing asks the server to store one, so edits made on the kept
 * copy merge exactly with a REST save made while the copy was offline.
 */
import { afterAll, afterEach, beforeAll, expect, test } from '@jest/globals';
import * as Y from 'yjs';
import { loadDraft } from '../../models/pages/liveDrafts';
import { PAGE_TEXT } from '../../realtime/collabProtocol';
import { closeAllCollabClients, lastMessage, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeEditedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser, editor: TestUser, itemId: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  ({ owner, editor, itemId } = await makeEditedItem({ password: 'pw' }));
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  await server.stop();
});

test('keep stores the document of a page that has no draft, and answers kept', async () => {
  const page = await makePage(owner, itemId, { content: 'Kept text' });
  expect(await loadDraft(page.page_id)).toBeNull();
  const client = await openSynced(server.url, page.page_id, owner.user_token);
  client.provider.sendStateless(JSON.stringify({ type: 'keep', requestId: 'k1' }));
  await eventually(() =>
    expect(lastMessage(client, 'kept')).toEqual({ type: 'kept', requestId: 'k1' }),
  );
  const draft = await loadDraft(page.page_id);
  expect(draft?.text).toBe('Kept text');
  expect(draft?.saved).toBe(true);
});

test('a kept copy edited offline merges exactly with a REST save made meanwhile', async () => {
  const page = await makePage(owner, itemId, { content: 'Alpha line' });
  const first = await openSynced(server.url, page.page_id, owner.user_token);
  first.provider.sendStateless(JSON.stringify({ type: 'keep', requestId: 'k2' }));
  await eventually(() => expect(lastMessage(first, 'kept')).toBeDefined());
  // The copy this browser keeps, then edited with no connection.
  const kept = new Y.Doc();
  Y.applyUpdate(kept, Y.encodeStateAsUpdate(first.doc));
  first.destroy();
  const text = kept.getText(PAGE_TEXT);
  text.insert(text.length, ' typed offline');

  await server.api.withToken(editor.user_token).ok('page/save', {
    page_id: page.page_id,
    item_id: itemId,
    page_title: 'Alpha',
    page_content: 'Online first\nAlpha line',
  });

  const back = await openSynced(server.url, page.page_id, owner.user_token);
  Y.applyUpdate(back.doc, Y.encodeStateAsUpdate(kept));
  await textBecomes(back, 'Online first\nAlpha line typed offline');
  const other = await openSynced(server.url, page.page_id, editor.user_token);
  await textBecomes(other, 'Online first\nAlpha line typed offline');
});
