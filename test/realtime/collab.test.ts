/**
 * Hocuspocus at /collab against a real Quire, with real providers over `ws`: who may open a page
 * document (editors read-write, readers read-only, strangers and bad tokens refused, the catalog
 * restriction applied), edits reaching other editors, readers' edits refused server-side, awareness
 * identity enforced, access re-checked while connected, and the lock rule for write access.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { removeMember } from '../../models/members/members';
import { Item } from '../../models/items/schemas/item';
import { UserToken } from '../../models/accounts/schemas/userToken';
import { nowSeconds } from '../../models/platform/time';
import {
  closeAllCollabClients,
  lastMessage,
  openPage,
  openSynced,
  textBecomes,
  type CollabClient,
} from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let reader: TestUser;
let stranger: TestUser;
let itemId: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, editor, reader, stranger] = await Promise.all([
    makeUser(),
    makeUser({ name: 'Eddie Editor' }),
    makeUser(),
    makeUser(),
  ]);
  ({ item_id: itemId } = await makeItem(owner, { password: 'secret-visit' }));
  await addMember(itemId, editor, 1);
  await addMember(itemId, reader, 0);
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  await server.stop();
});

const open = (user: TestUser, pageId: number) => openSynced(server.url, pageId, user.user_token);
const refusal = async (client: CollabClient) =>
  (await client.opened.catch((e: Error) => e.message)) as string;

describe('who may open a page document', () => {
  test('editors get read-write, readers read-only, and both see the saved page content', async () => {
    const page = await makePage(owner, itemId, { content: '# Hello\n' });
    const asEditor = await open(editor, page.page_id);
    const asReader = await open(reader, page.page_id);
    expect(await asEditor.opened).toBe('read-write');
    expect(await asReader.opened).toBe('readonly');
    expect(asEditor.text.toString()).toBe('# Hello\n');
    expect(asReader.text.toString()).toBe('# Hello\n');
  });

  test('a stranger to a private item is refused (forbidden)', async () => {
    const page = await makePage(owner, itemId);
    expect(await refusal(openPage(server.url, page.page_id, stranger.user_token))).toBe(
      'forbidden',
    );
  });

  test('no token, an unknown token and an expired token are refused (unauthorized)', async () => {
    const page = await makePage(owner, itemId);
    expect(await refusal(openPage(server.url, page.page_id, null))).toBe('unauthorized');
    expect(await refusal(openPage(server.url, page.page_id, 'no-such-token'))).toBe('unauthorized');
    const expiring = await makeUser();
    await addMember(itemId, expiring, 1);
    await UserToken.updateOne(
      { token: expiring.user_token },
      { $set: { token_expire: nowSeconds() - 1 } },
    );
    expect(await refusal(openPage(server.url, page.page_id, expiring.user_token))).toBe(
      'unauthorized',
    );
  });

  test('a member restricted to one catalog is refused pages outside it, allowed inside', async () => {
    const { item_id } = await makeItem(owner, { password: 'pw' });
    const inside = await makeCatalog(owner, item_id, 'Inside');
    const outside = await makeCatalog(owner, item_id, 'Outside');
    const restricted = await makeUser();
    await addMember(item_id, restricted, 1, [inside]);
    const hidden = await makePage(owner, item_id, { catId: outside });
    const visible = await makePage(owner, item_id, { catId: inside });
    expect(await refusal(openPage(server.url, hidden.page_id, restricted.user_token))).toBe(
      'forbidden',
    );
    expect(await openPage(server.url, visible.page_id, restricted.user_token).opened).toBe(
      'read-write',
    );
  });

  test("someone else's draft page and a page that does not exist are refused", async () => {
    const draft = await makePage(owner, itemId, { isDraft: 1 });
    expect(await refusal(openPage(server.url, draft.page_id, editor.user_token))).toBe('forbidden');
    expect(await refusal(openPage(server.url, 999_999_999, editor.user_token))).toBe('forbidden');
  });

  test('document names other than page.<id> are refused (bad-document)', async () => {
    const client = openPage(server.url, 0, editor.user_token, { name: 'item.1' });
    expect(await refusal(client)).toBe('bad-document');
  });

  test('the server greets each connection with its identity and access', async () => {
    const page = await makePage(owner, itemId);
    const asEditor = await open(editor, page.page_id);
    const asReader = await open(reader, page.page_id);
    await eventually(() => expect(lastMessage(asEditor, 'hello')).toBeDefined());
    await eventually(() => expect(lastMessage(asReader, 'hello')).toBeDefined());
    expect(lastMessage(asEditor, 'hello')).toEqual({
      type: 'hello',
      user: { id: editor.uid, name: 'Eddie Editor' },
      readOnly: false,
      coEdit: false,
      lock: null,
    });
    expect(lastMessage(asReader, 'hello')).toMatchObject({
      user: { id: reader.uid, name: reader.username },
      readOnly: true,
    });
  });
});

describe('editing', () => {
  test('an edit from one editor reaches another', async () => {
    const page = await makePage(owner, itemId, { content: 'start' });
    const first = await open(owner, page.page_id);
    const second = await open(editor, page.page_id);
    first.append(' +owner');
    await textBecomes(second, 'start +owner');
    second.text.insert(0, 'editor: ');
    await textBecomes(first, 'editor: start +owner');
  });

  test("a reader's edit is refused: the server's document does not change", async () => {
    const page = await makePage(owner, itemId, { content: 'read me' });
    const writer = await open(editor, page.page_id);
    const asReader = await open(reader, page.page_id);
    asReader.append(' (defaced)');
    // Messages of one socket are handled in order: once the reader's next awareness state reached
    // the writer, the server has handled (and refused) the edit sent before it.
    asReader.provider.setAwarenessField('mode', 'viewing');
    await eventually(() =>
      expect(writer.provider.awareness!.getStates().get(asReader.doc.clientID)).toMatchObject({
        mode: 'viewing',
      }),
    );
    expect(writer.text.toString()).toBe('read me');
    // A client opening now gets the server's document.
    const late = await open(owner, page.page_id);
    expect(late.text.toString()).toBe('read me');
    // The reader's own copy still holds the refused text: it was never accepted, only kept locally.
    expect(asReader.text.toString()).toBe('read me (defaced)');
  });
});

describe('awareness', () => {
  test('states in the connection’s own name reach the others', async () => {
    const page = await makePage(owner, itemId);
    const watcher = await open(owner, page.page_id);
    const asEditor = await open(editor, page.page_id);
    await eventually(() => expect(lastMessage(asEditor, 'hello')).toBeDefined());
    asEditor.provider.setAwarenessField('user', {
      id: editor.uid,
      name: 'Eddie Editor',
      color: '#f80',
    });
    asEditor.provider.setAwarenessField('mode', 'editing');
    await eventually(() => {
      const states = [...watcher.provider.awareness!.getStates().values()];
      expect(states).toContainEqual(
        expect.objectContaining({
          user: expect.objectContaining({ id: editor.uid }),
          mode: 'editing',
        }),
      );
    });
    expect(asEditor.closes).toEqual([]);
  });

  test("a state claiming another user's identity is rejected and never reaches the others", async () => {
    const page = await makePage(owner, itemId);
    const watcher = await open(owner, page.page_id);
    const spoofer = await open(editor, page.page_id);
    spoofer.provider.setAwarenessField('user', { id: owner.uid, name: owner.username });
    await eventually(() => expect(spoofer.closes).toContain('awareness-identity'));
    // The server's view: a client opening now sees no state in the owner's name but its own.
    const late = await open(reader, page.page_id);
    const claimsOwner = (client: CollabClient) =>
      [...client.provider.awareness!.getStates()].filter(
        ([clientId, state]) =>
          clientId !== client.doc.clientID &&
          (state as { user?: { id?: number } }).user?.id === owner.uid,
      );
    await eventually(() => expect(claimsOwner(late)).toEqual([]));
    expect(claimsOwner(watcher)).toEqual([]);
  });

  test('a state with the right uid but another name is rejected too', async () => {
    const page = await makePage(owner, itemId);
    const spoofer = await open(editor, page.page_id);
    spoofer.provider.setAwarenessField('user', { id: editor.uid, name: owner.username });
    await eventually(() => expect(spoofer.closes).toContain('awareness-identity'));
  });
});

describe('access re-checked while connected', () => {
  test('a removed member is disconnected (access-revoked)', async () => {
    const { item_id } = await makeItem(owner, { password: 'pw' });
    const member = await makeUser();
    const memberId = await addMember(item_id, member, 1);
    const page = await makePage(owner, item_id);
    const client = await open(member, page.page_id);
    await removeMember(await actorOf(owner), item_id, memberId);
    await eventually(() => expect(client.closes).toContain('access-revoked'));
  });

  test('a deleted page closes its document (page-deleted)', async () => {
    const page = await makePage(owner, itemId);
    const client = await open(editor, page.page_id);
    await server.api
      .withToken(owner.user_token)
      .ok('page/delete', { page_id: page.page_id, item_id: itemId });
    await eventually(() => expect(client.closes).toContain('page-deleted'));
  });
});

describe('locks decide who writes (simultaneous editing off)', () => {
  const setLock = (user: TestUser, pageId: number, lockTo?: number) =>
    server.api.withToken(user.user_token).ok('page/setLock', {
      page_id: pageId,
      item_id: itemId,
      ...(lockTo ? { lock_to: lockTo } : {}),
    });

  test('only the lock holder writes; the others watch live and get write access back on release', async () => {
    const page = await makePage(owner, itemId, { content: 'locked' });
    const holder = await open(editor, page.page_id);
    await setLock(editor, page.page_id);
    const watcher = await open(owner, page.page_id);
    await eventually(() => expect(lastMessage(watcher, 'hello')).toBeDefined());
    expect(lastMessage(watcher, 'hello')).toMatchObject({
      readOnly: true,
      lock: { uid: editor.uid, username: editor.username },
    });

    holder.append(' by holder');
    await textBecomes(watcher, 'locked by holder');
    watcher.append(' [watcher]');
    // Handled in order: once the watcher's next awareness state is seen, its edit was refused.
    watcher.provider.setAwarenessField('mode', 'viewing');
    await eventually(() =>
      expect(holder.provider.awareness!.getStates().get(watcher.doc.clientID)).toMatchObject({
        mode: 'viewing',
      }),
    );
    holder.append('.');
    await textBecomes(holder, 'locked by holder.');

    await setLock(editor, page.page_id, 1000);
    await eventually(() =>
      expect(lastMessage(watcher, 'access')).toMatchObject({ readOnly: false, lock: null }),
    );
    // The refused edit never reached anyone. A client holding refused edits starts a fresh copy
    // once it may write (collabProtocol.ts), and its edits then go through.
    expect(holder.text.toString()).toBe('locked by holder.');
    watcher.destroy();
    const fresh = await open(owner, page.page_id);
    expect(await fresh.opened).toBe('read-write');
    fresh.text.insert(0, '> ');
    await textBecomes(holder, '> locked by holder.');
  });

  test('a lock that runs out gives the others write access back', async () => {
    const page = await makePage(owner, itemId, { content: 'expiring' });
    await setLock(editor, page.page_id, nowSeconds() + 2);
    const watcher = await open(owner, page.page_id);
    await eventually(() => expect(lastMessage(watcher, 'hello')).toMatchObject({ readOnly: true }));
    await eventually(() =>
      expect(lastMessage(watcher, 'access')).toMatchObject({ readOnly: false, lock: null }),
    );
    watcher.append('!');
    const other = await open(editor, page.page_id);
    await textBecomes(other, 'expiring!');
  });

  test('with simultaneous editing on, every editor writes while a lock is held', async () => {
    const { item_id } = await makeItem(owner, { password: 'pw' });
    await addMember(item_id, editor, 1);
    await Item.updateOne({ item_id }, { $set: { co_edit: 1 } });
    const page = await makePage(owner, item_id, { content: 'co' });
    await server.api
      .withToken(editor.user_token)
      .ok('page/setLock', { page_id: page.page_id, item_id });
    const first = await open(editor, page.page_id);
    const second = await open(owner, page.page_id);
    expect(await second.opened).toBe('read-write');
    second.append('-owner');
    await textBecomes(first, 'co-owner');
  });
});
