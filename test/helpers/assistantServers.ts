/**
 * Local servers the assistants' tests talk to (127.0.0.1, ephemeral ports):
 * - `startAiStub()`: an OpenAI-compatible `/v1/chat/completions` that streams a given answer as
 *   `chat.completion.chunk` events, or answers an error the way OpenAI does, and records what it
 *   was sent (to check the key, model and prompt arrived);
 * - `startHttpTarget()`: the HTTP test tool's target: echoes requests, redirects, sends big or
 *   CORS-enabled answers.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface AiStubRequest {
  authorization: string;
  body: {
    model: string;
    stream: boolean;
    messages: { role: string; content: string }[];
  };
}

export interface AiStub {
  /** `http://127.0.0.1:<port>` (what the admin stores as `open_ai_host`). */
  url: string;
  requests: AiStubRequest[];
  /** The next answers: text pieces streamed in order, or an error status and message. */
  answer(reply: { pieces: string[] } | { status: number; message: string }): void;
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<string> {
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    );
  });
}

function close(server: http.Server): Promise<void> {
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

export async function startAiStub(): Promise<AiStub> {
  let reply: { pieces: string[] } | { status: number; message: string } = { pieces: ['Hello'] };
  const requests: AiStubRequest[] = [];
  const server = http.createServer(async (req, res) => {
    const text = await readBody(req);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
      return;
    }
    requests.push({
      authorization: req.headers.authorization ?? '',
      body: JSON.parse(text) as AiStubRequest['body'],
    });
    if ('status' in reply) {
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          error: { message: reply.message, type: 'invalid_request_error', code: null },
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const model = (JSON.parse(text) as { model: string }).model;
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-stub',
        object: 'chat.completion.chunk',
        created: 1,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    for (const piece of reply.pieces) res.write(chunk({ content: piece }, null));
    res.write(chunk({}, 'stop'));
    res.end('data: [DONE]\n\n');
  });
  const url = await listen(server);
  return {
    url,
    requests,
    answer(next) {
      reply = next;
    },
    close: () => close(server),
  };
}

export interface HttpTarget {
  url: string;
  /** Requests seen at /echo (and /cors/echo), newest last. */
  seen: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[];
  close(): Promise<void>;
}

/**
 * Routes: `/echo` (JSON of method, path, query, headers and body), `/cors/echo` (the same, with
 * `Access-Control-Allow-Origin: *`, preflights answered), `/redirect?to=<url>&status=302`,
 * `/big?bytes=<n>` (n bytes of text), `/binary` (a few PNG bytes).
 */
export async function startHttpTarget(): Promise<HttpTarget> {
  const seen: HttpTarget['seen'] = [];
  const server = http.createServer(async (req, res) => {
    const body = await readBody(req);
    const url = new URL(req.url ?? '/', 'http://target');
    const cors = url.pathname.startsWith('/cors/');
    if (cors) {
      res.setHeader('Access-Control-Allow-Origin', '*');
      res.setHeader('Access-Control-Allow-Headers', '*');
      res.setHeader('Access-Control-Allow-Methods', '*');
      res.setHeader('Access-Control-Expose-Headers', 'X-Target');
      if (req.method === 'OPTIONS') {
        res.writeHead(204).end();
        return;
      }
    }
    const route = cors ? url.pathname.slice('/cors'.length) : url.pathname;
    if (route === '/echo') {
      seen.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.writeHead(201, { 'content-type': 'application/json', 'x-target': 'echo' });
      res.end(
        JSON.stringify({
          method: req.method,
          path: url.pathname,
          query: Object.fromEntries(url.searchParams),
          headers: req.headers,
          body,
        }),
      );
      return;
    }
    if (route === '/redirect') {
      res.writeHead(Number(url.searchParams.get('status') ?? 302), {
        location: url.searchParams.get('to') ?? '/echo',
      });
      res.end();
      return;
    }
    if (route === '/big') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('x'.repeat(Number(url.searchParams.get('bytes') ?? 10)));
      return;
    }
    if (route === '/binary') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
      return;
    }
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('not found');
  });
  const url = await listen(server);
  return { url, seen, close: () => close(server) };
}
