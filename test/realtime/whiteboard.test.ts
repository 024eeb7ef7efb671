/**
 * Whiteboard documents (`whiteboard.<page_id>`) on the real Hocuspocus at /collab, with real
 * providers: the saved board opens as one Y.Map entry per object, a shape one co-drawer adds
 * reaches the other, a read-only member's drawing is refused by the server, the kinds are not
 * mixed (a whiteboard page never opens as Markdown text), a `save` stores ShowDoc's JSON as the
 * page version, and a REST save (history restore, ShowDoc's client) reaches the open board.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { Page } from '../../models/pages';
import { whiteboardDocumentName } from '../../realtime/collabProtocol';
import { boardObjects, boardOfDoc, type BoardEntry } from '../../realtime/whiteboardProtocol';
import { closeAllCollabClients, openPage, type CollabClient } from '../helpers/collab';
import { apiSuite } from '../helpers/apiSuite';
import { eventually } from '../helpers/embedded';
import { addMember, makeItem } from '../helpers/factories';
import { makePage, updatePage } from '../helpers/pages';
import type { TestUser } from '../helpers/users';

const suite = apiSuite({
  item: { password: 'secret-visit' },
  teardown: () => closeAllCollabClients(),
});
afterEach(() => closeAllCollabClients());

const rect = (id: string, left: number) => ({
  type: 'Rect',
  version: '7.4.0',
  id,
  left,
  top: 10,
  width: 50,
  height: 40,
  fill: 'transparent',
  stroke: '#1677ff',
});

async function whiteboard(content = ''): Promise<{ itemId: number; pageId: number }> {
  const { item_id } = await makeItem(suite.owner, { item_type: 5, password: 'pw' });
  await addMember(item_id, suite.editor, 1);
  await addMember(item_id, suite.reader, 0);
  const page = await Page.findOne({ item_id }).lean();
  if (content)
    await Page.updateOne({ page_id: page!.page_id }, { $set: { page_content: content } });
  return { itemId: item_id, pageId: page!.page_id };
}

async function openBoard(user: TestUser, pageId: number): Promise<CollabClient> {
  const client = openPage(suite.server.url, pageId, user.user_token, {
    name: whiteboardDocumentName(pageId),
  });
  await client.opened;
  await client.synced;
  return client;
}

const entries = (client: CollabClient) => boardObjects(client.doc);

describe('whiteboard documents', () => {
  test('a saved ShowDoc board opens with one entry per object, in order', async () => {
    const saved = JSON.stringify({
      __canvasSize: { width: 1900, height: 950 },
      version: '4.6.0',
      objects: [rect('', 1), { type: 'i-text', version: '4.6.0', text: 'Hello board' }],
    });
    const { pageId } = await whiteboard(saved);
    const client = await openBoard(suite.editor, pageId);
    expect(await client.opened).toBe('read-write');
    const board = boardOfDoc(client.doc);
    expect(board.__canvasSize).toEqual({ width: 1900, height: 950 });
    expect(board.objects.map((o) => o.type)).toEqual(['Rect', 'i-text']);
    expect(board.objects[1]).toMatchObject({ text: 'Hello board' });
  });

  test('a shape added by one co-drawer arrives at the other', async () => {
    const { pageId } = await whiteboard();
    const a = await openBoard(suite.owner, pageId);
    const b = await openBoard(suite.editor, pageId);
    entries(a).set('shape-a', { z: 1, object: rect('shape-a', 100) });
    entries(b).set('shape-b', { z: 2, object: rect('shape-b', 200) });
    await eventually(() => {
      expect([...entries(b).keys()].sort()).toEqual(['shape-a', 'shape-b']);
      expect([...entries(a).keys()].sort()).toEqual(['shape-a', 'shape-b']);
    });
    expect((entries(b).get('shape-a') as BoardEntry).object.left).toBe(100);
  });

  test("a read-only member's connection is read-only and its drawing is refused", async () => {
    const { pageId } = await whiteboard();
    const writer = await openBoard(suite.editor, pageId);
    const reader = await openBoard(suite.reader, pageId);
    expect(await reader.opened).toBe('readonly');
    entries(reader).set('defaced', { z: 1, object: rect('defaced', 5) });
    // Messages of one socket are handled in order: once the reader's awareness reached the
    // writer, the server has handled (and refused) the update sent before it.
    reader.provider.setAwarenessField('mode', 'viewing');
    await eventually(() =>
      expect(writer.provider.awareness!.getStates().get(reader.doc.clientID)).toMatchObject({
        mode: 'viewing',
      }),
    );
    expect(entries(writer).has('defaced')).toBe(false);
    const late = await openBoard(suite.owner, pageId);
    expect(entries(late).has('defaced')).toBe(false);
  });

  test('a whiteboard page does not open as Markdown, nor a Markdown page as a board', async () => {
    const { pageId } = await whiteboard();
    const asText = openPage(suite.server.url, pageId, suite.editor.user_token);
    expect(await asText.opened.catch((e: Error) => e.message)).toBe('bad-document');
    const page = await makePage(suite.owner, suite.itemId, { content: '# Markdown' });
    const asBoard = openPage(suite.server.url, page.page_id, suite.owner.user_token, {
      name: whiteboardDocumentName(page.page_id),
    });
    expect(await asBoard.opened.catch((e: Error) => e.message)).toBe('bad-document');
  });

  test("`save` stores the board as ShowDoc's JSON in the page; a REST save reaches the open board", async () => {
    const { itemId, pageId } = await whiteboard();
    const a = await openBoard(suite.owner, pageId);
    const b = await openBoard(suite.editor, pageId);
    entries(a).set('r1', { z: 1, object: rect('r1', 30) });
    const answer = await a.save({ title: 'Board', catId: 0, customId: '' });
    expect(answer.type).toBe('saved');
    const stored = await Page.findOne({ page_id: pageId }).lean();
    const json = JSON.parse(stored!.page_content) as { version: string; objects: unknown[] };
    expect(json.version).toBeTruthy();
    expect(json.objects).toEqual([expect.objectContaining({ type: 'Rect', id: 'r1', left: 30 })]);

    // A restore (or ShowDoc's own client saving over REST) replaces the board for everyone open.
    await updatePage(
      suite.owner,
      { page_id: pageId, item_id: itemId },
      JSON.stringify({ version: '4.6.0', objects: [rect('r2', 70)] }),
    );
    await eventually(() => expect([...entries(b).keys()]).toEqual(['r2']));
  });
});
