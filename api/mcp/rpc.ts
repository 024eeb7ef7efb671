/**
 * The MCP methods over the tool registry, reached two ways with the same answers and codes:
 *
 * - an SDK `Server` (official TypeScript SDK) behind its Streamable HTTP transport, for clients
 *   that speak the transport (the SDK's own client, Claude Desktop, Cursor …);
 * - `dispatchPlain` for plain JSON-RPC POSTs as ShowDoc's clients and scripts send them (no
 *   `Accept: text/event-stream`, no initialize first, batches), which the SDK transport refuses.
 *
 * A tool's refusal is a JSON-RPC error with ShowDoc's code (toolkit.ts), never a 500.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  LATEST_PROTOCOL_VERSION,
  ListToolsRequestSchema,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '@modelcontextprotocol/sdk/types.js';
import { asToolError } from './access';
import { ALL_TOOLS, TOOLS_BY_NAME } from './tools';
import { MCP_ERRORS, type McpCaller, McpToolError } from './toolkit';

export const SERVER_INFO = { name: 'quire-mcp', version: '1.0.0' };
const CAPABILITIES = { tools: { listChanged: false } };

export interface ToolResult {
  [key: string]: unknown;
  content: Array<{ type: 'text'; text: string }>;
}

export function listTools() {
  return ALL_TOOLS.map(({ name, description, inputSchema }) => ({
    name,
    description,
    inputSchema,
  }));
}

/** tools/call: the tool's answer object as JSON text content (ShowDoc's shape). */
export async function callTool(
  caller: McpCaller,
  name: unknown,
  args: unknown,
): Promise<ToolResult> {
  const tool = typeof name === 'string' ? TOOLS_BY_NAME.get(name) : undefined;
  if (!tool) throw new McpToolError(MCP_ERRORS.METHOD_NOT_FOUND, `Tool not found: ${String(name)}`);
  if (args !== undefined && args !== null && (typeof args !== 'object' || Array.isArray(args)))
    throw new McpToolError(MCP_ERRORS.INVALID_PARAMS, 'arguments must be an object');
  if (tool.write && caller.token.permission !== 'write')
    throw new McpToolError(
      MCP_ERRORS.TOKEN_OPERATION_DENIED,
      'This token is read-only: it may not write',
    );
  try {
    const answer = await tool.handler(caller, (args ?? {}) as Record<string, unknown>);
    return { content: [{ type: 'text', text: JSON.stringify(answer) }] };
  } catch (error) {
    throw asToolError(error);
  }
}

/** What the SDK's Protocol turns into a JSON-RPC error as it is (its McpError would prefix the text). */
function sdkError(error: unknown): Error {
  const tool = asToolError(error);
  return Object.assign(new Error(tool.message), {
    code: tool.code,
    ...(tool.data !== undefined ? { data: tool.data } : {}),
  });
}

/** An SDK server for one HTTP request (stateless: every request builds its own). */
export function sdkServer(caller: () => Promise<McpCaller>): Server {
  const server = new Server(SERVER_INFO, { capabilities: CAPABILITIES });
  server.setRequestHandler(ListToolsRequestSchema, async () => {
    try {
      await caller();
    } catch (error) {
      throw sdkError(error);
    }
    return { tools: listTools() };
  });
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    try {
      return await callTool(await caller(), request.params.name, request.params.arguments);
    } catch (error) {
      throw sdkError(error);
    }
  });
  return server;
}

export interface JsonRpcMessage {
  jsonrpc: '2.0';
  id?: string | number | null;
  method: string;
  params?: Record<string, unknown>;
}

export type JsonRpcAnswer =
  | { jsonrpc: '2.0'; id: string | number | null; result: unknown }
  | {
      jsonrpc: '2.0';
      id: string | number | null;
      error: { code: number; message: string; data?: unknown };
    };

export function rpcError(
  id: JsonRpcMessage['id'],
  code: number,
  message: string,
  data?: unknown,
): JsonRpcAnswer {
  return {
    jsonrpc: '2.0',
    id: id ?? null,
    error: { code, message, ...(data !== undefined ? { data } : {}) },
  };
}

/** One plain JSON-RPC request (the caller is resolved only by the methods that need a token). */
export async function dispatchPlain(
  message: JsonRpcMessage,
  caller: () => Promise<McpCaller>,
): Promise<JsonRpcAnswer> {
  const id = message.id ?? null;
  try {
    const params = message.params ?? {};
    switch (message.method) {
      case 'initialize': {
        const asked = typeof params.protocolVersion === 'string' ? params.protocolVersion : '';
        return {
          jsonrpc: '2.0',
          id,
          result: {
            protocolVersion: SUPPORTED_PROTOCOL_VERSIONS.includes(asked)
              ? asked
              : LATEST_PROTOCOL_VERSION,
            capabilities: CAPABILITIES,
            serverInfo: SERVER_INFO,
          },
        };
      }
      case 'ping':
      case 'notifications/initialized':
        return { jsonrpc: '2.0', id, result: {} };
      case 'tools/list':
        await caller();
        return { jsonrpc: '2.0', id, result: { tools: listTools() } };
      case 'tools/call':
        return {
          jsonrpc: '2.0',
          id,
          result: await callTool(await caller(), params.name, params.arguments),
        };
      default:
        return rpcError(id, MCP_ERRORS.METHOD_NOT_FOUND, `Method not found: ${message.method}`);
    }
  } catch (error) {
    const tool = asToolError(error);
    return rpcError(id, tool.code, tool.message, tool.data);
  }
}
