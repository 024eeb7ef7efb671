/**
 * Each chat preset renders the same event in its service's documented incoming-webhook format,
 * and signs the way that service documents, with fixed time and secret fixtures:
 * - Slack (api.slack.com/messaging/webhooks): `text` + Block Kit `blocks` (section/mrkdwn, context).
 * - Teams (Office 365 connector MessageCard): `@type`, `@context`, `summary`, `sections[].facts`,
 *   `potentialAction` OpenUri with `targets[{os, uri}]`.
 * - Feishu/Lark custom bot: `msg_type: "post"`, `content.post.zh_cn.{title, content[[{tag}]]}`;
 *   signed: `timestamp` (seconds, string) and `sign` = base64(HmacSHA256(key "timestamp\nsecret",
 *   empty data)).
 * - DingTalk custom robot: `msgtype: "markdown"`, `markdown.{title, text}`; signed: URL gains
 *   `timestamp` (ms) and `sign` = urlEncode(base64(HmacSHA256(key secret, "timestamp\nsecret"))).
 * - WeCom group robot: `msgtype: "markdown"`, `markdown.content` ≤ 4096 bytes.
 * - The generic body: `X-Quire-Signature: t=<s>,v1=<hex HmacSHA256(secret, "t.body")>`.
 *
 * And against the services' own example messages (test/fixtures/chat/*.json, each naming the
 * page it comes from): every field a preset sends is a field of that service's documented
 * examples, with the same JSON type, and the message-type fields carry the documented value.
 */
import { describe, expect, test } from '@jest/globals';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { renderRequest, type WebhookPayload } from '../../../models/webhooks';

const NOW_MS = 1_700_000_000_123;
const NOW_S = 1_700_000_000;
const SECRET = 'SEC0123456789abcdef';

const payload: WebhookPayload = {
  schema: 'quire.webhook/1',
  event: 'page.updated',
  item: { item_id: 7, item_name: 'Orders' },
  page: { page_id: 42, page_title: 'GET /orders', cat_id: 0 },
  actor: { uid: 3, username: 'ada', name: 'Ada' },
  digest: {
    summary: 'Ada updated page “GET /orders” in Orders (+1 −1 lines)',
    diff: { added: 1, removed: 1, lines: ['- limit: 10', '+ limit: 50'] },
  },
  links: { item: 'https://docs.example.com/7', page: 'https://docs.example.com/7/42' },
  delivered_at: '2023-11-14T22:13:20.123Z',
};

const render = (
  preset: Parameters<typeof renderRequest>[0]['preset'],
  secret = '',
  url = 'https://hooks.example.com/x',
) => renderRequest({ url, preset, secret }, payload, NOW_MS, 99);

describe('generic JSON', () => {
  test('the body is the payload; the signature is HMAC-SHA256 of "t.body" in hex', () => {
    const out = render('json', SECRET);
    expect(JSON.parse(out.body)).toEqual(payload);
    const expected = createHmac('sha256', SECRET).update(`${NOW_S}.${out.body}`).digest('hex');
    expect(out.headers['X-Quire-Signature']).toBe(`t=${NOW_S},v1=${expected}`);
    expect(out.headers['X-Quire-Event']).toBe('page.updated');
    expect(out.headers['X-Quire-Delivery']).toBe('99');
    expect(out.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('Slack', () => {
  test('text plus Block Kit blocks with mrkdwn', () => {
    const body = JSON.parse(render('slack').body);
    expect(typeof body.text).toBe('string');
    expect(body.text).toBe(payload.digest.summary);
    expect(Array.isArray(body.blocks)).toBe(true);
    for (const block of body.blocks) expect(['section', 'context']).toContain(block.type);
    expect(body.blocks[0].text).toEqual({
      type: 'mrkdwn',
      text: expect.stringContaining('<https://docs.example.com/7/42|Orders · GET /orders>'),
    });
    expect(body.blocks[1].text.text).toContain('+ limit: 50');
    expect(body.blocks.at(-1).elements[0].type).toBe('mrkdwn');
  });
});

describe('Microsoft Teams', () => {
  test('a MessageCard with facts and an OpenUri action', () => {
    const body = JSON.parse(render('teams').body);
    expect(body['@type']).toBe('MessageCard');
    expect(body['@context']).toBe('https://schema.org/extensions');
    expect(typeof body.summary).toBe('string');
    expect(body.title).toBe('Orders · GET /orders');
    expect(body.sections[0].facts).toEqual(
      expect.arrayContaining([
        { name: 'Event', value: 'page.updated' },
        { name: 'By', value: 'Ada' },
      ]),
    );
    expect(body.potentialAction[0]).toEqual({
      '@type': 'OpenUri',
      name: expect.any(String),
      targets: [{ os: 'default', uri: 'https://docs.example.com/7/42' }],
    });
  });
});

describe('Feishu / Lark', () => {
  test('a post message; unsigned without a secret', () => {
    const body = JSON.parse(render('feishu').body);
    expect(body.msg_type).toBe('post');
    expect(body).not.toHaveProperty('sign');
    const post = body.content.post.zh_cn;
    expect(post.title).toBe('Orders · GET /orders');
    for (const line of post.content) {
      expect(Array.isArray(line)).toBe(true);
      for (const node of line) expect(['text', 'a']).toContain(node.tag);
    }
    expect(post.content.at(-1)[0]).toMatchObject({
      tag: 'a',
      href: 'https://docs.example.com/7/42',
    });
  });

  test('signed: timestamp in seconds as a string, sign = base64 HMAC keyed by "timestamp\\nsecret" over nothing', () => {
    const body = JSON.parse(render('feishu', SECRET).body);
    expect(body.timestamp).toBe(String(NOW_S));
    const expected = createHmac('sha256', `${NOW_S}\n${SECRET}`).digest('base64');
    expect(body.sign).toBe(expected);
    expect(body.msg_type).toBe('post');
  });
});

describe('DingTalk', () => {
  test('markdown with title and text; unsigned URL unchanged', () => {
    const out = render('dingtalk', '', 'https://oapi.dingtalk.com/robot/send?access_token=abc');
    expect(out.url).toBe('https://oapi.dingtalk.com/robot/send?access_token=abc');
    const body = JSON.parse(out.body);
    expect(body.msgtype).toBe('markdown');
    expect(typeof body.markdown.title).toBe('string');
    expect(body.markdown.text).toContain('[Open in Quire](https://docs.example.com/7/42)');
  });

  test('signed: &timestamp=<ms>&sign=urlencoded base64 HMAC keyed by the secret', () => {
    const out = render('dingtalk', SECRET, 'https://oapi.dingtalk.com/robot/send?access_token=abc');
    const url = new URL(out.url);
    expect(url.searchParams.get('access_token')).toBe('abc');
    expect(url.searchParams.get('timestamp')).toBe(String(NOW_MS));
    const expected = createHmac('sha256', SECRET).update(`${NOW_MS}\n${SECRET}`).digest('base64');
    expect(url.searchParams.get('sign')).toBe(expected);
    // URL-encoded on the wire: base64's + / = never appear raw.
    const rawSign = /sign=([^&]+)/.exec(out.url)?.[1] ?? '';
    expect(rawSign).toBe(encodeURIComponent(expected));
  });
});

describe('WeCom', () => {
  test('markdown content within 4096 bytes, even for a huge digest', () => {
    const body = JSON.parse(render('wecom').body);
    expect(body).toEqual({ msgtype: 'markdown', markdown: { content: expect.any(String) } });
    expect(body.markdown.content).toContain('### Orders · GET /orders');
    const huge = {
      ...payload,
      digest: { ...payload.digest, summary: '汉'.repeat(3000) },
    };
    const big = JSON.parse(
      renderRequest(
        { url: 'https://qyapi.weixin.qq.com/x', preset: 'wecom', secret: '' },
        huge,
        NOW_MS,
        1,
      ).body,
    );
    expect(Buffer.byteLength(big.markdown.content)).toBeLessThanOrEqual(4096);
    expect(big.markdown.content).not.toContain('\uFFFD');
  });
});

/** `$.a.b[].c` → the JSON types seen there. */
function shape(value: unknown, at = '$', out = new Map<string, Set<string>>()) {
  const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
  if (!out.has(at)) out.set(at, new Set());
  out.get(at)!.add(type);
  if (Array.isArray(value)) for (const v of value) shape(v, `${at}[]`, out);
  else if (type === 'object')
    for (const [key, v] of Object.entries(value as object)) shape(v, `${at}.${key}`, out);
  return out;
}

function documented(service: string) {
  const file = path.join(__dirname, '../../fixtures/chat', `${service}.json`);
  const { examples } = JSON.parse(readFileSync(file, 'utf8')) as { examples: unknown[] };
  const out = new Map<string, Set<string>>();
  for (const example of examples) shape(example, '$', out);
  return { examples: examples as Array<Record<string, unknown>>, shape: out };
}

/** Paths (with their type) of `body` that no documented example has. */
function undocumented(body: unknown, docs: Map<string, Set<string>>): string[] {
  const extra: string[] = [];
  for (const [at, types] of shape(body))
    for (const type of types) if (!docs.get(at)?.has(type)) extra.push(`${at}: ${type}`);
  return extra;
}

describe("each preset against its service's documented examples", () => {
  const cases: Array<[string, Parameters<typeof render>[0], string, string]> = [
    ['slack', 'slack', '', 'https://hooks.slack.com/services/T0/B0/x'],
    ['teams', 'teams', '', 'https://example.webhook.office.com/webhookb2/x'],
    ['feishu', 'feishu', '', 'https://open.feishu.cn/open-apis/bot/v2/hook/x'],
    ['feishu', 'feishu', SECRET, 'https://open.feishu.cn/open-apis/bot/v2/hook/x'],
    ['dingtalk', 'dingtalk', SECRET, 'https://oapi.dingtalk.com/robot/send?access_token=x'],
    ['wecom', 'wecom', '', 'https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=x'],
  ];
  test.each(cases)('%s (%s, secret %p): only documented fields', (service, preset, secret, url) => {
    const docs = documented(service);
    const body = JSON.parse(render(preset, secret, url).body) as Record<string, unknown>;
    expect(undocumented(body, docs.shape)).toEqual([]);
    // The field naming the message's kind holds a value the documentation shows.
    for (const key of ['msg_type', 'msgtype', '@type']) {
      if (!(key in body)) continue;
      expect(docs.examples.map((e) => e[key])).toContain(body[key]);
    }
  });

  test('the shape check catches a field the service does not document', () => {
    const docs = documented('wecom');
    const body = JSON.parse(render('wecom').body) as Record<string, any>;
    expect(undocumented({ ...body, markdown: { text: 'x' } }, docs.shape)).toEqual([
      '$.markdown.text: string',
    ]);
  });
});
