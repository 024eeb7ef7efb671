/**
 * MCP over plain HTTP for tests: raw JSON-RPC posts to the endpoint (as ShowDoc's clients send
 * them), a tools/call shortcut, and AI tokens made through `ai_token/create`.
 */
import type { TestServer } from './server';
import type { TestUser } from './users';

export interface RpcAnswer {
  jsonrpc: '2.0';
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: Record<string, unknown> };
}

/** POSTs `body` (an object, an array, or raw text) to `path` with the token in `header`. */
export async function mcpPost(
  server: TestServer,
  token: string,
  body: unknown,
  options: { path?: string; header?: 'bearer' | 'x-api-token' } = {},
): Promise<{ status: number; body: unknown; text: string }> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (token) {
    if (options.header === 'x-api-token') headers['x-api-token'] = token;
    else headers.authorization = `Bearer ${token}`;
  }
  const response = await server.request(options.path ?? '/mcp.php', {
    method: 'POST',
    headers,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = text;
  }
  return { status: response.status, body: parsed, text };
}

let nextId = 1;

/** tools/call; the answer object (parsed from the text content) or the JSON-RPC error. */
export async function callTool(
  server: TestServer,
  token: string,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ data?: Record<string, unknown>; error?: RpcAnswer['error'] }> {
  const { body } = await mcpPost(server, token, {
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args },
  });
  const answer = body as RpcAnswer;
  if (answer.error) return { error: answer.error };
  const content = (answer.result?.content ?? []) as Array<{ type: string; text: string }>;
  return { data: JSON.parse(content[0].text) as Record<string, unknown> };
}

/** An AI token of `user` (raw), made with `ai_token/create`. */
export async function makeAiToken(
  server: TestServer,
  user: TestUser,
  params: Record<string, string | number> = {},
): Promise<{ token: string; id: number }> {
  return server.api
    .withToken(user.user_token)
    .ok<{ token: string; id: number }>('ai_token/create', { name: 'test-bot', ...params });
}
