/**
 * Two Quires in one process, each on its own data directory (models/platform/context.ts): each
 * answers from its own database, keeps its own settings and caches, and pushes only its own
 * events to its own sockets. The first adopts the process's default context (code outside any
 * instance sees it); the second is reached through `quire.run`.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { getSetting, setSettings } from '../../models/settings';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { makeUser, type TestUser } from '../helpers/users';

let first: TestServer;
let second: TestServer;
let alice: TestUser; // lives in the first
let bob: TestUser; // lives in the second
let aliceItem: number;
let bobItem: number;

beforeAll(async () => {
  first = await startTestServer();
  second = await startTestServer();
  alice = await makeUser({ name: 'Alice' });
  bob = await second.quire.run(() => makeUser({ name: 'Bob' }));
  aliceItem = (await makeItem(alice, { item_name: 'Alice docs' })).item_id;
  bobItem = (await second.quire.run(() => makeItem(bob, { item_name: 'Bob docs' }))).item_id;
});

afterAll(async () => {
  closeAllSockets();
  closeAllCollabClients();
  await second?.stop();
  await first?.stop();
});

const myList = (server: TestServer, user: TestUser) =>
  server.api
    .withToken(user.user_token)
    .call('item/myList', {})
    .then((answer) => answer.body);

describe('two Quire instances in one process', () => {
  it('run on different data directories', () => {
    expect(first.dataDir).not.toBe(second.dataDir);
    expect(first.quire.context).not.toBe(second.quire.context);
  });

  it('each knows only its own accounts: a token of one is not logged in on the other', async () => {
    const own = await myList(first, alice);
    expect(own.error_code).toBe(0);
    expect((own.data as { item_name: string }[]).map((i) => i.item_name)).toEqual(['Alice docs']);

    const theirs = await myList(second, bob);
    expect(theirs.error_code).toBe(0);
    expect((theirs.data as { item_name: string }[]).map((i) => i.item_name)).toEqual(['Bob docs']);

    expect((await myList(second, alice)).error_code).toBe(10102);
    expect((await myList(first, bob)).error_code).toBe(10102);
  });

  it('keeps site settings apart (and each instance its own settings cache)', async () => {
    await setSettings({ site_notice_marker: 'first' });
    await second.quire.run(() => setSettings({ site_notice_marker: 'second' }));
    expect(await getSetting('site_notice_marker')).toBe('first');
    expect(await second.quire.run(() => getSetting('site_notice_marker'))).toBe('second');
  });

  it('pushes a save only to the sockets of the instance that saved it', async () => {
    // Both items have the same id in their own databases: an event crossing instances would
    // reach the other instance's watchers of "item 1" too.
    expect(aliceItem).toBe(bobItem);
    const onFirst = await connectClient(first.url, { user_token: alice.user_token });
    expect(await onFirst.watch({ item_id: aliceItem })).toMatchObject({ ok: true });
    const onSecond = await connectClient(second.url, { user_token: bob.user_token });
    expect(await onSecond.watch({ item_id: bobItem })).toMatchObject({ ok: true });
    const save = (server: TestServer, user: TestUser, itemId: number, title: string) =>
      server.api
        .withToken(user.user_token)
        .call('page/save', { item_id: itemId, page_title: title, page_content: title })
        .then((answer) => answer.body);

    expect((await save(first, alice, aliceItem, 'On the first')).error_code).toBe(0);
    await onFirst.waitFor('menu:changed');
    expect((await save(second, bob, bobItem, 'On the second')).error_code).toBe(0);
    await onSecond.waitFor('menu:changed');
    // The first save reached the second's socket before its own would have: it never did.
    expect(onSecond.all('menu:changed')).toHaveLength(1);
    expect(onFirst.all('menu:changed')).toHaveLength(1);
    const menu = await second.api
      .withToken(bob.user_token)
      .call('item/info', { item_id: bobItem })
      .then((answer) => JSON.stringify(answer.body.data));
    expect(menu).toContain('On the second');
    expect(menu).not.toContain('On the first');
  });

  it('search reads each instance its own index', async () => {
    const search = (server: TestServer, user: TestUser, itemId: number, keyword: string) =>
      server.api
        .withToken(user.user_token)
        .call('item/search', { item_id: itemId, keyword })
        .then((answer) => answer.body);
    const hit = await search(second, bob, bobItem, 'second');
    expect(JSON.stringify(hit.data)).toContain('On the second');
    const miss = await search(first, alice, aliceItem, 'second');
    expect(JSON.stringify(miss.data)).not.toContain('On the second');
  });

  it("keeps each instance's live documents: the same page id on each is its own document", async () => {
    const mine = await second.quire.run(() =>
      makePage(bob, bobItem, { title: 'Live', content: 'second instance text' }),
    );
    const theirs = await makePage(alice, aliceItem, {
      title: 'Live',
      content: 'first instance text',
    });
    expect(mine.page_id).toBe(theirs.page_id);

    const onSecond = await openSynced(second.url, mine.page_id, bob.user_token);
    await textBecomes(onSecond, 'second instance text');
    const onFirst = await openSynced(first.url, theirs.page_id, alice.user_token);
    await textBecomes(onFirst, 'first instance text');
    // A token of the first is refused by the second's collaboration server.
    await expect(openSynced(second.url, mine.page_id, alice.user_token)).rejects.toBeDefined();

    onSecond.append(' edited');
    await textBecomes(onSecond, 'second instance text edited');
    expect(onFirst.text.toString()).toBe('first instance text');
  });
});
