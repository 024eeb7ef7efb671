/**
 * Live page locks: every change of a page's lock (taken, renewed, released, run out, released
 * after its holder's sockets have all gone) is pushed as `lock` to the page's watchers, and
 * models/pages/locks.ts releaseLocksOf releases only what it should, once. The server runs with a
 * one-second disconnect grace (LOCK_GRACE_SECONDS=1).
 */
import { describe, expect, test } from '@jest/globals';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { releaseLocksOf } from '../../models/pages/locks';
import { PageLock } from '../../models/pages/schemas/pageLock';
import { nowSeconds } from '../../models/platform/time';
import { apiSuite } from '../helpers/apiSuite';
import { eventually } from '../helpers/embedded';
import { makePage } from '../helpers/pages';
import { closeAllSockets, connectClient, type TestClient } from '../helpers/sockets';
import { type TestUser } from '../helpers/users';

const GRACE_SECONDS = 1;

const suite = apiSuite({
  item: {},
  env: { LOCK_GRACE_SECONDS: String(GRACE_SECONDS) },
  teardown: () => closeAllSockets(),
});

const connect = (user: TestUser) =>
  connectClient(suite.server.url, { user_token: user.user_token });
const { as } = suite;
const lockPage = (user: TestUser, pageId: number, lockTo?: number) =>
  as(user).ok('page/setLock', {
    page_id: pageId,
    item_id: suite.itemId,
    ...(lockTo === undefined ? {} : { lock_to: lockTo }),
  });
const isLocked = async (pageId: number) =>
  (await as(suite.reader).ok<{ lock: number }>('page/isLock', { page_id: pageId })).lock;
const roundTrip = (client: TestClient) => client.unwatch({ page_id: 999_999_999 });

describe('lock changes reach the page watchers', () => {
  test('acquire, renew and release (lock_to=1000) are pushed to watchers of the page only', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const other = await makePage(suite.owner, suite.itemId);
    const watcher = await connect(suite.reader);
    const elsewhere = await connect(suite.reader);
    expect(await watcher.watch({ page_id: page.page_id })).toMatchObject({
      ok: true,
      lock: { locked: false },
    });
    await elsewhere.watch({ page_id: other.page_id });

    await lockPage(suite.editor, page.page_id);
    const taken = await watcher.waitFor('lock', (p) => p.locked);
    expect(taken).toEqual({
      item_id: suite.itemId,
      page_id: page.page_id,
      locked: true,
      lock_uid: suite.editor.uid,
      lock_username: suite.editor.username,
      lock_to: expect.any(Number),
    });
    const renewTo = nowSeconds() + 600;
    await lockPage(suite.editor, page.page_id, renewTo);
    await watcher.waitFor('lock', (p) => p.locked && p.lock_to === renewTo);

    await lockPage(suite.editor, page.page_id, 1000);
    expect(await watcher.waitFor('lock', (p) => !p.locked)).toEqual({
      item_id: suite.itemId,
      page_id: page.page_id,
      locked: false,
    });
    await roundTrip(elsewhere);
    expect(elsewhere.all('lock')).toEqual([]);
    watcher.close();
    elsewhere.close();
  });

  test('a lock that runs out is pushed as released when its time is up', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const watcher = await connect(suite.reader);
    await watcher.watch({ page_id: page.page_id });
    await lockPage(suite.editor, page.page_id, nowSeconds() + 2);
    await watcher.waitFor('lock', (p) => p.locked);
    await watcher.waitFor('lock', (p) => !p.locked);
    expect(await isLocked(page.page_id)).toBe(0);
    watcher.close();
  });

  test('a watcher who joins while the page is locked is told when that lock runs out', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    await lockPage(suite.editor, page.page_id, nowSeconds() + 2);
    const watcher = await connect(suite.reader);
    expect(await watcher.watch({ page_id: page.page_id })).toMatchObject({
      lock: { locked: true },
    });
    await watcher.waitFor('lock', (p) => !p.locked);
    watcher.close();
  });
});

describe('disconnect grace', () => {
  test("the holder's last socket going away releases the lock after the grace, and watchers are told", async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const holder = await connect(suite.editor);
    await holder.watch({ page_id: page.page_id, mode: 'editing' });
    await lockPage(suite.editor, page.page_id);
    const watcher = await connect(suite.reader);
    expect(await watcher.watch({ page_id: page.page_id })).toMatchObject({
      lock: { locked: true, lock_uid: suite.editor.uid },
    });

    holder.close();
    expect(await watcher.waitFor('lock', (p) => !p.locked)).toMatchObject({
      page_id: page.page_id,
      locked: false,
    });
    expect(await isLocked(page.page_id)).toBe(0);
    watcher.close();
  });

  test('a reconnect within the grace keeps the lock', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const first = await connect(suite.editor);
    await first.watch({ page_id: page.page_id, mode: 'editing' });
    await lockPage(suite.editor, page.page_id);
    first.close();
    const again = await connect(suite.editor);
    await again.watch({ page_id: page.page_id, mode: 'editing' });
    // Past the grace (with room to spare), the lock is still there.
    await new Promise((resolve) => setTimeout(resolve, (GRACE_SECONDS + 1.5) * 1000));
    expect(await isLocked(page.page_id)).toBe(1);
    again.close();
    await eventually(async () => expect(await isLocked(page.page_id)).toBe(0));
  });

  test('a page left in a closed tab is released once the last other tab closes too', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const editorTab = await connect(suite.editor);
    const otherTab = await connect(suite.editor);
    await editorTab.watch({ page_id: page.page_id, mode: 'editing' });
    await lockPage(suite.editor, page.page_id);
    const watcher = await connect(suite.reader);
    await watcher.watch({ page_id: page.page_id });

    editorTab.close();
    await new Promise((resolve) => setTimeout(resolve, (GRACE_SECONDS + 1.5) * 1000));
    expect(await isLocked(page.page_id)).toBe(1);
    otherTab.close();
    await watcher.waitFor('lock', (p) => !p.locked);
    watcher.close();
  });

  test('locks taken without any socket (a script over REST) are left to expire', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    const client = await connect(suite.editor);
    await lockPage(suite.editor, page.page_id);
    client.close(); // was watching nothing
    await new Promise((resolve) => setTimeout(resolve, (GRACE_SECONDS + 1.5) * 1000));
    expect(await isLocked(page.page_id)).toBe(1);
    await lockPage(suite.editor, page.page_id, 1000);
  });
});

describe('releaseLocksOf', () => {
  test("releases only the user's live locks on the given pages, publishing lock.changed once each", async () => {
    const [mine, notListed, someoneElses] = await Promise.all([
      makePage(suite.owner, suite.itemId),
      makePage(suite.owner, suite.itemId),
      makePage(suite.owner, suite.itemId),
    ]);
    await lockPage(suite.editor, mine.page_id);
    await lockPage(suite.editor, notListed.page_id);
    await lockPage(suite.owner, someoneElses.page_id);
    const published: DomainEvents['lock.changed'][] = [];
    const stop = events.subscribe('lock.changed', (p) => {
      published.push(p);
    });

    // Two releases race (as two processes would): the lock goes once.
    const [a, b] = await Promise.all([
      releaseLocksOf(suite.editor.uid, [mine.page_id, someoneElses.page_id]),
      releaseLocksOf(suite.editor.uid, [mine.page_id, someoneElses.page_id]),
    ]);
    expect([...a, ...b]).toEqual([mine.page_id]);
    await eventually(() =>
      expect(published).toEqual([{ itemId: suite.itemId, pageId: mine.page_id, lock: null }]),
    );
    stop();
    expect(await isLocked(mine.page_id)).toBe(0);
    expect(await isLocked(notListed.page_id)).toBe(1);
    expect(await isLocked(someoneElses.page_id)).toBe(1);
    await lockPage(suite.editor, notListed.page_id, 1000);
    await lockPage(suite.owner, someoneElses.page_id, 1000);
  });

  test('a lock that has run out, an anonymous uid or no pages release nothing', async () => {
    const page = await makePage(suite.owner, suite.itemId);
    await lockPage(suite.editor, page.page_id);
    const row = await PageLock.findOne({ page_id: page.page_id }).lean();
    expect(await releaseLocksOf(suite.editor.uid, [page.page_id], { now: row!.lock_to })).toEqual(
      [],
    );
    expect(await releaseLocksOf(0, [page.page_id])).toEqual([]);
    expect(await releaseLocksOf(suite.editor.uid, [])).toEqual([]);
    expect(await isLocked(page.page_id)).toBe(1);
    expect(await releaseLocksOf(suite.editor.uid, [page.page_id])).toEqual([page.page_id]);
  });
});
