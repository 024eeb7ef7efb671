/**
 * AI agents live in the editor, in a real Chromium: a person types in a page while an agent's
 * `update_page_diff` (plain JSON-RPC to /mcp with a token made through ai_token/create) lands —
 * both texts are in the editor and in the saved page, and the agent is listed in the editor's
 * header while it writes, then leaves. And the user centre's token screen: create, the raw token
 * shown once (copied), revoke — after which the endpoint refuses it.
 */
import { expect, test } from '@jest/globals';
import { Page as PageModel } from '../../models/pages/schemas/page';
import { makeItem } from '../helpers/factories';
import { callTool, makeAiToken } from '../helpers/mcp';
import { makePage } from '../helpers/pages';
import { makeUser, type TestUser } from '../helpers/users';
import { AGENT_PRESENCE_MS } from '../../realtime/collabProtocol';
import { browserSuite, screenshot } from './helpers';
import { editorText, openEditor, typeAtEnd } from './editorHelpers';
import { eventually } from './readerFixture';

let owner: TestUser;
let itemId: number;

const suite = browserSuite({
  setup: async () => {
    owner = await makeUser({ name: 'Olive Owner' });
    ({ item_id: itemId } = await makeItem(owner, { item_name: 'Agent handbook' }));
  },
});

test('a person types while an agent’s update_page_diff lands: both texts survive, and the agent shows while it writes', async () => {
  const page = await makePage(owner, itemId, {
    title: 'Setup guide',
    content: '# Setup\n\nInstall the CLI.\n\nStatus: DRAFT\n',
  });
  const { token } = await makeAiToken(suite.server, owner, { name: 'docs-bot' });
  const editor = await openEditor(suite, owner, itemId, page.page_id);

  // The person types at the end, key by key, while the agent's change is sent.
  const typing = typeAtEnd(editor, 'Typed by a person.').then(() => undefined);
  await editor.waitForTimeout(150);
  const agentWrite = callTool(suite.server, token, 'update_page_diff', {
    page_id: page.page_id,
    diffs: [{ old_text: 'Status: DRAFT', new_text: 'Status: REVIEWED by the agent' }],
  });
  const [, answer] = await Promise.all([typing, agentWrite]);
  expect(answer.error).toBeUndefined();

  const agentTag = editor.getByTestId('editor-agent');
  await agentTag.waitFor();
  expect(await agentTag.textContent()).toContain("via token 'docs-bot'");
  await eventually(
    () => editorText(editor),
    '# Setup\n\nInstall the CLI.\n\nStatus: REVIEWED by the agent\nTyped by a person.',
  );
  await screenshot(editor, 'mcp-agent-live');

  await editor.getByTestId('editor-save').click();
  await editor.locator('[data-testid="editor-state"][data-state="saved"]').waitFor();
  expect((await PageModel.findOne({ page_id: page.page_id }).lean())?.page_content).toBe(
    '# Setup\n\nInstall the CLI.\n\nStatus: REVIEWED by the agent\nTyped by a person.',
  );
  // Gone once the agent has not written for a while.
  await agentTag.waitFor({ state: 'detached', timeout: AGENT_PRESENCE_MS + 10_000 });
}, 90_000);

test('the token screen: create, the raw token shown once and copied, revoke', async () => {
  const tp = await suite.open();
  await tp.context.grantPermissions(['clipboard-read', 'clipboard-write'], {
    origin: suite.server.url,
  });
  await tp.page.goto(
    `${suite.server.url}/user/loginByUserToken?user_token=${owner.user_token}&redirect_uri=${encodeURIComponent('/user/setting')}`,
  );
  const screen = tp.page;
  await screen.getByTestId('ai-tokens').waitFor();
  await screen.getByTestId('ai-token-create').click();
  await screen.getByTestId('ai-token-name').fill('cursor-laptop');
  await screen.getByRole('radio', { name: 'Read only' }).check();
  await screen.getByTestId('ai-token-create-ok').click();

  const revealed = screen.getByTestId('ai-token-revealed');
  await revealed.waitFor();
  const raw = (await screen.getByTestId('ai-token-raw').textContent())?.trim() ?? '';
  expect(raw.length).toBeGreaterThan(20);
  // The ready configuration carries the token and this site's /mcp.
  const snippet = await revealed.getByTestId('ai-token-snippet-generic').textContent();
  expect(snippet).toContain(`${suite.server.url}/mcp`);
  expect(snippet).toContain(`Bearer ${raw}`);
  await screen.getByTestId('ai-token-copy').click();
  await screen.getByText('Copied').first().waitFor();
  expect(await screen.evaluate(() => navigator.clipboard.readText())).toBe(raw);
  // It works, read-only.
  expect((await callTool(suite.server, raw, 'list_items')).error).toBeUndefined();
  expect((await callTool(suite.server, raw, 'create_item', { item_name: 'x' })).error?.code).toBe(
    -32005,
  );
  await screenshot(screen, 'mcp-token-revealed');

  await screen.getByRole('button', { name: 'Done' }).click();
  await revealed.waitFor({ state: 'detached' });
  // Shown once: only the mask is on the screen now.
  expect(await screen.content()).not.toContain(raw);
  const row = screen.locator('tr', { hasText: 'cursor-laptop' });
  await row.getByText('Active').waitFor();
  expect(await row.textContent()).toContain(`${raw.slice(0, 5)}***${raw.slice(-6)}`);

  await row.getByTestId('ai-token-revoke').click();
  await screen.locator('.ant-popconfirm').getByRole('button', { name: 'Revoke' }).click();
  await row.getByText('Revoked').waitFor();
  expect((await callTool(suite.server, raw, 'list_items')).error?.code).toBe(-32001);
}, 60_000);
