/**
 * Page documents as the page's live shared draft: loading from the saved content when there is no
 * draft, storing edits (Yjs bytes and text together), surviving a server restart, catching up with
 * a save made while nobody had the page open, an explicit save marking the draft saved, and the
 * deterministic initialisation that lets processes load the same page at the same time.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import * as Y from 'yjs';
import {
  contentHash,
  draftStatus,
  flagPagesWithDrafts,
  loadDraft,
} from '../../models/pages/liveDrafts';
import { purgeRecycleBin } from '../../models/pages/recycle';
import { Page } from '../../models/pages/schemas/page';
import { PageHistory } from '../../models/pages/schemas/pageHistory';
import { nowSeconds } from '../../models/platform/time';
import { PAGE_TEXT } from '../../realtime/collabProtocol';
import { setPageTextDeterministically } from '../../realtime/collab/text';
import { closeAllCollabClients, openSynced, textBecomes } from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeEditedItem } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';
import type { TestUser } from '../helpers/users';
import { rm } from 'node:fs/promises';

let dataDir: string;
let server: TestServer;
let owner: TestUser, editor: TestUser, itemId: number;

beforeAll(async () => {
  // Our own data directory, so the restart test can start a new server on it.
  dataDir = await makeTempDir();
  server = await startTestServer({ dataDir, env: { LOG_LEVEL: 'silent' } });
  ({ owner, editor, itemId } = await makeEditedItem({ password: 'pw' }));
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  await server.stop();
  await rm(dataDir, { recursive: true, force: true });
});

const open = (user: TestUser, pageId: number) => openSynced(server.url, pageId, user.user_token);

/** The page text held in a stored Yjs state. */
function textOfState(state: Uint8Array): string {
  const doc = new Y.Doc();
  Y.applyUpdate(doc, state);
  return doc.getText(PAGE_TEXT).toString();
}

describe('loading', () => {
  test('a page without a draft opens with its saved content; opening it writes no draft', async () => {
    const page = await makePage(owner, itemId, { content: '# Saved\n\nText.' });
    const client = await open(editor, page.page_id);
    expect(client.text.toString()).toBe('# Saved\n\nText.');
    expect(await draftStatus(page.page_id, page.page_content)).toBe('none');
  });
});

describe('storing', () => {
  test('edits are stored as the draft: Yjs bytes and text together, not yet saved', async () => {
    const page = await makePage(owner, itemId, { content: 'base' });
    const client = await open(editor, page.page_id);
    client.append(' + draft');
    const draft = await eventually(async () => {
      const row = await loadDraft(page.page_id);
      expect(row?.text).toBe('base + draft');
      return row!;
    });
    expect(textOfState(draft.state)).toBe('base + draft');
    expect(draft).toMatchObject({ itemId, saved: false, updatedBy: editor.uid });
    expect(draft.baseHash).toBe(contentHash('base'));
    expect(await draftStatus(page.page_id, 'base')).toBe('unsaved');
    // The saved page is untouched: a draft is not a save.
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.page_content).toBe('base');
  });

  test('the draft is written when the last editor leaves', async () => {
    const page = await makePage(owner, itemId, { content: 'leave' });
    const client = await open(editor, page.page_id);
    client.append(' and go');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    client.destroy();
    await eventually(async () =>
      expect((await loadDraft(page.page_id))?.text).toBe('leave and go'),
    );
  });

  test('an explicit save stores the content, creates the history version and marks the draft saved', async () => {
    const page = await makePage(owner, itemId, { title: 'Explicit', content: 'v1' });
    const client = await open(editor, page.page_id);
    client.append(' → v2');
    await eventually(async () => expect((await loadDraft(page.page_id))?.text).toBe('v1 → v2'));
    // What the editor's save button does: REST page/save with the text on screen.
    await server.api.withToken(editor.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Explicit',
      page_content: client.text.toString(),
    });
    const saved = await Page.findOne({ page_id: page.page_id }).lean();
    expect(saved?.page_content).toBe('v1 → v2');
    expect(await PageHistory.countDocuments({ page_id: page.page_id, page_content: 'v1' })).toBe(1);
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: 'v1 → v2',
        saved: true,
        baseHash: contentHash('v1 → v2'),
      }),
    );
    expect(await draftStatus(page.page_id, 'v1 → v2')).toBe('saved');
    expect(client.text.toString()).toBe('v1 → v2');
  });
});

describe('a save made while nobody had the page open', () => {
  test('the next open shows the saved content, not the stale draft', async () => {
    const page = await makePage(owner, itemId, { content: 'old' });
    const first = await open(editor, page.page_id);
    first.append(' draft edit');
    await eventually(() => expect(first.provider.hasUnsyncedChanges).toBe(false));
    first.destroy();
    await eventually(async () =>
      expect((await loadDraft(page.page_id))?.text).toBe('old draft edit'),
    );

    await server.api.withToken(owner.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Scripted',
      page_content: 'new from a script',
    });
    expect(await draftStatus(page.page_id, 'new from a script')).toBe('stale');

    const second = await open(editor, page.page_id);
    expect(second.text.toString()).toBe('new from a script');
    second.append('!');
    await eventually(async () =>
      expect(await loadDraft(page.page_id)).toMatchObject({
        text: 'new from a script!',
        baseHash: contentHash('new from a script'),
        saved: false,
      }),
    );
  });

  test('a save of exactly the stored draft marks it saved without opening it', async () => {
    const page = await makePage(owner, itemId, { content: 'same' });
    const client = await open(editor, page.page_id);
    client.append(' text');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    client.destroy();
    await eventually(async () => expect((await loadDraft(page.page_id))?.text).toBe('same text'));
    await server.api.withToken(editor.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Same',
      page_content: 'same text',
    });
    expect(await draftStatus(page.page_id, 'same text')).toBe('saved');
  });
});

describe('drafts stored by earlier versions', () => {
  test('a draft stored before pages carried has_draft is found again at start: a save of its text marks it saved', async () => {
    const page = await makePage(owner, itemId, { content: 'legacy' });
    const client = await open(editor, page.page_id);
    client.append(' text');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    client.destroy();
    await eventually(async () => expect((await loadDraft(page.page_id))?.text).toBe('legacy text'));
    // As an earlier version left it: a draft, and no flag on its page.
    await Page.updateOne({ page_id: page.page_id }, { $unset: { has_draft: 1 } });
    await flagPagesWithDrafts();
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.has_draft).toBe(1);
    await server.api.withToken(editor.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Legacy',
      page_content: 'legacy text',
    });
    expect(await draftStatus(page.page_id, 'legacy text')).toBe('saved');
  });

  test('a page never opened in the editor carries no draft flag, and saving it writes no draft', async () => {
    const page = await makePage(owner, itemId, { content: 'plain' });
    await server.api.withToken(editor.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: itemId,
      page_title: 'Plain',
      page_content: 'plain v2',
    });
    await flagPagesWithDrafts();
    expect((await Page.findOne({ page_id: page.page_id }).lean())?.has_draft).toBeUndefined();
    expect(await draftStatus(page.page_id, 'plain v2')).toBe('none');
  });
});

describe('removal', () => {
  test('a deleted page keeps its draft for a restore; purging the page drops it', async () => {
    const page = await makePage(owner, itemId, { content: 'doomed' });
    const client = await open(editor, page.page_id);
    client.append(' draft');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    client.destroy();
    await eventually(async () =>
      expect((await loadDraft(page.page_id))?.text).toBe('doomed draft'),
    );
    await server.api
      .withToken(owner.user_token)
      .ok('page/delete', { page_id: page.page_id, item_id: itemId });
    expect(await loadDraft(page.page_id)).not.toBeNull();
    // Far enough ahead that the recycle bin's retention has passed.
    await purgeRecycleBin(nowSeconds() + 400 * 86_400, { itemId });
    await eventually(async () => expect(await loadDraft(page.page_id)).toBeNull());
  });
});

describe('deterministic initialisation', () => {
  test('two processes initialising the same page make identical changes, which merge into one text', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    setPageTextDeterministically(a, '# Page\n', 'init:7', null);
    setPageTextDeterministically(b, '# Page\n', 'init:7', null);
    expect(Y.encodeStateAsUpdate(a)).toEqual(Y.encodeStateAsUpdate(b));
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    expect(a.getText(PAGE_TEXT).toString()).toBe('# Page\n');
  });

  test('different targets from the same state never share item ids', () => {
    const base = new Y.Doc();
    base.getText(PAGE_TEXT).insert(0, 'common');
    const state = Y.encodeStateAsUpdate(base);
    const a = new Y.Doc();
    const b = new Y.Doc();
    Y.applyUpdate(a, state);
    Y.applyUpdate(b, state);
    setPageTextDeterministically(a, 'common A', 'reconcile:7', null);
    setPageTextDeterministically(b, 'common B', 'reconcile:7', null);
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    // Both changes survive (a real conflict), and both copies agree.
    expect(a.getText(PAGE_TEXT).toString()).toBe(b.getText(PAGE_TEXT).toString());
    expect(a.getText(PAGE_TEXT).toString()).toContain('A');
    expect(a.getText(PAGE_TEXT).toString()).toContain('B');
  });
});

describe('restart', () => {
  test('the draft survives a server restart, including edits still waiting for their debounce', async () => {
    const page = await makePage(owner, itemId, { content: 'before restart' });
    const client = await open(editor, page.page_id);
    client.append(' + unsaved edit');
    await eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));
    // Stop while the client is still connected: closing writes the pending draft.
    client.stopReconnecting();
    await server.stop();
    closeAllCollabClients();
    server = await startTestServer({ dataDir, env: { LOG_LEVEL: 'silent' } });
    const again = await open(editor, page.page_id);
    expect(again.text.toString()).toBe('before restart + unsaved edit');
    await textBecomes(again, 'before restart + unsaved edit');
  });
});
