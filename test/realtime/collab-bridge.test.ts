/**
 * Server-side saves into open page documents (models/pages/pages.ts connectLiveDocuments): a REST save
 * by a script shows up in every connected editor as a minimal diff and rebases the draft; the
 * editor's own save of a text the document already went through does not undo later typing; a
 * history restore is applied even to a text the document held lately; saves made by the
 * collaborative editor itself (origin 'collab') are not re-applied.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import * as Y from 'yjs';
import { contentHash, loadDraft } from '../../models/pages/drafts';
import { savePage } from '../../models/pages/pages';
import { Page } from '../../models/pages/schemas/page';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { actorOf, addMember, makeItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { startTestServer, type TestServer } from '../helpers/server';
import { makeUser, type TestUser } from '../helpers/users';

let server: TestServer;
let owner: TestUser;
let editor: TestUser;
let itemId: number;

beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  [owner, editor] = await Promise.all([makeUser(), makeUser()]);
  ({ item_id: itemId } = await makeItem(owner, { password: 'pw' }));
  await addMember(itemId, editor, 1);
  // No test here takes a page lock, so every editor writes.
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  await server.stop();
});

const open = (user: TestUser, pageId: number) => openSynced(server.url, pageId, user.user_token);

/** page/save over HTTP, the way a script or the editor's save button calls it. */
const restSave = (user: TestUser, pageId: number, content: string) =>
  server.api.withToken(user.user_token).ok('page/save', {
    page_id: pageId,
    item_id: itemId,
    page_title: 'Bridged',
    page_content: content,
  });

describe('a REST save of an open page', () => {
  test('appears in every connected editor and rebases the draft as saved', async () => {
    const page = await makePage(owner, itemId, { content: '# Title\n\nOld body.\n' });
    const first = await open(editor, page.page_id);
    const second = await open(owner, page.page_id);
    await restSave(owner, page.page_id, '# Title\n\nNew body from a script.\n');
    // savePage applies before it answers: the server's document already holds the text.
    await textBecomes(first, '# Title\n\nNew body from a script.\n');
    await textBecomes(second, '# Title\n\nNew body from a script.\n');
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: '# Title\n\nNew body from a script.\n',
        saved: true,
        baseHash: contentHash('# Title\n\nNew body from a script.\n'),
        updatedBy: owner.uid,
      }),
    );
  });

  test('is applied as a minimal diff: positions in unchanged text keep pointing at the same characters', async () => {
    const page = await makePage(owner, itemId, { content: 'HEAD\nmiddle\nTAIL marker\n' });
    const client = await open(editor, page.page_id);
    const at = client.text.toString().indexOf('marker');
    const anchor = Y.createRelativePositionFromTypeIndex(client.text, at);
    await restSave(owner, page.page_id, 'A much longer head line\nmiddle\nTAIL marker\n');
    await textBecomes(client, 'A much longer head line\nmiddle\nTAIL marker\n');
    const resolved = Y.createAbsolutePositionFromRelativePosition(anchor, client.doc);
    expect(resolved?.index).toBe(client.text.toString().indexOf('marker'));
  });

  test("the editor's own save of a text the document went through does not undo later typing", async () => {
    const page = await makePage(owner, itemId, { content: 'draft' });
    const saver = await open(editor, page.page_id);
    const typist = await open(owner, page.page_id);
    saver.append(' v2');
    await textBecomes(typist, 'draft v2');
    const onScreen = saver.text.toString();
    // The co-editor types on while the save request is on its way.
    typist.append(' +typed later');
    await textBecomes(saver, 'draft v2 +typed later');
    await restSave(editor, page.page_id, onScreen);

    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_content).toBe('draft v2');
    // A later edit round-trips, so the save has been handled; the typing is still there.
    saver.append('!');
    await textBecomes(typist, 'draft v2 +typed later!');
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: 'draft v2 +typed later!',
        baseHash: contentHash('draft v2'),
        saved: false,
      }),
    );
  });
});

describe('other origins', () => {
  test('a history restore to a text the document held lately is applied', async () => {
    const page = await makePage(owner, itemId, { content: 'version one' });
    const client = await open(editor, page.page_id);
    client.append(' and two');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    await savePage(
      await actorOf(owner),
      { pageId: page.page_id, itemId, title: 'Restored', content: 'version one' },
      { origin: 'history' },
    );
    await textBecomes(client, 'version one');
  });

  test("saves made by the collaborative editor itself ('collab') are not re-applied", async () => {
    const page = await makePage(owner, itemId, { content: 'live text' });
    const client = await open(editor, page.page_id);
    const seen: string[] = [];
    client.text.observe(() => seen.push(client.text.toString()));
    await savePage(
      await actorOf(editor),
      { pageId: page.page_id, itemId, title: 'From collab', content: 'collab saved text' },
      { origin: 'collab' },
    );
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
      'collab saved text',
    );
    // A later REST save is applied as usual; the collab save never showed up before it.
    await restSave(owner, page.page_id, 'rest saved text');
    await textBecomes(client, 'rest saved text');
    expect(seen).not.toContain('collab saved text');
  });
});
