/**
 * One delivery, rendered for its hook's preset: the generic JSON body signed with Quire's
 * header, or the message format of a chat service's incoming webhook with that service's own
 * signing. Pure functions of (hook, payload, time): the queue sends what they return, the tests
 * compare it with the services' documentation.
 *
 * - json: `X-Quire-Signature: t=<unix s>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`.
 * - Slack: `{text, blocks}` (Block Kit section + context, mrkdwn links `<url|text>`).
 * - Microsoft Teams: a legacy-connector MessageCard (`@type`, `@context`, `summary`, sections,
 *   an OpenUri action), which Teams' incoming webhooks and Workflows both accept.
 * - Feishu/Lark: `{msg_type: "post", content: {post: {zh_cn: {title, content}}}}`; with a secret,
 *   `timestamp` (unix s, string) and `sign` = base64(HMAC-SHA256(key "<timestamp>\n<secret>",
 *   empty message)) in the body.
 * - DingTalk: `{msgtype: "markdown", markdown: {title, text}}`; with a secret, `&timestamp=<ms>&sign=`
 *   urlencode(base64(HMAC-SHA256(key secret, "<timestamp>\n<secret>"))) on the URL.
 * - WeCom: `{msgtype: "markdown", markdown: {content}}` (at most 4,096 bytes of content).
 */
import { createHmac } from 'node:crypto';
import type { WebhookPayload } from './payload';
import type { Preset } from './schemas';

export const SIGNATURE_HEADER = 'X-Quire-Signature';
/** Receivers should refuse a signature whose `t` is further than this from their clock. */
export const REPLAY_WINDOW_SECONDS = 300;
/** WeCom refuses markdown content longer than this (bytes). */
export const WECOM_MAX_BYTES = 4096;
/** Diff lines quoted in a chat message. */
const CHAT_DIFF_LINES = 10;

export interface OutgoingRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
}

export interface RenderTarget {
  url: string;
  preset: Preset;
  secret: string;
}

/** `t=<unix>,v1=<hex>` for a body sent at `unixSeconds`. */
export function quireSignature(secret: string, unixSeconds: number, body: string): string {
  const mac = createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex');
  return `t=${unixSeconds},v1=${mac}`;
}

/** Feishu/Lark: the key is "timestamp\nsecret", the message empty (their documented quirk). */
export function feishuSign(secret: string, timestampSeconds: number): string {
  return createHmac('sha256', `${timestampSeconds}\n${secret}`).update('').digest('base64');
}

/** DingTalk: keyed by the secret over "timestamp\nsecret" (timestamp in ms), base64. */
export function dingtalkSign(secret: string, timestampMs: number): string {
  return createHmac('sha256', secret).update(`${timestampMs}\n${secret}`).digest('base64');
}

function title(p: WebhookPayload): string {
  return p.page ? `${p.item.item_name} · ${p.page.page_title}` : p.item.item_name;
}

function link(p: WebhookPayload): string {
  return p.links.page ?? p.links.item;
}

function diffLines(p: WebhookPayload): string[] {
  return p.digest.diff?.lines.slice(0, CHAT_DIFF_LINES) ?? [];
}

function json(headers: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json; charset=utf-8', ...headers };
}

function slack(p: WebhookPayload) {
  const lines = diffLines(p);
  const blocks: unknown[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `*<${link(p)}|${title(p)}>*\n${p.digest.summary}` },
    },
  ];
  if (lines.length)
    blocks.push({
      type: 'section',
      text: { type: 'mrkdwn', text: '```' + lines.join('\n') + '```' },
    });
  blocks.push({
    type: 'context',
    elements: [{ type: 'mrkdwn', text: `Quire · ${p.event}` }],
  });
  return { text: p.digest.summary, blocks };
}

function teams(p: WebhookPayload) {
  const facts: Array<{ name: string; value: string }> = [{ name: 'Event', value: p.event }];
  if (p.actor) facts.push({ name: 'By', value: p.actor.name || p.actor.username });
  if (p.digest.diff)
    facts.push({ name: 'Lines', value: `+${p.digest.diff.added} −${p.digest.diff.removed}` });
  return {
    '@type': 'MessageCard',
    '@context': 'https://schema.org/extensions',
    summary: p.digest.summary,
    themeColor: '1677FF',
    title: title(p),
    text: p.digest.summary,
    sections: [{ activityTitle: p.item.item_name, facts, markdown: true }],
    potentialAction: [
      { '@type': 'OpenUri', name: 'Open in Quire', targets: [{ os: 'default', uri: link(p) }] },
    ],
  };
}

function feishu(p: WebhookPayload) {
  const content: unknown[][] = [
    [{ tag: 'text', text: p.digest.summary }],
    ...diffLines(p).map((line) => [{ tag: 'text', text: line }]),
    [{ tag: 'a', text: 'Open in Quire', href: link(p) }],
  ];
  return { msg_type: 'post', content: { post: { zh_cn: { title: title(p), content } } } };
}

function markdownText(p: WebhookPayload): string {
  const lines = diffLines(p);
  return [
    `### ${title(p)}`,
    p.digest.summary,
    ...(lines.length ? ['', ...lines.map((l) => `> ${l}`)] : []),
    '',
    `[Open in Quire](${link(p)})`,
  ].join('\n');
}

function clipBytes(text: string, max: number): string {
  if (Buffer.byteLength(text) <= max) return text;
  let out = Buffer.from(text)
    .subarray(0, max - 3)
    .toString('utf8');
  // A cut through a multi-byte character leaves U+FFFD at the end.
  out = out.replace(/\uFFFD+$/, '');
  return `${out}...`;
}

/** The request one attempt sends. `nowMs` is the attempt's time; `deliveryId` names it. */
export function renderRequest(
  target: RenderTarget,
  payload: WebhookPayload,
  nowMs: number,
  deliveryId: number,
): OutgoingRequest {
  const seconds = Math.floor(nowMs / 1000);
  switch (target.preset) {
    case 'slack':
      return { url: target.url, headers: json(), body: JSON.stringify(slack(payload)) };
    case 'teams':
      return { url: target.url, headers: json(), body: JSON.stringify(teams(payload)) };
    case 'feishu': {
      const body = target.secret
        ? {
            timestamp: String(seconds),
            sign: feishuSign(target.secret, seconds),
            ...feishu(payload),
          }
        : feishu(payload);
      return { url: target.url, headers: json(), body: JSON.stringify(body) };
    }
    case 'dingtalk': {
      const text = markdownText(payload);
      const body = JSON.stringify({
        msgtype: 'markdown',
        markdown: { title: title(payload), text },
      });
      if (!target.secret) return { url: target.url, headers: json(), body };
      const sign = encodeURIComponent(dingtalkSign(target.secret, nowMs));
      const joiner = target.url.includes('?') ? '&' : '?';
      return {
        url: `${target.url}${joiner}timestamp=${nowMs}&sign=${sign}`,
        headers: json(),
        body,
      };
    }
    case 'wecom':
      return {
        url: target.url,
        headers: json(),
        body: JSON.stringify({
          msgtype: 'markdown',
          markdown: { content: clipBytes(markdownText(payload), WECOM_MAX_BYTES) },
        }),
      };
    default: {
      const body = JSON.stringify(payload);
      const headers: Record<string, string> = {
        'X-Quire-Event': payload.event,
        'X-Quire-Delivery': String(deliveryId),
      };
      if (target.secret) headers[SIGNATURE_HEADER] = quireSignature(target.secret, seconds, body);
      return { url: target.url, headers: json(headers), body };
    }
  }
}
