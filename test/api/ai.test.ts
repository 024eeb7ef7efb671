/**
 * ai/create, the page editor's writing assistant, against a local OpenAI-compatible stub: a
 * login first (an envelope 10102), then a server-sent-event stream in ShowDoc's form — the
 * service's own `chat.completion.chunk` events and `[DONE]`, or one
 * `{"error_code":…,"error_message":…}` event for a refusal or a failure. The admin's key reaches
 * the service and nothing else (not the answer, not the log).
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { type AiStub, startAiStub } from '../helpers/assistantServers';
import { makeUser } from '../helpers/users';
import { deleteSetting, setSettings } from '../../models/settings/settings';
import { configureAddressPolicy } from '../../models/platform';

// The stub listens on loopback: the address policy must name it (ALLOW_PRIVATE_HOSTS).
const suite = apiSuite({ env: { LOG_LEVEL: 'info', ALLOW_PRIVATE_HOSTS: '127.0.0.1' } });
const KEY = 'sk-quire-test-secret-0123456789';
let stub: AiStub;

beforeAll(async () => {
  stub = await startAiStub();
});
afterAll(async () => {
  await stub.close();
});
afterEach(async () => {
  for (const name of ['open_ai_key', 'open_ai_host', 'ai_model_name', 'ai_max_message_length'])
    await deleteSetting(name);
});

async function configure(extra: Record<string, string> = {}) {
  await setSettings({ open_ai_key: KEY, open_ai_host: stub.url, ...extra });
}

async function create(token: string | null, content: string) {
  const body = new URLSearchParams({ content });
  if (token) body.set('user_token', token);
  const response = await fetch(`${suite.server.url}/api/ai/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  return { response, text: await response.text() };
}

/** The `data:` payloads of a stream, JSON-decoded except `[DONE]`. */
function events(text: string): unknown[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      const data = block.slice('data: '.length);
      return data === '[DONE]' ? data : (JSON.parse(data) as unknown);
    });
}

/** What ShowDoc's editor shows: the concatenated `choices[0].delta.content`. */
function answerText(list: unknown[]): string {
  return list
    .map(
      (e) => (e as { choices?: { delta?: { content?: string } }[] }).choices?.[0]?.delta?.content,
    )
    .filter((piece): piece is string => typeof piece === 'string')
    .join('');
}

describe('ai/create', () => {
  test('without a login: the envelope answer 10102, not a stream', async () => {
    const { response, text } = await create(null, 'Write a changelog');
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(text)).toMatchObject({ error_code: 10102 });
  });

  test('no AI key configured: one SSE event with error 10101 saying the key is missing', async () => {
    const { response, text } = await create(suite.owner.user_token, 'Write a changelog');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(events(text)).toEqual([
      {
        error_code: 10101,
        error_message: expect.stringContaining('has not configured an AI assistant key'),
      },
    ]);
    expect(stub.requests).toHaveLength(0);
  });

  test('streams the service answer as chunk events ending with [DONE]', async () => {
    await configure({ ai_model_name: 'stub-model' });
    stub.answer({ pieces: ['## 用户注册', '\n\n- POST `/api/user/register`'] });
    const { response, text } = await create(suite.editor.user_token, '写一个用户注册接口文档');
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    const list = events(text);
    expect(list[list.length - 1]).toBe('[DONE]');
    expect(answerText(list)).toBe('## 用户注册\n\n- POST `/api/user/register`');
    expect(list[list.length - 2]).toMatchObject({ choices: [{ finish_reason: 'stop' }] });

    const sent = stub.requests[stub.requests.length - 1];
    expect(sent.authorization).toBe(`Bearer ${KEY}`);
    expect(sent.body.model).toBe('stub-model');
    expect(sent.body.stream).toBe(true);
    expect(sent.body.messages[0].role).toBe('system');
    expect(sent.body.messages[1]).toEqual({ role: 'user', content: '写一个用户注册接口文档' });
  });

  test("ShowDoc's older setting names (open_api_key, open_api_host) work too", async () => {
    await setSettings({ open_api_key: KEY, open_api_host: stub.url });
    try {
      stub.answer({ pieces: ['ok'] });
      const { text } = await create(suite.owner.user_token, 'hi');
      expect(answerText(events(text))).toBe('ok');
    } finally {
      await deleteSetting('open_api_key');
      await deleteSetting('open_api_host');
    }
  });

  test('a service error arrives as one error event, without the key it quoted', async () => {
    await configure();
    stub.answer({ status: 401, message: `Incorrect API key provided: ${KEY}.` });
    const { text } = await create(suite.owner.user_token, 'Write a changelog');
    const list = events(text);
    expect(list).toEqual([
      {
        error_code: 10101,
        error_message: expect.stringContaining('The AI service refused the request'),
      },
    ]);
    expect(text).not.toContain(KEY);
    expect(suite.server.logText()).not.toContain(KEY);
  });

  test('an unreachable service: a clear error event', async () => {
    await setSettings({ open_ai_key: KEY, open_ai_host: 'http://127.0.0.1:9' });
    const { text } = await create(suite.owner.user_token, 'Write a changelog');
    expect(events(text)).toEqual([
      { error_code: 10101, error_message: expect.stringContaining('Cannot reach the AI service') },
    ]);
  });

  test('a service on loopback not on the allow-list is not asked: one error event saying why', async () => {
    await configure();
    const asked = stub.requests.length;
    configureAddressPolicy([]);
    try {
      const { text } = await create(suite.owner.user_token, 'Write a changelog');
      expect(events(text)).toEqual([
        {
          error_code: 10101,
          error_message: expect.stringContaining('private address this site may not connect to'),
        },
      ]);
    } finally {
      configureAddressPolicy(['127.0.0.1']);
    }
    expect(stub.requests.length).toBe(asked);
  });

  test('empty or over-long requests are refused before the service is asked', async () => {
    await configure({ ai_max_message_length: '20' });
    const before = stub.requests.length;
    const empty = await create(suite.owner.user_token, '   ');
    expect(events(empty.text)).toEqual([
      { error_code: 10101, error_message: 'Content cannot be empty' },
    ]);
    const long = await create(suite.owner.user_token, 'x'.repeat(21));
    expect(events(long.text)).toEqual([
      {
        error_code: 10101,
        error_message: 'The request is too long: at most 20 characters',
      },
    ]);
    expect(stub.requests.length).toBe(before);
  });

  test('a user is limited to 20 answers a minute; others are not affected', async () => {
    await configure();
    stub.answer({ pieces: ['ok'] });
    const busy = await makeUser();
    for (let i = 0; i < 20; i += 1) {
      const { text } = await create(busy.user_token, `request ${i}`);
      expect(answerText(events(text))).toBe('ok');
    }
    const over = await create(busy.user_token, 'one more');
    expect(events(over.text)).toEqual([
      { error_code: 10100, error_message: expect.stringMatching(/^Too many requests/) },
    ]);
    const other = await create(suite.reader.user_token, 'hi');
    expect(answerText(events(other.text))).toBe('ok');
  });
});
