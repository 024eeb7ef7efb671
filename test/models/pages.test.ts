/**
 * savePage as the single write path: the live-document port receives server-side saves (not
 * creations; a save made by a document goes to that document's own port), a failing port never
 * undoes a stored version, and page.saved names the origin.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import mongoose from 'mongoose';
import type { Actor } from '../../models/access';
import { events } from '../../models/platform';
import { type DomainEvents } from '../../models/platform/events';
import { registerLiveDocs, savePage, type LiveDocPort, type LiveDocSave } from '../../models/pages';
import { contentHash, storeDraft } from '../../models/pages/liveDrafts';
import { Item } from '../../models/items/schemas';
import { Page } from '../../models/pages/schemas/page';
import { PageDraft } from '../../models/pages/schemas/pageDraft';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { ParamDescEntry } from '../../models/workbench/schemas';
import { actorOf, makeItem } from '../helpers/factories';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser } from '../helpers/users';

let server: TestServer;
let actor: Actor;
let itemId: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  const user = await makeUser();
  actor = await actorOf(user);
  ({ item_id: itemId } = await makeItem(user));
});
afterEach(() => registerLiveDocs(null));
afterAll(async () => {
  await server.stop();
});

function recordingBridge(fail = false): { saves: LiveDocSave[]; bridge: LiveDocPort } {
  const saves: LiveDocSave[] = [];
  return {
    saves,
    bridge: {
      async applySave(save) {
        saves.push(save);
        if (fail) throw new Error('live document unavailable');
        return save.content !== 'not open here';
      },
    },
  };
}

describe('savePage and live documents', () => {
  test('updates from REST, the open API, imports and history restores reach the live document; creations do not, and a save made by a document goes to that document only', async () => {
    const { saves, bridge } = recordingBridge();
    const own = recordingBridge();
    registerLiveDocs(bridge);
    const { page } = await savePage(
      actor,
      { pageId: 0, itemId, title: 'Live', content: 'v0' },
      { origin: 'rest' },
    );
    for (const origin of ['rest', 'open-api', 'import', 'history'] as const)
      await savePage(
        actor,
        { pageId: page.page_id, itemId, title: 'Live', content: `from ${origin}` },
        { origin },
      );
    await savePage(
      actor,
      { pageId: page.page_id, itemId, title: 'Live', content: 'from collab' },
      { origin: 'collab', liveDoc: own.bridge },
    );
    expect(saves.map((s) => s.content)).toEqual([
      'from rest',
      'from open-api',
      'from import',
      'from history',
    ]);
    expect(own.saves.map((s) => s.content)).toEqual(['from collab']);
    expect(saves[0]).toEqual({
      itemId,
      pageId: page.page_id,
      title: 'Live',
      content: 'from rest',
      byUid: actor.uid,
      previous: 'v0',
    });
  });

  test('a stored draft the save caught up with is marked saved when no document open here took the save, and left to the document that did', async () => {
    const { bridge } = recordingBridge(); // takes every save but 'not open here'
    registerLiveDocs(bridge);
    const { page } = await savePage(
      actor,
      { pageId: 0, itemId, title: 'Drafted', content: 'v0' },
      { origin: 'rest' },
    );
    const draftIs = async (text: string) => {
      await storeDraft({
        pageId: page.page_id,
        itemId,
        state: new Uint8Array(),
        text,
        baseHash: contentHash('v0'),
        byUid: actor.uid,
      });
      await savePage(
        actor,
        { pageId: page.page_id, itemId, title: 'Drafted', content: text },
        { origin: 'rest' },
      );
      return (await PageDraft.findOne({ page_id: page.page_id }, { saved: 1, _id: 0 }).lean())!
        .saved;
    };
    expect(await draftIs('open here')).not.toBe(1);
    expect(await draftIs('not open here')).toBe(1);
  });

  test('without live documents in the process (a worker other than the lead) a stored draft equal to the saved text is marked saved; a different one is left', async () => {
    registerLiveDocs(null);
    const draftOf = async (pageId: number) =>
      (await PageDraft.findOne({ page_id: pageId }, { saved: 1, base_hash: 1, _id: 0 }).lean())!;
    const pages = await Promise.all(
      ['Same', 'Other'].map(async (title) => {
        const { page } = await savePage(
          actor,
          { pageId: 0, itemId, title, content: 'v0' },
          { origin: 'rest' },
        );
        await storeDraft({
          pageId: page.page_id,
          itemId,
          state: new Uint8Array(),
          text: title === 'Same' ? 'v1' : 'v1 and more',
          baseHash: contentHash('v0'),
          byUid: actor.uid,
        });
        await savePage(
          actor,
          { pageId: page.page_id, itemId, title, content: 'v1' },
          { origin: 'rest' },
        );
        return page.page_id;
      }),
    );
    expect(await draftOf(pages[0])).toEqual({ saved: 1, base_hash: contentHash('v1') });
    expect(await draftOf(pages[1])).toMatchObject({ base_hash: contentHash('v0') });
    expect((await draftOf(pages[1])).saved).not.toBe(1);
  });

  test('page.saved says whether the text went into a document open in the saving process', async () => {
    const { bridge } = recordingBridge();
    registerLiveDocs(bridge);
    const seen: DomainEvents['page.saved'][] = [];
    const stop = events.subscribe('page.saved', (e) => void seen.push(e));
    try {
      const { page } = await savePage(
        actor,
        { pageId: 0, itemId, title: 'Where', content: 'v0' },
        { origin: 'rest' },
      );
      for (const content of ['open here', 'not open here'])
        await savePage(
          actor,
          { pageId: page.page_id, itemId, title: 'Where', content },
          { origin: 'rest' },
        );
      registerLiveDocs(null);
      await savePage(
        actor,
        { pageId: page.page_id, itemId, title: 'Where', content: 'no documents here' },
        { origin: 'rest' },
      );
    } finally {
      stop();
    }
    expect(seen.map((e) => e.live)).toEqual([false, true, false, false]);
  });

  test('a failing bridge does not fail the save: the version and the new text are stored', async () => {
    const { bridge } = recordingBridge(true);
    const { page } = await savePage(
      actor,
      { pageId: 0, itemId, title: 'Sturdy', content: 'v0' },
      { origin: 'rest' },
    );
    registerLiveDocs(bridge);
    await expect(
      savePage(
        actor,
        { pageId: page.page_id, itemId, title: 'Sturdy', content: 'v1' },
        { origin: 'rest' },
      ),
    ).resolves.toMatchObject({ created: false });
    expect((await Page.findOne({ page_id: page.page_id }).lean())!.page_content).toBe('v1');
    expect(await PageHistory.countDocuments({ page_id: page.page_id })).toBe(1);
  });

  test('page.saved carries the origin, so the collaborative editor can skip its own saves', async () => {
    const seen: DomainEvents['page.saved'][] = [];
    const stop = events.subscribe('page.saved', (e) => void seen.push(e));
    try {
      const { page } = await savePage(
        actor,
        { pageId: 0, itemId, title: 'Evented', content: 'a' },
        { origin: 'import' },
      );
      await savePage(
        actor,
        { pageId: page.page_id, itemId, title: 'Evented', content: 'b' },
        { origin: 'collab' },
      );
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      stop();
    }
    expect(seen.map((e) => [e.origin, e.created])).toEqual([
      ['import', true],
      ['collab', false],
    ]);
  });

  test('concurrent updates each keep the version they replaced', async () => {
    const { page } = await savePage(
      actor,
      { pageId: 0, itemId, title: 'Race', content: 'base' },
      { origin: 'rest' },
    );
    await Promise.all(
      ['x', 'y', 'z'].map((content) =>
        savePage(
          actor,
          { pageId: page.page_id, itemId, title: 'Race', content },
          { origin: 'rest' },
        ),
      ),
    );
    const versions = (await PageHistory.find({ page_id: page.page_id }).lean()).map(
      (v) => v.page_content,
    );
    const final = (await Page.findOne({ page_id: page.page_id }).lean())!.page_content;
    expect(versions).toHaveLength(3);
    expect(new Set([...versions, final])).toEqual(new Set(['base', 'x', 'y', 'z']));
  });
});

describe("the item's last_update_time", () => {
  test('each save moves it to the save time, never back, however many saves share a second', async () => {
    const user = await makeUser();
    const { item_id } = await makeItem(user);
    const owner = await actorOf(user);
    const base = (await Item.findOne({ item_id }).lean())!.last_update_time + 100;
    const { page } = await savePage(
      owner,
      { pageId: 0, itemId: item_id, title: 'Timed', content: 'v0' },
      { origin: 'rest', now: base },
    );
    const update = (content: string, now: number) =>
      savePage(
        owner,
        { pageId: page.page_id, itemId: item_id, title: 'Timed', content },
        { origin: 'rest', now },
      );
    const stored = async () => (await Item.findOne({ item_id }).lean())!.last_update_time;
    await update('v1', base);
    await update('v2', base);
    expect(await stored()).toBe(base);
    await update('v3', base + 7);
    expect(await stored()).toBe(base + 7);
    await update('v4', base + 3);
    expect(await stored()).toBe(base + 7);
    await update('v5', base + 8);
    expect(await stored()).toBe(base + 8);
  });

  test('saves of one item at once (a kanban move saves board and card together) leave the latest time', async () => {
    const user = await makeUser();
    const { item_id } = await makeItem(user);
    const owner = await actorOf(user);
    const base = (await Item.findOne({ item_id }).lean())!.last_update_time + 100;
    const save = (title: string, now: number) =>
      savePage(
        owner,
        { pageId: 0, itemId: item_id, title, content: title },
        { origin: 'rest', now },
      );
    const stored = async () => (await Item.findOne({ item_id }).lean())!.last_update_time;
    await Promise.all([save('a', base), save('b', base)]);
    expect(await stored()).toBe(base);
    // The later time wins whichever touch is already on its way.
    await Promise.all([save('c', base + 5), save('d', base + 9), save('e', base + 9)]);
    expect(await stored()).toBe(base + 9);
    await Promise.all([save('f', base + 20), save('g', base + 12)]);
    expect(await stored()).toBe(base + 20);
  });
});

describe('what a save asks of the database', () => {
  test("an update reads nothing back: the save's listeners (board relay, parameter learning) find the page it kept in memory", async () => {
    const user = await makeUser();
    const owner = await actorOf(user);
    const { item_id } = await makeItem(user);
    const { page } = await savePage(
      owner,
      { pageId: 0, itemId: item_id, title: 'Orders', content: 'draft' },
      { origin: 'rest' },
    );
    // Read once (a new page is not kept): from here on the page is in memory.
    await savePage(
      owner,
      { pageId: page.page_id, itemId: item_id, title: 'Orders', content: 'second draft' },
      { origin: 'rest' },
    );
    const table = [
      '| Parameter | Type | Description |',
      '| --- | --- | --- |',
      '| order_ref | string | The order to look up |',
    ].join('\n');
    const commands: string[] = [];
    mongoose.set('debug', (collection: string, method: string) => {
      commands.push(`${collection}.${method}`);
    });
    try {
      await savePage(
        owner,
        { pageId: page.page_id, itemId: item_id, title: 'Orders', content: table },
        { origin: 'rest' },
      );
      // The listeners have run once the parameter they learnt is stored.
      for (let i = 0; i < 50; i++) {
        if (await ParamDescEntry.exists({ item_id, name: 'order_ref' })) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    } finally {
      mongoose.set('debug', false);
    }
    expect(await ParamDescEntry.exists({ item_id, name: 'order_ref' })).toBeTruthy();
    const pageReads = commands.filter(
      (c) => c.startsWith('page.') && c !== 'page.findOneAndUpdate',
    );
    expect(pageReads).toEqual([]);
  });
});
