/**
 * AI agents' edits in open page documents (realtime/collab/liveBridge.ts, agentPresence.ts): a
 * save carrying an `agent` (an MCP token's) is replayed as only its own hunks on the live text, so
 * what an editor typed and has not saved — or types at the same moment — survives it; the agent
 * shows in the document's awareness with its label while it writes and is removed
 * AGENT_PRESENCE_MS after its last write; no client may forge or drop such an entry. Watchers of
 * the page (the reader's Socket.IO presence list) see the agent editing for the same time.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { savePage } from '../../models/pages';
import { AGENT_PRESENCE_MS, type CollabAgent } from '../../realtime/collabProtocol';
import { rebaseOnLive } from '../../realtime/collab/text';
import { apiSuite } from '../helpers/apiSuite';
import {
  closeAllCollabClients,
  openSynced,
  textBecomes,
  type CollabClient,
} from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { closeAllSockets, connectClient } from '../helpers/sockets';
import { actorOf } from '../helpers/factories';
import { makePage } from '../helpers/pages';
import { type TestUser } from '../helpers/users';

const suite = apiSuite({
  item: { password: 'pw' },
  teardown: () => {
    closeAllCollabClients();
    closeAllSockets();
  },
});
afterEach(() => {
  closeAllCollabClients();
  closeAllSockets();
});

const open = (user: TestUser, pageId: number) =>
  openSynced(suite.server.url, pageId, user.user_token);

const AGENT = { label: "Claude via token 'docs-bot'", tokenId: 7 };

/** The owner's save of `content` as an MCP agent would make it. */
async function agentSave(pageId: number, content: string, agent = AGENT) {
  await savePage(
    await actorOf(suite.owner),
    { pageId, itemId: suite.itemId, title: 'Agent page', content },
    { origin: 'open-api', agent },
  );
}

/** The agent entries a client sees in the page's awareness. */
function agentsSeenBy(client: CollabClient): CollabAgent[] {
  return [...client.provider.awareness!.getStates().values()]
    .map((state) => (state as { agent?: CollabAgent }).agent)
    .filter((agent): agent is CollabAgent => agent !== undefined);
}

const synced = (client: CollabClient) =>
  eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));

describe('rebaseOnLive (an agent change replayed on a live text)', () => {
  test.each([
    ['nobody typed: the target as is', 'a b c', 'a B c', 'a b c', 'a B c'],
    [
      'typing elsewhere is kept',
      'one\ntwo\n',
      'one\nTWO\n',
      'zero\none\ntwo\n',
      'zero\none\nTWO\n',
    ],
    ['an insertion lands after text typed at the same spot', 'ab', 'aXb', 'aYb', 'aYXb'],
    ['text an editor already deleted stays deleted', 'abcdef', 'af', 'abef', 'af'],
    ['typing inside a deleted range survives', 'abcdef', 'af', 'abcZdef', 'aZf'],
    ['nothing changed by the agent: the live text as is', 'same', 'same', 'same!', 'same!'],
  ])('%s', (_name, base, target, live, expected) => {
    expect(rebaseOnLive(base, target, live)).toBe(expected);
  });
});

describe("an agent's save of an open page", () => {
  test('keeps what an editor typed and has not saved: only the agent hunks are applied', async () => {
    const page = await makePage(suite.owner, suite.itemId, {
      content: '# Guide\n\nIntro.\n\n## Setup\n\nOld setup.\n',
    });
    const human = await open(suite.editor, page.page_id);
    const other = await open(suite.reader, page.page_id);
    human.text.insert(
      human.text.toString().indexOf('Intro.') + 'Intro.'.length,
      ' Typed by a person.',
    );
    await synced(human);
    // The agent worked from the stored text (it never saw the person's typing).
    await agentSave(
      page.page_id,
      '# Guide\n\nIntro.\n\n## Setup\n\nNew setup written by the agent.\n',
    );
    const expected =
      '# Guide\n\nIntro. Typed by a person.\n\n## Setup\n\nNew setup written by the agent.\n';
    await textBecomes(human, expected);
    await textBecomes(other, expected);
  });

  test('a local insert made at the same moment as the agent diff survives it', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'alpha\nbeta\ngamma\n' });
    const human = await open(suite.editor, page.page_id);
    // Typed before the agent's change reaches this editor: both travel at once.
    human.text.insert(0, 'typed meanwhile\n');
    const saving = agentSave(page.page_id, 'alpha\nBETA (agent)\ngamma\n');
    await saving;
    await textBecomes(human, 'typed meanwhile\nalpha\nBETA (agent)\ngamma\n');
    const watcher = await open(suite.owner, page.page_id);
    await textBecomes(watcher, 'typed meanwhile\nalpha\nBETA (agent)\ngamma\n');
  });

  test('a save without an agent (a script over REST) still sets the saved text', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'base' });
    const human = await open(suite.editor, page.page_id);
    human.append(' unsaved');
    await synced(human);
    await suite.server.api.withToken(suite.owner.user_token).ok('page/save', {
      page_id: page.page_id,
      item_id: suite.itemId,
      page_title: 'Script',
      page_content: 'base from a script',
    });
    await textBecomes(human, 'base from a script');
  });
});

describe('agents in presence', () => {
  test('the agent appears in every editor’s awareness with its label while it writes, then leaves', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'presence page' });
    const human = await open(suite.editor, page.page_id);
    await agentSave(page.page_id, 'presence page, first agent write');
    await eventually(() =>
      expect(agentsSeenBy(human)).toEqual([
        expect.objectContaining({
          label: AGENT.label,
          tokenId: AGENT.tokenId,
          uid: suite.owner.uid,
        }),
      ]),
    );
    // An editor opening the page now is told about the agent too.
    const late = await open(suite.reader, page.page_id);
    await eventually(() => expect(agentsSeenBy(late).map((a) => a.label)).toEqual([AGENT.label]));
    // A second write keeps one entry and restarts its time.
    await agentSave(page.page_id, 'presence page, second agent write');
    const secondWrite = Date.now();
    await eventually(() => expect(agentsSeenBy(human)).toHaveLength(1));
    await eventually(() => expect(agentsSeenBy(human)).toEqual([]), {
      timeoutMs: AGENT_PRESENCE_MS + 5000,
    });
    expect(Date.now() - secondWrite).toBeGreaterThanOrEqual(AGENT_PRESENCE_MS - 500);
    await eventually(() => expect(agentsSeenBy(late)).toEqual([]));
  }, 40_000);

  test('two agents on one page are two entries', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'two agents' });
    const human = await open(suite.editor, page.page_id);
    await agentSave(page.page_id, 'two agents: one', AGENT);
    await agentSave(page.page_id, 'two agents: one, two', {
      label: "Cursor via token 'ci'",
      tokenId: 8,
    });
    await eventually(() =>
      expect(
        agentsSeenBy(human)
          .map((a) => a.label)
          .sort(),
      ).toEqual([AGENT.label, "Cursor via token 'ci'"].sort()),
    );
  });

  test('a client claiming to be an agent is closed (awareness-identity) and shows nobody', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'forgery' });
    const watcher = await open(suite.owner, page.page_id);
    const forger = await open(suite.editor, page.page_id);
    forger.provider.setAwarenessField('agent', {
      label: 'Fake agent',
      tokenId: 1,
      uid: 1,
      color: '#000',
    });
    await eventually(() => expect(forger.closes).toContain('awareness-identity'));
    const late = await open(suite.reader, page.page_id);
    await eventually(() => expect(agentsSeenBy(late)).toEqual([]));
    expect(agentsSeenBy(watcher)).toEqual([]);
  });
});

describe('agents in the Socket.IO presence list (the reader’s)', () => {
  test('a watcher of the page is told the agent is editing, after the people, and then that it left', async () => {
    const page = await makePage(suite.owner, suite.itemId, { content: 'watched page' });
    const watcher = await connectClient(suite.server.url, { user_token: suite.reader.user_token });
    await watcher.watch({ page_id: page.page_id, mode: 'viewing' });
    await agentSave(page.page_id, 'watched page, agent edit');
    const agentEntry = {
      uid: suite.owner.uid,
      username: AGENT.label,
      mode: 'editing',
      agent: { token_id: AGENT.tokenId },
    };
    const withAgent = await watcher.waitFor('presence', (p) =>
      p.users.some((u) => u.agent !== undefined),
    );
    expect(withAgent.users).toEqual([
      { uid: suite.reader.uid, username: suite.reader.username, mode: 'viewing' },
      agentEntry,
    ]);
    // Then a later push without it, once the agent has not written for AGENT_PRESENCE_MS.
    const seen = watcher.all('presence').length;
    const started = Date.now();
    await eventually(
      () => {
        const pushes = watcher.all('presence');
        expect(pushes.length).toBeGreaterThan(seen);
        expect(pushes.at(-1)?.users).toEqual([
          { uid: suite.reader.uid, username: suite.reader.username, mode: 'viewing' },
        ]);
      },
      { timeoutMs: AGENT_PRESENCE_MS + 5000 },
    );
    expect(Date.now() - started).toBeGreaterThan(AGENT_PRESENCE_MS / 2);
  }, 30_000);
});
