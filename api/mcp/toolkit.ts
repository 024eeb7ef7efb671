/**
 * The MCP tool seam: every tool module (items, catalogs, pages, history, links, attachments,
 * OpenAPI, kanban, RunApi) declares its tools with `defineTools`, and the endpoint (api/mcp/server)
 * lists and calls them from one registry (api/mcp/tools/index.ts). A tool reaches the domain only
 * through models/ with `caller.actor`, which carries the token's limits, so the access policy
 * itself keeps a read-only or selected-items token inside its scope.
 */
import type { Actor } from '../../models/access';

export type TokenPermission = 'read' | 'write';

/** Who calls: the token's user as an access Actor that carries the token's limits. */
export interface McpCaller {
  /** models/access Actor, with the token scope attached (`actor.token`). */
  actor: Actor;
  token: {
    id: number;
    name: string;
    permission: TokenPermission;
    scope: 'all' | 'selected';
    itemIds: number[];
    /** Writes text directly on items in suggest mode (else its edits become suggestions). */
    writeDirectly: boolean;
  };
  /** From initialize's clientInfo.name, '' if unknown (e.g. "Claude"). */
  clientName: string;
  ip: string;
  /** Absolute base of the links tools answer (`page_url`, `share_url`), no trailing slash. */
  baseUrl: string;
}

export interface McpTool {
  /** ShowDoc's exact tool name. */
  name: string;
  /** ShowDoc's meaning, in English. */
  description: string;
  /** JSON Schema as ShowDoc declares it (same properties/required). */
  inputSchema: Record<string, unknown>;
  /** A read-only token may not call it. */
  write: boolean;
  /** Returns ShowDoc's answer object (sent to the client as JSON text content). */
  handler(caller: McpCaller, args: Record<string, unknown>): Promise<unknown>;
}

export function defineTools(...tools: McpTool[]): McpTool[] {
  return tools;
}

/** ShowDoc's McpError codes (server/app/Mcp/McpError.php). */
export const MCP_ERRORS = {
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,
  TOKEN_INVALID: -32001,
  TOKEN_SCOPE_DENIED: -32002,
  NOT_ITEM_MEMBER: -32003,
  NO_EDIT_PERMISSION: -32004,
  TOKEN_OPERATION_DENIED: -32005,
  RESOURCE_NOT_FOUND: -32006,
  CONTENT_TOO_LARGE: -32007,
  RATE_LIMITED: -32008,
  VERSION_CONFLICT: -32009,
  OPERATION_FAILED: -32010,
  VALIDATION_ERROR: -32011,
} as const;

/** A refusal a tool answers with: ShowDoc's code, a clear message, optional data. */
export class McpToolError extends Error {
  constructor(
    public code: number,
    message: string,
    public data?: unknown,
  ) {
    super(message);
    this.name = 'McpToolError';
  }
}

/** The agent descriptor a tool's save carries into the domain event and the history. */
export function agentOf(caller: McpCaller): { label: string; tokenId: number } {
  const who = caller.clientName.trim() || 'AI agent';
  return { label: `${who} via token '${caller.token.name}'`, tokenId: caller.token.id };
}
