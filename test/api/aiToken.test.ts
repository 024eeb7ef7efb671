/**
 * `ai_token/*` (ShowDoc's AiTokenController) and what a token allows on the MCP endpoint:
 * permission, selected items, expiry, revoke, reset, rate limits, another user's token.
 */
import { describe, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { makeItem } from '../helpers/factories';
import { callTool, makeAiToken, mcpPost, type RpcAnswer } from '../helpers/mcp';

const suite = apiSuite({
  item: { item_name: 'Token item' },
  env: { MCP_TOKEN_RATE_LIMIT: '6', MCP_USER_RATE_LIMIT: '1000' },
});

interface TokenRow {
  id: number;
  name: string;
  permission: string;
  scope: string;
  allowed_items: string;
  token_preview: string;
  expires_at: string | null;
  last_used_at: string | null;
  is_active: number;
}

describe('ai_token actions', () => {
  test('create shows the raw token once; list and detail show only its preview', async () => {
    const api = suite.as(suite.owner);
    const created = await api.ok<{ token: string; id: number; message: string }>(
      'ai_token/create',
      { name: 'docs-bot', permission: 'read' },
    );
    expect(created.token).toMatch(/^ai_[0-9a-f]{86}$/);
    const list = await api.ok<{ tokens: TokenRow[]; total: number }>('ai_token/list');
    const row = list.tokens.find((t) => t.id === created.id)!;
    expect(row).toMatchObject({ name: 'docs-bot', permission: 'read', scope: 'all', is_active: 1 });
    expect(row.token_preview).toBe(`${created.token.slice(0, 5)}***${created.token.slice(-6)}`);
    expect(JSON.stringify(list)).not.toContain(created.token);
    const detail = await api.ok<TokenRow>('ai_token/detail', { id: created.id });
    expect(JSON.stringify(detail)).not.toContain(created.token);
    expect(detail.last_used_at).toBeNull();
  });

  test('bad input is refused and nothing is created', async () => {
    const api = suite.as(suite.owner);
    const before = (await api.ok<{ total: number }>('ai_token/list')).total;
    expect((await api.fail('ai_token/create', { permission: 'admin' })).error_code).toBe(10101);
    expect((await api.fail('ai_token/create', { scope: 'selected' })).error_message).toMatch(
      /at least one item/,
    );
    expect((await api.fail('ai_token/create', { expires_at: 'soon' })).error_message).toMatch(
      /expiry/,
    );
    const foreign = await makeItem(suite.stranger);
    expect(
      (
        await api.fail('ai_token/create', {
          scope: 'selected',
          allowed_items: String(foreign.item_id),
        })
      ).error_message,
    ).toMatch(/cannot access/);
    expect((await api.ok<{ total: number }>('ai_token/list')).total).toBe(before);
    expect((await suite.server.api.fail('ai_token/list')).error_code).toBe(10102);
  });

  test('update, revoke and delete change the token; availableItems lists reachable items', async () => {
    const api = suite.as(suite.editor);
    const { id } = await makeAiToken(suite.server, suite.editor);
    await api.ok('ai_token/update', {
      id,
      name: 'renamed',
      scope: 'selected',
      allowed_items: String(suite.itemId),
      expires_at: '2099-01-01 00:00:00',
    });
    const detail = await api.ok<TokenRow & { allowed_items_detail: unknown[] }>('ai_token/detail', {
      id,
    });
    expect(detail).toMatchObject({
      name: 'renamed',
      scope: 'selected',
      expires_at: '2099-01-01 00:00:00',
    });
    expect(JSON.parse(detail.allowed_items)).toEqual([suite.itemId]);
    expect(detail.allowed_items_detail).toEqual([
      { item_id: suite.itemId, item_name: 'Token item' },
    ]);
    expect((await api.fail('ai_token/update', { id })).error_message).toMatch(/Nothing to update/);

    await api.ok('ai_token/revoke', { id });
    expect((await api.ok<TokenRow>('ai_token/detail', { id })).is_active).toBe(0);
    await api.ok('ai_token/delete', { id });
    expect((await api.fail('ai_token/detail', { id })).error_message).toMatch(/does not exist/);

    const available = await api.ok<{ items: Array<{ item_id: number }>; total: number }>(
      'ai_token/availableItems',
    );
    expect(available.items.map((i) => i.item_id)).toContain(suite.itemId);
  });

  test("another user's token id is refused by every action", async () => {
    const { id } = await makeAiToken(suite.server, suite.owner);
    const api = suite.as(suite.stranger);
    for (const action of ['detail', 'update', 'reset', 'revoke', 'delete'])
      expect((await api.fail(`ai_token/${action}`, { id, name: 'x' })).error_message).toMatch(
        /does not exist/,
      );
    expect((await suite.as(suite.owner).ok<TokenRow>('ai_token/detail', { id })).is_active).toBe(1);
  });
});

describe('what a token allows on the endpoint', () => {
  test('a read-only token reads but never writes', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner, { permission: 'read' });
    expect(
      (await callTool(suite.server, token, 'get_item', { item_id: suite.itemId })).data,
    ).toMatchObject({
      item_id: suite.itemId,
      role: 'owner',
    });
    const write = await callTool(suite.server, token, 'create_page', {
      item_id: suite.itemId,
      page_title: 'Nope',
      page_content: 'x',
    });
    expect(write.error?.code).toBe(-32005);
    const pages = await callTool(suite.server, token, 'list_pages', { item_id: suite.itemId });
    expect((pages.data!.pages as unknown[]).length).toBe(0);
  });

  test('a selected-items token sees nothing else', async () => {
    const other = await makeItem(suite.owner, { item_name: 'Other item' });
    const { token } = await makeAiToken(suite.server, suite.owner, {
      scope: 'selected',
      allowed_items: String(suite.itemId),
    });
    const items = (await callTool(suite.server, token, 'list_items')).data!.items as Array<{
      item_id: number;
    }>;
    expect(items.map((i) => i.item_id)).toEqual([suite.itemId]);
    expect(
      (await callTool(suite.server, token, 'get_item', { item_id: other.item_id })).error?.code,
    ).toBe(-32002);
  });

  test('expired, revoked and reset tokens stop working', async () => {
    const api = suite.as(suite.owner);
    const expired = await makeAiToken(suite.server, suite.owner, { expires_at: '2001-01-01' });
    expect((await callTool(suite.server, expired.token, 'list_items')).error?.code).toBe(-32001);

    const revoked = await makeAiToken(suite.server, suite.owner);
    expect((await callTool(suite.server, revoked.token, 'list_items')).data).toBeDefined();
    await api.ok('ai_token/revoke', { id: revoked.id });
    expect((await callTool(suite.server, revoked.token, 'list_items')).error?.code).toBe(-32001);

    const reset = await makeAiToken(suite.server, suite.owner);
    const { token: fresh } = await api.ok<{ token: string }>('ai_token/reset', { id: reset.id });
    expect(fresh).not.toBe(reset.token);
    expect((await callTool(suite.server, reset.token, 'list_items')).error?.code).toBe(-32001);
    expect((await callTool(suite.server, fresh, 'list_items')).data).toBeDefined();
    const row = await api.ok<TokenRow>('ai_token/detail', { id: reset.id });
    expect(row.last_used_at).not.toBeNull();
  });

  test('a token over its rate limit answers -32008 with retry_after', async () => {
    const { token } = await makeAiToken(suite.server, suite.reader);
    const answers: RpcAnswer[] = [];
    for (let i = 0; i < 7; i++)
      answers.push(
        (await mcpPost(suite.server, token, { jsonrpc: '2.0', id: i, method: 'tools/list' }))
          .body as RpcAnswer,
      );
    expect(answers.slice(0, 6).every((a) => a.result)).toBe(true);
    expect(answers[6].error?.code).toBe(-32008);
    expect(answers[6].error?.data?.retry_after).toBeGreaterThan(0);
    // ping needs no token and is not counted.
    const ping = (await mcpPost(suite.server, token, { jsonrpc: '2.0', id: 9, method: 'ping' }))
      .body as RpcAnswer;
    expect(ping.result).toEqual({});
  });
});
