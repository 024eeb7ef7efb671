/**
 * Hocuspocus at /collab against a real Quire, with real providers over `ws`: who may open a page
 * document (editors read-write, readers read-only, strangers and bad tokens refused, the catalog
 * restriction applied), edits reaching other editors, readers' edits refused server-side, awareness
 * identity enforced, access re-checked while connected, and the lock rule for write access.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
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
import { apiSuite } from '../helpers/apiSuite';
import { eventually } from '../helpers/embedded';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite({
  item: { password: 'secret-visit' },
  users: { editor: { name: 'Eddie Editor' } },
  teardown: () => closeAllCollabClients(),
});
afterEach(() => closeAllCollabClients());

const open = (user: TestUser, pageId: number) =>
  openSynced(suite.server.url, pageId, user.user_token);
const refusal = async (client: CollabClient) =>
  (await client.opened.catch((e: Error) => e.message)) as string;

describe('who may open a page document', () => {
  test('editors get read-write, readers read-only, and both see the saved page content', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: '# Hello\n' });
    const asEditor = await open(suite.editor, page.page_id);
    const asReader = await open(suite.reader, page.page_id);
    expect(await asEditor.opened).toBe('read-write');
    expect(await asReader.opened).toBe('readonly');
    expect(asEditor.text.toString()).toBe('# Hello\n');
    expect(asReader.text.toString()).toBe('# Hello\n');
  });

  test('a stranger to a private item is refused (forbidden)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(await refusal(openPage(suite.server.url, page.page_id, suite.stranger.user_token))).toBe(
      'forbidden',
    );
  });

  test('no token, an unknown token and an expired token are refused (unauthorized)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    expect(await refusal(openPage(suite.server.url, page.page_id, null))).toBe('unauthorized');
    expect(await refusal(openPage(suite.server.url, page.page_id, 'no-such-token'))).toBe(
      'unauthorized',
    );
    const expiring = await makeUser();
    await addMember(suite.itemId, expiring, 1);
    await UserToken.updateOne(
      { token: expiring.user_token },
      { $set: { token_expire: nowSeconds() - 1 } },
    );
    forgetCachedReads();
    expect(await refusal(openPage(suite.server.url, page.page_id, expiring.user_token))).toBe(
      'unauthorized',
    );
  });

  test('a member restricted to one catalog is refused pages outside it, allowed inside', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw' });
    const inside = await makeCatalog(suite.owner, item_id, 'Inside');
    const outside = await makeCatalog(suite.owner, item_id, 'Outside');
    const restricted = await makeUser();
    await addMember(item_id, restricted, 1, [inside]);
    const hidden = await makePage(suite.owner, item_id, { catId: outside });
    const visible = await makePage(suite.owner, item_id, { catId: inside });
    expect(await refusal(openPage(suite.server.url, hidden.page_id, restricted.user_token))).toBe(
      'forbidden',
    );
    expect(await openPage(suite.server.url, visible.page_id, restricted.user_token).opened).toBe(
      'read-write',
    );
  });

  test("someone else's draft page and a page that does not exist are refused", async () => {
    const draft = await makePage(suite.owner, suite.itemId, { isDraft: 1 });
    expect(await refusal(openPage(suite.server.url, draft.page_id, suite.editor.user_token))).toBe(
      'forbidden',
    );
    expect(await refusal(openPage(suite.server.url, 999_999_999, suite.editor.user_token))).toBe(
      'forbidden',
    );
  });

  test('document names other than page.<id> are refused (bad-document)', async () => {
    const client = openPage(suite.server.url, 0, suite.editor.user_token, { name: 'item.1' });
    expect(await refusal(client)).toBe('bad-document');
  });

  test('the server greets each connection with its identity and access', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const asEditor = await open(suite.editor, page.page_id);
    const asReader = await open(suite.reader, page.page_id);
    await eventually(() => expect(lastMessage(asEditor, 'hello')).toBeDefined());
    await eventually(() => expect(lastMessage(asReader, 'hello')).toBeDefined());
    expect(lastMessage(asEditor, 'hello')).toEqual({
      type: 'hello',
      user: { id: suite.editor.uid, name: 'Eddie Editor' },
      readOnly: false,
      coEdit: false,
      lock: null,
    });
    expect(lastMessage(asReader, 'hello')).toMatchObject({
      user: { id: suite.reader.uid, name: suite.reader.username },
      readOnly: true,
    });
  });
});

describe('editing', () => {
  test('an edit from one editor reaches another', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'start' });
    const first = await open(suite.owner, page.page_id);
    const second = await open(suite.editor, page.page_id);
    first.append(' +owner');
    await textBecomes(second, 'start +owner');
    second.text.insert(0, 'editor: ');
    await textBecomes(first, 'editor: start +owner');
  });

  test("a reader's edit is refused: the server's document does not change", async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'read me' });
    const writer = await open(suite.editor, page.page_id);
    const asReader = await open(suite.reader, page.page_id);
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
    const late = await open(suite.owner, page.page_id);
    expect(late.text.toString()).toBe('read me');
    // The reader's own copy still holds the refused text: it was never accepted, only kept locally.
    expect(asReader.text.toString()).toBe('read me (defaced)');
  });
});

describe('awareness', () => {
  test('states in the connection’s own name reach the others', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const watcher = await open(suite.owner, page.page_id);
    const asEditor = await open(suite.editor, page.page_id);
    await eventually(() => expect(lastMessage(asEditor, 'hello')).toBeDefined());
    asEditor.provider.setAwarenessField('user', {
      id: suite.editor.uid,
      name: 'Eddie Editor',
      color: '#f80',
    });
    asEditor.provider.setAwarenessField('mode', 'editing');
    await eventually(() => {
      const states = [...watcher.provider.awareness!.getStates().values()];
      expect(states).toContainEqual(
        expect.objectContaining({
          user: expect.objectContaining({ id: suite.editor.uid }),
          mode: 'editing',
        }),
      );
    });
    expect(asEditor.closes).toEqual([]);
  });

  test("a state claiming another user's identity is rejected and never reaches the others", async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const watcher = await open(suite.owner, page.page_id);
    const spoofer = await open(suite.editor, page.page_id);
    spoofer.provider.setAwarenessField('user', { id: suite.owner.uid, name: suite.owner.username });
    await eventually(() => expect(spoofer.closes).toContain('awareness-identity'));
    // The server's view: a client opening now sees no state in the owner's name but its own.
    const late = await open(suite.reader, page.page_id);
    const claimsOwner = (client: CollabClient) =>
      [...client.provider.awareness!.getStates()].filter(
        ([clientId, state]) =>
          clientId !== client.doc.clientID &&
          (state as { user?: { id?: number } }).user?.id === suite.owner.uid,
      );
    await eventually(() => expect(claimsOwner(late)).toEqual([]));
    expect(claimsOwner(watcher)).toEqual([]);
  });

  test('a state with the right uid but another name is rejected too', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const spoofer = await open(suite.editor, page.page_id);
    spoofer.provider.setAwarenessField('user', {
      id: suite.editor.uid,
      name: suite.owner.username,
    });
    await eventually(() => expect(spoofer.closes).toContain('awareness-identity'));
  });
});

describe('access re-checked while connected', () => {
  test('a removed member is disconnected (access-revoked)', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw' });
    const member = await makeUser();
    const memberId = await addMember(item_id, member, 1);
    const page = await makePage(suite.owner, item_id);
    const client = await open(member, page.page_id);
    await removeMember(await actorOf(suite.owner), item_id, memberId);
    await eventually(() => expect(client.closes).toContain('access-revoked'));
  });

  test('a deleted page closes its document (page-deleted)', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const client = await open(suite.editor, page.page_id);
    await suite.server.api
      .withToken(suite.owner.user_token)
      .ok('page/delete', { page_id: page.page_id, item_id: suite.itemId });
    await eventually(() => expect(client.closes).toContain('page-deleted'));
  });
});

describe('locks decide who writes (simultaneous editing off)', () => {
  const setLock = (user: TestUser, pageId: number, lockTo?: number) =>
    suite.server.api.withToken(user.user_token).ok('page/setLock', {
      page_id: pageId,
      item_id: suite.itemId,
      ...(lockTo ? { lock_to: lockTo } : {}),
    });

  test('only the lock holder writes; the others watch live and get write access back on release', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'locked' });
    const holder = await open(suite.editor, page.page_id);
    await setLock(suite.editor, page.page_id);
    const watcher = await open(suite.owner, page.page_id);
    await eventually(() => expect(lastMessage(watcher, 'hello')).toBeDefined());
    expect(lastMessage(watcher, 'hello')).toMatchObject({
      readOnly: true,
      lock: { uid: suite.editor.uid, username: suite.editor.username },
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

    await setLock(suite.editor, page.page_id, 1000);
    await eventually(() =>
      expect(lastMessage(watcher, 'access')).toMatchObject({ readOnly: false, lock: null }),
    );
    // The refused edit never reached anyone. A client holding refused edits starts a fresh copy
    // once it may write (collabProtocol.ts), and its edits then go through.
    expect(holder.text.toString()).toBe('locked by holder.');
    watcher.destroy();
    const fresh = await open(suite.owner, page.page_id);
    expect(await fresh.opened).toBe('read-write');
    fresh.text.insert(0, '> ');
    await textBecomes(holder, '> locked by holder.');
  });

  test('a lock that runs out gives the others write access back', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'expiring' });
    await setLock(suite.editor, page.page_id, nowSeconds() + 2);
    const watcher = await open(suite.owner, page.page_id);
    await eventually(() => expect(lastMessage(watcher, 'hello')).toMatchObject({ readOnly: true }));
    await eventually(() =>
      expect(lastMessage(watcher, 'access')).toMatchObject({ readOnly: false, lock: null }),
    );
    watcher.append('!');
    const other = await open(suite.editor, page.page_id);
    await textBecomes(other, 'expiring!');
  });

  test('with simultaneous editing on, every editor writes while a lock is held', async () => {
    const { item_id } = await makeItem(suite.owner, { password: 'pw' });
    await addMember(item_id, suite.editor, 1);
    await Item.updateOne({ item_id }, { $set: { co_edit: 1 } });
    forgetCachedReads();
    const page = await makePage(suite.owner, item_id, { content: 'co' });
    await suite.server.api
      .withToken(suite.editor.user_token)
      .ok('page/setLock', { page_id: page.page_id, item_id });
    const first = await open(suite.editor, page.page_id);
    const second = await open(suite.owner, page.page_id);
    expect(await second.opened).toBe('read-write');
    second.append('-owner');
    await textBecomes(first, 'co-owner');
  });
});
