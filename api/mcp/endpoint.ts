/**
 * The MCP endpoint (`POST /mcp.php`, `/mcp`, `/server/mcp.php`; ShowDoc's McpController): JSON-RPC
 * 2.0 over HTTP, authenticated per call by an AI token (`Authorization: Bearer <token>` or
 * `X-API-Token`). The query string is never read — ShowDoc once let `mcp.php?s=/api/…` reach any
 * controller without its token check; here the path alone picks the endpoint.
 *
 * Guard rails (ShowDoc's): bodies up to 1 MB, batches of at most 10 calls, rate limits per token
 * and per user (-32008 with `retry_after`). Every refusal is a JSON-RPC error with HTTP 200, as
 * ShowDoc answers; nothing here answers 500. Tokens never reach the log (the request log writes
 * the path only; errors are logged without the request).
 *
 * Clients that speak MCP's Streamable HTTP transport (Accept: application/json and
 * text/event-stream, one message per POST) go through the official SDK's server and transport,
 * stateless (a fresh pair per request, so any worker answers); plain JSON-RPC posts and batches go
 * through `dispatchPlain` with the same tools and codes. `GET` answers 405: there is no server-sent
 * stream to open, which the SDK client accepts.
 */
import type { Request, Response } from 'express';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import {
  type AiTokenCaller,
  authenticateAiToken,
  consumeAiTokenCall,
  type RateLimits,
  rememberAiClient,
  touchAiToken,
} from '../../models/aiTokens';
import type { Logger } from '../../models/platform';
import { publicBaseUrl } from '../uploads';
import { dispatchPlain, type JsonRpcAnswer, type JsonRpcMessage, rpcError, sdkServer } from './rpc';
import { MCP_ERRORS, type McpCaller, McpToolError } from './toolkit';

export const MAX_BODY_BYTES = 1024 * 1024;
export const MAX_BATCH = 10;

const CORS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'POST, OPTIONS',
  'Access-Control-Allow-Headers':
    'Content-Type, Authorization, X-API-Token, Mcp-Session-Id, Mcp-Protocol-Version, Accept',
};

export interface McpEndpointOptions {
  limits: RateLimits;
  logger: Logger;
}

function sendJson(res: Response, body: unknown, status = 200): void {
  res.status(status).set(CORS).type('application/json').send(JSON.stringify(body));
}

/** The raw token of the request's headers ('' when none). */
function tokenOf(req: Request): string {
  const auth = req.get('authorization') ?? '';
  const bearer = /^Bearer\s+(.+)$/i.exec(auth.trim());
  if (bearer) return bearer[1].trim();
  return (req.get('x-api-token') ?? '').trim();
}

/** The body as text, or null when it passes the cap (reading stops there). */
async function readBody(req: Request): Promise<string | null> {
  const declared = Number(req.get('content-length') ?? 0);
  if (declared > MAX_BODY_BYTES) return null;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

function isRequest(value: unknown): value is JsonRpcMessage {
  const m = value as Partial<JsonRpcMessage> | null;
  return (
    typeof m === 'object' &&
    m !== null &&
    !Array.isArray(m) &&
    m.jsonrpc === '2.0' &&
    typeof m.method === 'string'
  );
}

const isNotification = (m: JsonRpcMessage) => !('id' in m) || m.id === undefined;

function invalidMessage(value: unknown): JsonRpcAnswer {
  const id = (value as { id?: JsonRpcMessage['id'] } | null)?.id ?? null;
  const version = (value as { jsonrpc?: unknown } | null)?.jsonrpc;
  return rpcError(
    typeof id === 'string' || typeof id === 'number' ? id : null,
    MCP_ERRORS.INVALID_REQUEST,
    version !== '2.0' ? 'Invalid JSON-RPC version (must be "2.0")' : 'Invalid request: no method',
  );
}

export function mcpEndpoint(options: McpEndpointOptions) {
  return async (req: Request, res: Response): Promise<void> => {
    res.locals.logPath = '/mcp';
    try {
      if (req.method === 'OPTIONS') {
        res.status(204).set(CORS).end();
        return;
      }
      if (req.method !== 'POST') {
        res.set('Allow', 'POST, OPTIONS');
        sendJson(
          res,
          rpcError(null, MCP_ERRORS.INVALID_REQUEST, 'Method not allowed: use POST'),
          405,
        );
        return;
      }
      await handlePost(req, res, options);
    } catch (error) {
      options.logger.error({ err: error instanceof Error ? error.message : String(error) }, 'mcp');
      if (!res.headersSent)
        sendJson(res, rpcError(null, MCP_ERRORS.INTERNAL_ERROR, 'Internal server error'));
    }
  };
}

async function handlePost(req: Request, res: Response, options: McpEndpointOptions) {
  const text = await readBody(req);
  if (text === null) {
    req.resume();
    sendJson(
      res,
      rpcError(
        null,
        MCP_ERRORS.INVALID_REQUEST,
        `Request body too large (at most ${MAX_BODY_BYTES} bytes)`,
      ),
    );
    return;
  }
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch (error) {
    sendJson(
      res,
      rpcError(null, MCP_ERRORS.PARSE_ERROR, `Parse error: ${(error as Error).message}`),
    );
    return;
  }
  if (typeof body !== 'object' || body === null) {
    sendJson(res, rpcError(null, MCP_ERRORS.INVALID_REQUEST, 'The request must be a JSON object'));
    return;
  }
  if (Array.isArray(body)) {
    if (!body.length) {
      sendJson(res, rpcError(null, MCP_ERRORS.INVALID_REQUEST, 'Empty batch'));
      return;
    }
    if (body.length > MAX_BATCH) {
      sendJson(
        res,
        rpcError(
          null,
          MCP_ERRORS.INVALID_REQUEST,
          `Too many requests in one batch (at most ${MAX_BATCH}), got ${body.length}`,
        ),
      );
      return;
    }
  }
  const callers = await callerSource(req, options.limits);
  const single = !Array.isArray(body);
  const accept = req.get('accept') ?? '';
  if (
    single &&
    isRequest(body) &&
    accept.includes('application/json') &&
    accept.includes('text/event-stream')
  ) {
    if (body.method === 'initialize') await callers.initialize(body);
    await viaSdk(req, res, body, callers.caller);
    return;
  }
  const answers: JsonRpcAnswer[] = [];
  for (const message of single ? [body] : (body as unknown[])) {
    if (!isRequest(message)) {
      // A client's response or garbage: answer what has an id, drop the rest.
      if (!(message && typeof message === 'object' && ('result' in message || 'error' in message)))
        answers.push(invalidMessage(message));
      continue;
    }
    if (message.method === 'initialize') await callers.initialize(message);
    const answer = await dispatchPlain(message, callers.caller);
    if (!isNotification(message)) answers.push(answer);
  }
  if (!answers.length) {
    res.status(202).set(CORS).end();
    return;
  }
  sendJson(res, single ? answers[0] : answers);
}

/** The SDK's stateless transport for one message; its web Response copied to Express. */
async function viaSdk(
  req: Request,
  res: Response,
  message: JsonRpcMessage,
  caller: () => Promise<McpCaller>,
) {
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  const server = sdkServer(caller);
  try {
    await server.connect(transport);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string') headers.set(name, value);
    // The body was read here already: the SDK gets it parsed, the request carries none.
    headers.delete('content-length');
    headers.delete('transfer-encoding');
    headers.set('content-type', 'application/json');
    const answer = await transport.handleRequest(
      new Request(`http://localhost${req.path}`, { method: 'POST', headers }),
      { parsedBody: message },
    );
    res.status(answer.status).set(CORS);
    answer.headers.forEach((value, name) => res.setHeader(name, value));
    res.send(Buffer.from(await answer.arrayBuffer()));
  } finally {
    await server.close().catch(() => {});
  }
}

/**
 * The request's caller, checked once per request and counted once per call: a missing or dead
 * token is -32001, a token over its limit -32008 with when to retry.
 */
async function callerSource(req: Request, limits: RateLimits) {
  const raw = tokenOf(req);
  let found: Promise<AiTokenCaller | null> | null = null;
  const auth = () => (found ??= raw ? authenticateAiToken(raw) : Promise.resolve(null));
  const baseUrl = await publicBaseUrl({ req });
  let clientName: string | null = null;
  return {
    async initialize(message: JsonRpcMessage) {
      const info = (message.params?.clientInfo ?? {}) as { name?: unknown };
      const name = typeof info.name === 'string' ? info.name : '';
      const token = await auth();
      if (token && name) {
        clientName = name;
        await rememberAiClient(token.token, name);
      }
    },
    async caller(): Promise<McpCaller> {
      const token = await auth();
      if (!token)
        throw new McpToolError(MCP_ERRORS.TOKEN_INVALID, 'The token is invalid or has expired');
      const refusal = await consumeAiTokenCall(token.token.id, token.token.uid, limits);
      if (refusal)
        throw new McpToolError(
          MCP_ERRORS.RATE_LIMITED,
          `Too many requests, try again in ${refusal.retry_after} s`,
          refusal,
        );
      await touchAiToken(token.token);
      return {
        actor: token.actor,
        token: {
          id: token.token.id,
          name: token.token.name,
          permission: token.token.permission === 'read' ? 'read' : 'write',
          scope: token.token.scope === 'selected' ? 'selected' : 'all',
          itemIds: token.token.scope === 'selected' ? [...token.token.allowed_items] : [],
          writeDirectly: token.token.write_directly === 1,
        },
        clientName: clientName ?? token.token.client_name ?? '',
        ip: req.ip ?? '',
        baseUrl,
      };
    },
  };
}
