/**
 * ai/create, the page editor's writing assistant, answers as ShowDoc's AiController does while no
 * AI key is configured: a login first (an envelope 10102), then one server-sent event carrying
 * `{"error_code":10101,"error_message":…}` as `text/event-stream`, which ShowDoc's editor reads
 * from the stream. With a key stored (`open_ai_key`) Quire still has no assistant and says so in
 * the same form.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { apiSuite } from '../helpers/apiSuite';
import { deleteSetting, setSetting } from '../../models/settings/settings';

const suite = apiSuite({ item: {} });

async function create(token: string | null) {
  const body = new URLSearchParams({ text: 'Write a changelog', item_id: String(suite.itemId) });
  if (token) body.set('user_token', token);
  const response = await fetch(`${suite.server.url}/api/ai/create`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: body.toString(),
  });
  return { response, text: await response.text() };
}

function events(text: string): unknown[] {
  expect(text.endsWith('\n\n')).toBe(true);
  return text
    .trim()
    .split('\n\n')
    .map((block) => {
      expect(block.startsWith('data: ')).toBe(true);
      return JSON.parse(block.slice('data: '.length)) as unknown;
    });
}

afterEach(async () => {
  await deleteSetting('open_ai_key');
});

describe('ai/create', () => {
  test('without a login: the envelope answer 10102, not a stream', async () => {
    const { response, text } = await create(null);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(JSON.parse(text)).toMatchObject({ error_code: 10102 });
  });

  test('no AI key configured: one SSE event with error 10101 saying the key is missing', async () => {
    const { response, text } = await create(suite.owner.user_token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-cache');
    expect(events(text)).toEqual([
      {
        error_code: 10101,
        error_message: expect.stringContaining('has not configured an AI assistant key'),
      },
    ]);
  });

  test('with a key stored the assistant is still refused, in the same stream form', async () => {
    await setSetting('open_ai_key', 'sk-test-key');
    const { response, text } = await create(suite.reader.user_token);
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(events(text)).toEqual([
      { error_code: 10101, error_message: 'The AI assistant is not available in this version yet' },
    ]);
    expect(text).not.toContain('sk-test-key');
  });
});
