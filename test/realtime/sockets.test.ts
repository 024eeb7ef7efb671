/**
 * Socket.IO connections against a real Quire: handshake authentication with user_token, joining
 * item and page rooms only with read access (catalog restriction and drafts included), being taken
 * out of rooms when access is revoked, and presence per page.
 */
import { describe, expect, test } from '@jest/globals';
import { io as connectIo } from 'socket.io-client';
import { UserToken } from '../../models/accounts/schemas/userToken';
import { nowSeconds } from '../../models/platform/time';
import { apiSuite } from '../helpers/apiSuite';
import { addMember, makeItem } from '../helpers/factories';
import { makeCatalog, makePage } from '../helpers/pages';
import { closeAllSockets, connectClient, refusalOf, type TestClient } from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';
import { forgetCachedReads } from '../../models/platform';

const suite = apiSuite({ item: { password: 'secret-visit' }, teardown: () => closeAllSockets() });

const connect = (user: TestUser) =>
  connectClient(suite.server.url, { user_token: user.user_token });
const { as } = suite;

/** A request/answer on the client's own socket: pushes sent to it before are in by then. */
const roundTrip = (client: TestClient) => client.unwatch({ page_id: 999_999_999 });

describe('handshake', () => {
  test('refused (10102) without a token, with an unknown one, and with an expired one', async () => {
    const refused = { error_code: 10102 };
    expect(await refusalOf(suite.server.url, {})).toEqual(refused);
    expect(await refusalOf(suite.server.url, { user_token: 'no-such-token' })).toEqual(refused);
    const expiring = await makeUser();
    await UserToken.updateOne(
      { token: expiring.user_token },
      { $set: { token_expire: nowSeconds() - 1 } },
    );
    forgetCachedReads();
    expect(await refusalOf(suite.server.url, { user_token: expiring.user_token })).toEqual(refused);
  });

  test("refused when the uid it claims is not the token's user; accepted when it is", async () => {
    expect(
      await refusalOf(suite.server.url, {
        user_token: suite.reader.user_token,
        uid: suite.editor.uid,
      }),
    ).toEqual({ error_code: 10102 });
    const client = await connectClient(suite.server.url, {
      user_token: suite.reader.user_token,
      uid: suite.reader.uid,
    });
    expect(client.socket.connected).toBe(true);
    client.close();
  });

  test('a token in the query string (as older clients send it) is accepted, over polling and websocket', async () => {
    // The server keeps only what the handshake needs of the first request: its query among it.
    for (const transports of [['websocket'], ['polling']]) {
      const socket = connectIo(suite.server.url, {
        path: '/socket.io',
        transports,
        reconnection: false,
        forceNew: true,
        query: { user_token: suite.reader.user_token },
      });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('connect_error', reject);
        });
        const answer = await socket.emitWithAck('watch', { item_id: suite.itemId });
        expect(answer).toEqual({ ok: true });
      } finally {
        socket.disconnect();
      }
    }
  });

  test('a token that expires after connecting can no longer watch, and the socket is dropped', async () => {
    const user = await makeUser();
    await addMember(suite.itemId, user, 0);
    const client = await connect(user);
    expect(await client.watch({ item_id: suite.itemId })).toEqual({ ok: true });
    await UserToken.updateOne(
      { token: user.user_token },
      { $set: { token_expire: nowSeconds() - 1 } },
    );
    forgetCachedReads();
    expect(
      await client.watch({ page_id: (await makePage(suite.owner, suite.itemId)).page_id }),
    ).toEqual({
      error_code: 10102,
    });
    await new Promise<void>((resolve) =>
      client.socket.connected ? client.socket.once('disconnect', () => resolve()) : resolve(),
    );
    expect(client.socket.connected).toBe(false);
  });
});

describe('watch', () => {
  test('bad input is refused with 10101 and never joins anything', async () => {
    const client = await connect(suite.reader);
    for (const target of [
      {},
      { item_id: 'abc' },
      { item_id: -1 },
      { item_id: suite.itemId, page_id: 1 },
      { page_id: 1, mode: 'dancing' },
      { item_id: suite.itemId, item_password: 42 },
    ])
      expect(await client.watch(target as never)).toMatchObject({ error_code: 10101 });
    client.close();
  });

  test('members may watch a private item; strangers get 10303 unless they give its visit password', async () => {
    const member = await connect(suite.reader);
    expect(await member.watch({ item_id: suite.itemId })).toEqual({ ok: true });
    const outsider = await connect(suite.stranger);
    expect(await outsider.watch({ item_id: suite.itemId })).toMatchObject({ error_code: 10303 });
    expect(await outsider.watch({ item_id: suite.itemId, item_password: 'wrong' })).toMatchObject({
      error_code: 10303,
    });
    expect(await outsider.watch({ item_id: suite.itemId, item_password: 'secret-visit' })).toEqual({
      ok: true,
    });
    expect(await outsider.watch({ item_id: 987_654_321 })).toMatchObject({ error_code: 10101 });
    member.close();
    outsider.close();
  });

  test('a page watch is refused as "not found" (10101) outside a catalog restriction and for other users\' drafts', async () => {
    const allowedCat = await makeCatalog(suite.owner, suite.itemId, 'Allowed');
    const otherCat = await makeCatalog(suite.owner, suite.itemId, 'Other');
    const inside = await makePage(suite.owner, suite.itemId, { catId: allowedCat });
    const outside = await makePage(suite.owner, suite.itemId, { catId: otherCat });
    const draft = await makePage(suite.editor, suite.itemId, { isDraft: 1 });
    const limited = await makeUser();
    await addMember(suite.itemId, limited, 0, [allowedCat]);

    const client = await connect(limited);
    expect(await client.watch({ page_id: inside.page_id })).toMatchObject({ ok: true });
    expect(await client.watch({ page_id: outside.page_id })).toMatchObject({ error_code: 10101 });
    expect(await client.watch({ page_id: draft.page_id })).toMatchObject({ error_code: 10101 });
    const author = await connect(suite.editor);
    expect(await author.watch({ page_id: draft.page_id })).toMatchObject({ ok: true });
    client.close();
    author.close();
  });

  test('a page watch is answered with the current lock and presence', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    await as(suite.editor).ok('page/setLock', { page_id: page.page_id, item_id: suite.itemId });
    const client = await connect(suite.reader);
    const ack = await client.watch({ page_id: page.page_id, mode: 'viewing' });
    expect(ack).toMatchObject({
      ok: true,
      lock: {
        item_id: suite.itemId,
        page_id: page.page_id,
        locked: true,
        lock_uid: suite.editor.uid,
        lock_username: suite.editor.username,
      },
      presence: [{ uid: suite.reader.uid, username: suite.reader.username, mode: 'viewing' }],
    });
    await as(suite.editor).ok('page/setLock', {
      page_id: page.page_id,
      item_id: suite.itemId,
      lock_to: 1000,
    });
    client.close();
  });
});

describe('revocation', () => {
  test('a removed member is taken out of the item and its pages, and gets no more of their events', async () => {
    const user = await makeUser();
    const memberId = await addMember(suite.itemId, user, 0);
    const page = await makePage(suite.owner, suite.itemId);
    const client = await connect(user);
    expect(await client.watch({ item_id: suite.itemId })).toEqual({ ok: true });
    expect(await client.watch({ page_id: page.page_id })).toMatchObject({ ok: true });

    await as(suite.owner).ok('member/delete', { item_id: suite.itemId, item_member_id: memberId });
    await client.waitFor('unwatched', (p) => p.item_id === suite.itemId);
    await client.waitFor('unwatched', (p) => p.page_id === page.page_id);
    expect(client.all('access:changed')).toContainEqual({
      item_id: suite.itemId,
      change: 'removed',
    });

    // Still connected, but the item's menu and the page's saves no longer reach it.
    const watcher = await connect(suite.owner);
    await watcher.watch({ item_id: suite.itemId });
    await watcher.watch({ page_id: page.page_id });
    await as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Renamed for the menu',
      page_content: 'new',
    });
    await watcher.waitFor('page:saved', (p) => p.page_id === page.page_id);
    await watcher.waitFor('menu:changed', (p) => p.item_id === suite.itemId);
    await roundTrip(client);
    expect(client.all('page:saved')).toEqual([]);
    expect(client.all('menu:changed')).toEqual([]);
    client.close();
    watcher.close();
  });

  test('visitors of a public item (no membership) leave when it is made private; members stay', async () => {
    const { item_id: publicItem } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, publicItem);
    const visitor = await connect(suite.stranger);
    expect(await visitor.watch({ item_id: publicItem })).toEqual({ ok: true });
    expect(await visitor.watch({ page_id: page.page_id })).toMatchObject({ ok: true });
    const member = await connect(suite.reader);
    await addMember(publicItem, suite.reader, 0);
    expect(await member.watch({ item_id: publicItem })).toEqual({ ok: true });

    await as(suite.owner).ok('item/update', { item_id: publicItem, password: 'now-private' });
    await visitor.waitFor('unwatched', (p) => p.item_id === publicItem && p.error_code === 10303);
    await visitor.waitFor('unwatched', (p) => p.page_id === page.page_id);
    await member.waitFor('item:changed', (p) => p.item_id === publicItem && p.change === 'updated');
    await roundTrip(member);
    expect(member.all('unwatched')).toEqual([]);
    visitor.close();
    member.close();
  });

  test("a page moved out of a restricted member's catalogs is taken from them; others keep it", async () => {
    const { item_id: item } = await makeItem(suite.owner);
    const open = await makeCatalog(suite.owner, item, 'Open');
    const closed = await makeCatalog(suite.owner, item, 'Closed');
    const page = await makePage(suite.owner, item, { catId: open });
    const limited = await makeUser();
    await addMember(item, limited, 0, [open]);
    const restrictedClient = await connect(limited);
    const ownerClient = await connect(suite.owner);
    expect(await restrictedClient.watch({ page_id: page.page_id })).toMatchObject({ ok: true });
    expect(await ownerClient.watch({ page_id: page.page_id })).toMatchObject({ ok: true });

    await as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id: item,
      cat_id: closed,
      page_title: page.page_title,
      page_content: 'moved',
    });
    await restrictedClient.waitFor('unwatched', (p) => p.page_id === page.page_id);
    await ownerClient.waitFor(
      'page:saved',
      (p) => p.page_id === page.page_id && p.cat_id === closed,
    );
    await roundTrip(restrictedClient);
    expect(restrictedClient.all('page:saved')).toEqual([]);
    restrictedClient.close();
    ownerClient.close();
  });

  test('deleting the item takes every watcher out', async () => {
    const { item_id: item } = await makeItem(suite.owner);
    const page = await makePage(suite.owner, item);
    const client = await connect(suite.owner);
    expect(await client.watch({ item_id: item })).toEqual({ ok: true });
    expect(await client.watch({ page_id: page.page_id })).toMatchObject({ ok: true });
    await as(suite.owner).ok('item/delete', { item_id: item, password: suite.owner.password });
    await client.waitFor('item:changed', (p) => p.item_id === item && p.change === 'deleted');
    await client.waitFor('unwatched', (p) => p.item_id === item && p.error_code === 10101);
    await client.waitFor('unwatched', (p) => p.page_id === page.page_id);
    client.close();
  });
});

describe('presence', () => {
  test('who views or edits a page is pushed to its watchers as people join, switch and leave', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const view = await connect(suite.reader);
    const edit = await connect(suite.editor);
    const editSecondTab = await connect(suite.editor);
    const silent = await connect(suite.owner);
    const last = (client: TestClient) => client.all('presence').at(-1)?.users;

    expect(await silent.watch({ page_id: page.page_id })).toMatchObject({ ok: true, presence: [] });
    await view.watch({ page_id: page.page_id, mode: 'viewing' });
    await edit.watch({ page_id: page.page_id, mode: 'editing' });
    await editSecondTab.watch({ page_id: page.page_id, mode: 'viewing' });
    const everyone = [
      { uid: suite.editor.uid, username: suite.editor.username, mode: 'editing' },
      { uid: suite.reader.uid, username: suite.reader.username, mode: 'viewing' },
    ].sort((a, b) => a.uid - b.uid);
    await silent.waitFor('presence', (p) => JSON.stringify(p.users) === JSON.stringify(everyone));

    // The editor's editing tab closes: their other tab still views the page.
    edit.close();
    await silent.waitFor('presence', (p) =>
      p.users.some((u) => u.uid === suite.editor.uid && u.mode === 'viewing'),
    );
    expect(await view.presence({ page_id: page.page_id, mode: 'editing' })).toEqual({ ok: true });
    await silent.waitFor('presence', (p) =>
      p.users.some((u) => u.uid === suite.reader.uid && u.mode === 'editing'),
    );
    expect(await editSecondTab.unwatch({ page_id: page.page_id })).toEqual({ ok: true });
    await silent.waitFor('presence', (p) => !p.users.some((u) => u.uid === suite.editor.uid));
    view.close();
    await silent.waitFor('presence', (p) => p.users.length === 0);
    expect(last(silent)).toEqual([]);
    editSecondTab.close();
    silent.close();
  });

  test('presence can only be set on a watched page', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const client = await connect(suite.stranger);
    expect(await client.presence({ page_id: page.page_id, mode: 'viewing' })).toMatchObject({
      error_code: 10101,
    });
    client.close();
  });
});
