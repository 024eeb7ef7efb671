/**
 * A scripted OpenAI-compatible `/v1/chat/completions` (127.0.0.1, ephemeral port) for the "Ask the
 * docs" tests: each request takes the next step of the script — a function of what the request
 * carried — that streams tool calls or text as `chat.completion.chunk` events, the way OpenAI's
 * streaming API sends them. It records every request as it arrived (raw body and headers) and
 * which answers the client cut off (an aborted stream).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubMessage {
  role: string;
  content: string | null;
  tool_calls?: { id: string; function: { name: string; arguments: string } }[];
  tool_call_id?: string;
}

export interface AgentStubRequest {
  authorization: string;
  raw: string;
  body: { model: string; max_tokens?: number; tools?: unknown[]; messages: StubMessage[] };
}

export type StubReply =
  | { tools: { name: string; args: Record<string, unknown> }[] }
  | { text: string[]; delayMs?: number };

export type StubStep = (request: AgentStubRequest) => StubReply;

export interface AgentStub {
  url: string;
  requests: AgentStubRequest[];
  /** Answers cut off by the client before their end. */
  aborted: number;
  /** Replaces the steps still to come. */
  script(steps: StubStep[]): void;
  close(): Promise<void>;
}

/** The tool results of a request, in order (what the "model" was shown). */
export function toolResults(request: AgentStubRequest): string[] {
  return request.body.messages.filter((m) => m.role === 'tool').map((m) => m.content ?? '');
}

export async function startAgentStub(): Promise<AgentStub> {
  let steps: StubStep[] = [];
  const stub: AgentStub = {
    url: '',
    requests: [],
    aborted: 0,
    script(next) {
      steps = [...next];
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404).end();
        return;
      }
      const request: AgentStubRequest = {
        authorization: req.headers.authorization ?? '',
        raw,
        body: JSON.parse(raw) as AgentStubRequest['body'],
      };
      stub.requests.push(request);
      const step = steps.shift();
      const reply: StubReply = step ? step(request) : { text: ['(no script)'] };
      void stream(res, request.body.model, reply).catch(() => undefined);
    });
  });
  async function stream(res: http.ServerResponse, model: string, reply: StubReply) {
    let closed = false;
    res.on('close', () => {
      if (!res.writableFinished) {
        closed = true;
        stub.aborted++;
      }
    });
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (delta: object, finish: string | null) =>
      `data: ${JSON.stringify({
        id: 'chatcmpl-stub',
        object: 'chat.completion.chunk',
        created: 1,
        model,
        choices: [{ index: 0, delta, finish_reason: finish }],
      })}\n\n`;
    res.write(chunk({ role: 'assistant', content: '' }, null));
    if ('tools' in reply) {
      reply.tools.forEach((call, index) => {
        const args = JSON.stringify(call.args);
        const half = Math.floor(args.length / 2);
        res.write(
          chunk(
            {
              tool_calls: [
                {
                  index,
                  id: `call_${index}_${call.name}`,
                  type: 'function',
                  function: { name: call.name, arguments: args.slice(0, half) },
                },
              ],
            },
            null,
          ),
        );
        res.write(
          chunk({ tool_calls: [{ index, function: { arguments: args.slice(half) } }] }, null),
        );
      });
      res.write(chunk({}, 'tool_calls'));
    } else {
      for (const piece of reply.text) {
        if (closed) return;
        if (reply.delayMs) await new Promise((r) => setTimeout(r, reply.delayMs));
        if (closed) return;
        res.write(chunk({ content: piece }, null));
      }
      res.write(chunk({}, 'stop'));
    }
    res.end('data: [DONE]\n\n');
  }
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  stub.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return stub;
}
