/**
 * Server-side saves into open page documents (models/pages `LiveDocPort`, registered by realtime
 * with `registerLiveDocs`): a REST save by a script shows up in every connected editor as a
 * minimal diff and rebases the draft; a history restore is applied even to a text the document
 * held lately; a save that brings the live document it comes from (the editor's save command,
 * collab-save.test.ts) goes to that document only and is not re-applied.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import * as Y from 'yjs';
import { contentHash, loadDraft } from '../../models/pages/liveDrafts';
import { savePage } from '../../models/pages';
import { Page } from '../../models/pages/schemas/page';
import { apiSuite } from '../helpers/apiSuite';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { actorOf } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { type TestUser } from '../helpers/users';

// No test here takes a page lock, so every editor writes.
const suite = apiSuite({ item: { password: 'pw' }, teardown: () => closeAllCollabClients() });
afterEach(() => closeAllCollabClients());

const open = (user: TestUser, pageId: number) =>
  openSynced(suite.server.url, pageId, user.user_token);

/** page/save over HTTP, the way a script calls it. */
const restSave = (user: TestUser, pageId: number, content: string) =>
  suite.server.api.withToken(user.user_token).ok('page/save', {
    page_id: pageId,
    item_id: suite.itemId,
    page_title: 'Bridged',
    page_content: content,
  });

describe('a REST save of an open page', () => {
  test('appears in every connected editor and rebases the draft as saved', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: '# Title\n\nOld body.\n' });
    const first = await open(suite.editor, page.page_id);
    const second = await open(suite.owner, page.page_id);
    await restSave(suite.owner, page.page_id, '# Title\n\nNew body from a script.\n');
    // savePage applies before it answers: the server's document already holds the text.
    await textBecomes(first, '# Title\n\nNew body from a script.\n');
    await textBecomes(second, '# Title\n\nNew body from a script.\n');
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: '# Title\n\nNew body from a script.\n',
        saved: true,
        baseHash: contentHash('# Title\n\nNew body from a script.\n'),
        updatedBy: suite.owner.uid,
      }),
    );
  });

  test('is applied as a minimal diff: positions in unchanged text keep pointing at the same characters', async () => {
    const page = await makePage(suite.owner, suite.itemId, {
      content: 'HEAD\nmiddle\nTAIL marker\n',
    });
    const client = await open(suite.editor, page.page_id);
    const at = client.text.toString().indexOf('marker');
    const anchor = Y.createRelativePositionFromTypeIndex(client.text, at);
    await restSave(suite.owner, page.page_id, 'A much longer head line\nmiddle\nTAIL marker\n');
    await textBecomes(client, 'A much longer head line\nmiddle\nTAIL marker\n');
    const resolved = Y.createAbsolutePositionFromRelativePosition(anchor, client.doc);
    expect(resolved?.index).toBe(client.text.toString().indexOf('marker'));
  });
});

describe('other origins', () => {
  test('a history restore to a text the document held lately is applied', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'version one' });
    const client = await open(suite.editor, page.page_id);
    client.append(' and two');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    await savePage(
      await actorOf(suite.owner),
      { pageId: page.page_id, itemId: suite.itemId, title: 'Restored', content: 'version one' },
      { origin: 'history' },
    );
    await textBecomes(client, 'version one');
  });

  test("a save that brings its own live document (the editor's save) is not applied to the open documents", async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'live text' });
    const client = await open(suite.editor, page.page_id);
    const seen: string[] = [];
    client.text.observe(() => seen.push(client.text.toString()));
    const taken: string[] = [];
    await savePage(
      await actorOf(suite.editor),
      {
        pageId: page.page_id,
        itemId: suite.itemId,
        title: 'From collab',
        content: 'collab saved text',
      },
      {
        origin: 'collab',
        liveDoc: {
          applySave: async (save) => {
            taken.push(save.content);
            return true;
          },
        },
      },
    );
    expect(taken).toEqual(['collab saved text']);
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
      'collab saved text',
    );
    // A later REST save is applied as usual; the collab save never showed up before it.
    await restSave(suite.owner, page.page_id, 'rest saved text');
    await textBecomes(client, 'rest saved text');
    expect(seen).not.toContain('collab saved text');
  });
});
