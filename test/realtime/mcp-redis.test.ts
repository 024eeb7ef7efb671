/**
 * AI agents' writes across two Quire processes joined by Redis (as collab-redis.test.ts sets them
 * up: A in this test process with the embedded engine, B a child process on A's engine, one
 * REDIS_URL). An MCP `update_page_diff` sent to B reaches an editor connected to A — as only its
 * hunks, so what that editor typed and has not saved survives — and the agent shows in that
 * editor's awareness; with the page open on both processes the change lands once.
 * Needs redis-server: the test fails (it does not skip) when the binary is missing.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import path from 'node:path';
import { engineSocketPath } from '../../models/platform/db';
import { socketUriFor } from '../../models/embedded';
import type { CollabAgent } from '../../realtime/collabProtocol';
import {
  closeAllCollabClients,
  openSynced,
  textBecomes,
  type CollabClient,
} from '../helpers/collab';
import { eventually } from '../helpers/embedded';
import { makeEditedItem } from '../helpers/factories';
import { makeAiToken } from '../helpers/mcp';
import { makePage } from '../helpers/pages';
import { startQuireProcess, stopAllQuires, type QuireProcess } from '../helpers/quireProcesses';
import { startRedis, type TestRedis } from '../helpers/redis';
import { startTestServer, type TestServer } from '../helpers/server';
import type { TestUser } from '../helpers/users';

let redis: TestRedis;
let a: TestServer;
let b: QuireProcess;
let owner: TestUser, editor: TestUser, itemId: number;
let token: string;

beforeAll(async () => {
  redis = await startRedis();
  a = await startTestServer({ env: { REDIS_URL: redis.url, LOG_LEVEL: 'silent' } });
  b = await startQuireProcess(
    'child',
    {
      HOST: '127.0.0.1',
      PORT: '0',
      REDIS_URL: redis.url,
      LOG_LEVEL: 'warn',
      MONGODB_URI: socketUriFor(engineSocketPath(a.dataDir)),
      DATA_DIR: path.join(a.dataDir, 'b'),
    },
    { cwd: a.dataDir },
  );
  ({ owner, editor, itemId } = await makeEditedItem({ password: 'pw' }));
  ({ token } = await makeAiToken(a, owner, { name: 'docs-bot' }));
});
afterEach(() => closeAllCollabClients());
afterAll(async () => {
  closeAllCollabClients();
  // B uses A's engine: it stops first.
  await b?.stop();
  await stopAllQuires();
  await a?.stop();
  await redis?.stop();
});

const onA = (user: TestUser, pageId: number) => openSynced(a.url, pageId, user.user_token);
const onB = (user: TestUser, pageId: number) => openSynced(b.url, pageId, user.user_token);

/** An agent's update_page_diff as plain JSON-RPC to process B's /mcp. */
async function agentDiffThroughB(pageId: number, oldText: string, newText: string) {
  const response = await fetch(`${b.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'update_page_diff',
        arguments: { page_id: pageId, diffs: [{ old_text: oldText, new_text: newText }] },
      },
    }),
  });
  const answer = (await response.json()) as { error?: unknown; result?: unknown };
  expect(answer.error).toBeUndefined();
  return answer.result;
}

function agentsSeenBy(client: CollabClient): CollabAgent[] {
  return [...client.provider.awareness!.getStates().values()]
    .map((state) => (state as { agent?: CollabAgent }).agent)
    .filter((agent): agent is CollabAgent => agent !== undefined);
}

const synced = (client: CollabClient) =>
  eventually(() => expect(client.provider.hasUnsyncedChanges).toBe(false));

describe('an MCP write through the other process', () => {
  test("reaches an editor on A as only the agent's hunks, and the agent shows in its awareness", async () => {
    const page = await makePage(owner, itemId, { content: 'Intro.\nStatus: DRAFT\n' });
    const human = await onA(editor, page.page_id);
    human.append('Typed on A.');
    await synced(human);
    await agentDiffThroughB(page.page_id, 'Status: DRAFT', 'Status: DONE (agent)');
    await textBecomes(human, 'Intro.\nStatus: DONE (agent)\nTyped on A.');
    await eventually(() =>
      expect(agentsSeenBy(human)).toEqual([
        expect.objectContaining({ label: "AI agent via token 'docs-bot'", uid: owner.uid }),
      ]),
    );
  });

  test('with the page open on both processes it lands once in each', async () => {
    const page = await makePage(owner, itemId, { content: 'one\ntwo\nthree\n' });
    const onProcessA = await onA(editor, page.page_id);
    const onProcessB = await onB(owner, page.page_id);
    onProcessA.append('from A');
    await synced(onProcessA);
    await textBecomes(onProcessB, 'one\ntwo\nthree\nfrom A');
    await agentDiffThroughB(page.page_id, 'two', 'TWO (agent)');
    const expected = 'one\nTWO (agent)\nthree\nfrom A';
    await textBecomes(onProcessA, expected);
    await textBecomes(onProcessB, expected);
    // Nothing arrives twice later (a second application would double the agent's text).
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(onProcessA.text.toString()).toBe(expected);
    expect(onProcessB.text.toString()).toBe(expected);
    await eventually(() => expect(agentsSeenBy(onProcessA)).toHaveLength(1));
    await eventually(() => expect(agentsSeenBy(onProcessB)).toHaveLength(1));
  });
});
