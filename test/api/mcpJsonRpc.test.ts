/**
 * The MCP endpoint as ShowDoc's clients and scripts use it: plain JSON-RPC POSTs without a
 * session handshake, the token in `Authorization: Bearer` or `X-API-Token`, batches, and the
 * guard rails (body cap, batch cap, garbage, the query string ignored).
 */
import { describe, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { makeAiToken, mcpPost, type RpcAnswer } from '../helpers/mcp';

// Logs on: the last test reads them.
const suite = apiSuite({ item: { item_name: 'Rpc item' }, env: { LOG_LEVEL: 'info' } });

const rpc = (id: number, method: string, params?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id,
  method,
  ...(params ? { params } : {}),
});

describe('plain JSON-RPC on /mcp.php', () => {
  test('tools/call works without initialize, with Bearer and with X-API-Token', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner);
    for (const header of ['bearer', 'x-api-token'] as const) {
      const { status, body } = await mcpPost(
        suite.server,
        token,
        rpc(1, 'tools/call', { name: 'get_item', arguments: { item_id: String(suite.itemId) } }),
        { header },
      );
      expect(status).toBe(200);
      const answer = body as RpcAnswer;
      const content = answer.result!.content as Array<{ type: string; text: string }>;
      expect(content[0].type).toBe('text');
      expect(JSON.parse(content[0].text)).toMatchObject({
        item_id: suite.itemId,
        item_name: 'Rpc item',
      });
    }
  });

  test('initialize, ping and an unknown method answer as JSON-RPC; a call without a token is -32001', async () => {
    const init = (
      await mcpPost(
        suite.server,
        '',
        rpc(1, 'initialize', {
          protocolVersion: '2024-11-05',
          clientInfo: { name: 'script', version: '1' },
          capabilities: {},
        }),
      )
    ).body as RpcAnswer;
    expect(init.result).toMatchObject({
      protocolVersion: '2024-11-05',
      capabilities: { tools: { listChanged: false } },
    });
    expect(((await mcpPost(suite.server, '', rpc(2, 'ping'))).body as RpcAnswer).result).toEqual(
      {},
    );
    const { token } = await makeAiToken(suite.server, suite.owner);
    expect(
      ((await mcpPost(suite.server, token, rpc(3, 'nope/nope'))).body as RpcAnswer).error?.code,
    ).toBe(-32601);
    const anonymous = (await mcpPost(suite.server, '', rpc(4, 'tools/list'))).body as RpcAnswer;
    expect(anonymous.error).toMatchObject({ code: -32001 });
    const wrong = (await mcpPost(suite.server, 'ai_' + 'a'.repeat(86), rpc(5, 'tools/list')))
      .body as RpcAnswer;
    expect(wrong.error?.code).toBe(-32001);
    // A notification alone gets 202 and no body.
    const note = await mcpPost(suite.server, token, {
      jsonrpc: '2.0',
      method: 'notifications/initialized',
    });
    expect(note.status).toBe(202);
    expect(note.text).toBe('');
  });

  test('a batch answers each call in order; a batch of 11 is refused whole', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner);
    const batch = [
      rpc(1, 'tools/list'),
      rpc(2, 'tools/call', { name: 'list_items', arguments: {} }),
      rpc(3, 'tools/call', { name: 'get_item', arguments: { item_id: 999999 } }),
      { jsonrpc: '1.0', id: 4, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
    ];
    const answers = (await mcpPost(suite.server, token, batch)).body as RpcAnswer[];
    expect(answers.map((a) => a.id)).toEqual([1, 2, 3, 4]);
    expect((answers[0].result!.tools as unknown[]).length).toBeGreaterThanOrEqual(30);
    expect(answers[1].result).toBeDefined();
    expect(answers[2].error?.code).toBe(-32006);
    expect(answers[3].error?.code).toBe(-32600);

    const eleven = Array.from({ length: 11 }, (_, i) => rpc(i + 1, 'ping'));
    const refused = (await mcpPost(suite.server, token, eleven)).body as RpcAnswer;
    expect(refused.error?.code).toBe(-32600);
    expect(refused.error?.message).toMatch(/at most 10/);
  });

  test('bodies over 1 MB, garbage JSON and non-objects are refused with JSON-RPC errors', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner);
    const huge = JSON.stringify(
      rpc(1, 'tools/call', {
        name: 'create_page',
        arguments: {
          item_id: suite.itemId,
          page_title: 'Huge',
          page_content: 'x'.repeat(1_100_000),
        },
      }),
    );
    const big = await mcpPost(suite.server, token, huge);
    expect(big.status).toBe(200);
    expect((big.body as RpcAnswer).error).toMatchObject({ code: -32600 });
    expect((big.body as RpcAnswer).error!.message).toMatch(/too large/);
    const pages = await suite.as(suite.owner).ok<{ pages: unknown[] }>('catalog/catListGroup', {
      item_id: suite.itemId,
    });
    expect(JSON.stringify(pages)).not.toContain('Huge');

    const garbage = await mcpPost(suite.server, token, '{"jsonrpc": "2.0", "id": 1, "method":');
    expect((garbage.body as RpcAnswer).error?.code).toBe(-32700);
    const scalar = await mcpPost(suite.server, token, '42');
    expect((scalar.body as RpcAnswer).error?.code).toBe(-32600);
  });

  test('every URL form is the endpoint, and a query string never re-routes it', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner);
    for (const path of ['/mcp', '/mcp.php', '/server/mcp.php', '/server/mcp']) {
      const answer = (await mcpPost(suite.server, token, rpc(1, 'ping'), { path }))
        .body as RpcAnswer;
      expect(answer).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    }
    // ShowDoc's 2026-08 hole: `mcp.php?s=/api/user/info` reached the user controller.
    for (const path of ['/mcp.php?s=/api/user/info', '/server/mcp.php?s=/api/user/info']) {
      const answer = await mcpPost(suite.server, '', rpc(7, 'tools/list'), { path });
      expect(answer.body).toMatchObject({ jsonrpc: '2.0', id: 7, error: { code: -32001 } });
      expect(answer.text).not.toContain('error_code');
    }
    const get = await suite.server.request('/mcp.php?s=/api/user/info');
    expect(get.status).toBe(405);
  });

  test('the token never reaches the log', async () => {
    const { token } = await makeAiToken(suite.server, suite.owner);
    await mcpPost(suite.server, token, rpc(1, 'tools/list'), { path: `/mcp.php?token=${token}` });
    await mcpPost(suite.server, token, rpc(2, 'tools/call', { name: 'list_items' }));
    const log = suite.server.logText();
    expect(log).toContain('"path":"/mcp"');
    expect(log).not.toContain(token);
    expect(log).not.toContain('token=');
  });
});
