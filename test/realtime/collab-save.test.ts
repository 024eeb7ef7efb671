/**
 * The editor's save as a command on the page's live document (realtime/collab/saveCommand.ts):
 * the server stores the text its document holds — every edit the saver sent before the request
 * included — through savePage (version history, events, "save and notify"), answers on the same
 * connection and marks the draft saved. A save made while a co-editor types loses neither's text;
 * read-only connections and bad requests store nothing; a REST save from a script still appears
 * live in the open document.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { loadDraft, contentHash } from '../../models/pages';
import { Page, PageHistory } from '../../models/pages/schemas';
import { events, type DomainEvents } from '../../models/platform';
import { apiSuite } from '../helpers/apiSuite';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makePage } from '../helpers/pages';
import type { TestUser } from '../helpers/users';

const suite = apiSuite({ item: { password: 'pw' }, teardown: () => closeAllCollabClients() });
afterEach(() => closeAllCollabClients());

const open = (user: TestUser, pageId: number) =>
  openSynced(suite.server.url, pageId, user.user_token);
const stored = async (pageId: number) => (await Page.findOne({ page_id: pageId }).lean())!;

describe('save over the live document', () => {
  test('stores the text the document holds, keeps the old version, answers and marks the draft saved', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'first', title: 'T' });
    const client = await open(suite.editor, page.page_id);
    const saved: DomainEvents['page.saved'][] = [];
    const stop = events.subscribe('page.saved', (event) => void saved.push(event));
    // Typed and saved at once: the save request travels behind the edit on the same socket.
    client.append(' and second');
    const answer = await client.save({ title: 'Renamed', catId: 0, customId: '', notify: 'hi' });
    stop();

    expect(answer).toEqual({
      type: 'saved',
      requestId: expect.any(String),
      pageId: page.page_id,
      content: 'first and second',
    });
    expect(await stored(page.page_id)).toMatchObject({
      page_title: 'Renamed',
      page_content: 'first and second',
      author_uid: suite.editor.uid,
    });
    const versions = await PageHistory.find({ page_id: page.page_id }).lean();
    expect(versions.map((v) => v.page_content)).toEqual(['first']);
    expect(saved).toContainEqual(
      expect.objectContaining({
        pageId: page.page_id,
        byUid: suite.editor.uid,
        origin: 'collab',
        notify: { content: 'hi' },
      }),
    );
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: 'first and second',
        saved: true,
        baseHash: contentHash('first and second'),
      }),
    );
    // Nothing was applied back: the document still holds the text once.
    expect(client.text.toString()).toBe('first and second');
  });

  test('a save made while another editor types loses neither’s text', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'start\n' });
    const saver = await open(suite.editor, page.page_id);
    const typist = await open(suite.owner, page.page_id);
    saver.append('saver line\n');
    // The co-editor keeps typing while the save is on its way and after it.
    const typing = (async () => {
      for (let i = 0; i < 20; i++) {
        typist.text.insert(0, `t${i} `);
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    const answer = await saver.save({ title: 'T', catId: 0, customId: '' });
    await typing;

    expect(answer.type).toBe('saved');
    const content = answer.type === 'saved' ? answer.content : '';
    // The stored version is what the document held: the saver's line and the typing so far.
    expect(content).toContain('start\nsaver line\n');
    expect((await stored(page.page_id)).page_content).toBe(content);
    const typed = Array.from({ length: 20 }, (_, i) => `t${19 - i} `).join('');
    const expected = `${typed}start\nsaver line\n`;
    await textBecomes(saver, expected);
    await textBecomes(typist, expected);
    // A later edit round-trips: nothing else (a re-applied or doubled text) arrives after it.
    typist.append('!');
    await textBecomes(saver, `${expected}!`);
    expect(typist.text.toString()).toBe(`${expected}!`);
  });

  test('a read-only connection (a reader) is refused with 10101 and nothing is stored', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'kept' });
    const client = await open(suite.reader, page.page_id);
    const answer = await client.save({ title: 'Hijacked', catId: 0, customId: '' });
    expect(answer).toMatchObject({ type: 'save-failed', errorCode: 10101 });
    expect(await stored(page.page_id)).toMatchObject({ page_title: page.page_title });
    expect(await PageHistory.countDocuments({ page_id: page.page_id })).toBe(0);
  });

  test('the rules of page/save apply: a taken article ID and an empty page are refused', async () => {
    await makePage(suite.owner, suite.itemId, { content: 'x', customId: 'taken-id' });
    const page = await makePage(suite.owner, suite.itemId, { content: 'mine' });
    const client = await open(suite.editor, page.page_id);
    expect(await client.save({ title: 'T', catId: 0, customId: 'taken-id' })).toMatchObject({
      type: 'save-failed',
      errorCode: 10101,
      message: 'Article ID already exists',
    });
    client.text.delete(0, client.text.length);
    expect(await client.save({ title: 'T', catId: 0, customId: '' })).toMatchObject({
      type: 'save-failed',
      errorCode: 10101,
      message: 'Saving empty content is not allowed',
    });
    expect((await stored(page.page_id)).page_content).toBe('mine');
  });

  test('a REST save from a script still appears live in the open document', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'before' });
    const client = await open(suite.editor, page.page_id);
    await suite.as(suite.owner).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Scripted',
      page_content: 'after the script',
    });
    await textBecomes(client, 'after the script');
  });
});
