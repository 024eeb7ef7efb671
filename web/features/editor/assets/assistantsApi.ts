/**
 * The editor assistants' calls: `ai/create` read as the server-sent-event stream ShowDoc streams
 * (chunks of `choices[0].delta.content`, `[DONE]`, or one `{error_code, error_message}` event),
 * and the HTTP test tool's two ways to send — from the browser when the target's CORS allows it,
 * else through the server relay `httpRelay/send`.
 */
import { createParser } from 'eventsource-parser';
import type { Output } from '../../../../api/contracts';
import { getToken } from '../../../auth/storage';
import { encodeForm, request } from '../../../api/request';
import type { ItemInfo } from '../../reader/types';
import { type GlobalParams, relayOnly, type Sendable } from './httpTestRequest';

/** A failure the dialog shows as it is (the server's or the service's own words). */
export class AssistantError extends Error {
  constructor(
    message: string,
    readonly code: number,
  ) {
    super(message);
    this.name = 'AssistantError';
  }
}

interface StreamEvent {
  error_code?: number;
  error_message?: string;
  /** ShowDoc's form for an error the AI service sent. */
  error?: { message?: string } | string;
  choices?: { delta?: { content?: string | null }; finish_reason?: string | null }[];
}

/**
 * Streams the assistant's answer: `onText` gets the whole text so far after every piece.
 * Resolves when the stream ends; rejects with AssistantError on a refusal or failure.
 */
export async function streamAiAnswer(
  content: string,
  onText: (text: string) => void,
  signal: AbortSignal,
): Promise<string> {
  const response = await fetch('/api/ai/create', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: encodeForm({ content, user_token: getToken() }),
    credentials: 'same-origin',
    signal,
  });
  // Before the stream starts the server answers an envelope (not logged in).
  if (!(response.headers.get('content-type') ?? '').startsWith('text/event-stream')) {
    const envelope = (await response.json().catch(() => ({}))) as StreamEvent;
    throw new AssistantError(envelope.error_message ?? `HTTP ${response.status}`, -1);
  }
  let answer = '';
  let failure: AssistantError | null = null;
  const parser = createParser({
    onEvent(event) {
      if (event.data === '[DONE]' || failure) return;
      let data: StreamEvent;
      try {
        data = JSON.parse(event.data) as StreamEvent;
      } catch {
        return;
      }
      if (data.error_code) failure = new AssistantError(data.error_message ?? '', data.error_code);
      else if (data.error)
        failure = new AssistantError(
          typeof data.error === 'string' ? data.error : (data.error.message ?? ''),
          10101,
        );
      const piece = data.choices?.[0]?.delta?.content;
      if (piece) {
        answer += piece;
        onText(answer);
      }
    },
  });
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    parser.feed(value);
  }
  if (failure) throw failure;
  return answer;
}

/** The item's RunApi global parameters (`item/info` global_param), or null when it has none. */
export async function itemGlobalParams(itemId: number): Promise<GlobalParams | null> {
  const info = await request<ItemInfo>('item/info', { item_id: itemId }, { alert: false });
  const global = (info as { global_param?: unknown }).global_param;
  return global && typeof global === 'object' && !Array.isArray(global)
    ? (global as GlobalParams)
    : null;
}

export type RelayAnswer = Output<'httprelay', 'send'>;

export interface HttpTestAnswer {
  status: number;
  statusText: string;
  headers: [string, string][];
  body: string;
  binary: boolean;
  size: number;
  truncated: boolean;
  durationMs: number;
  url: string;
  via: 'browser' | 'relay';
}

async function fromBrowser(request: Sendable, signal: AbortSignal): Promise<HttpTestAnswer> {
  const started = performance.now();
  const response = await fetch(request.url, {
    method: request.method,
    headers: request.headers,
    body: request.body === '' ? undefined : request.body,
    mode: 'cors',
    credentials: 'omit',
    signal,
  });
  const body = await response.text();
  return {
    status: response.status,
    statusText: response.statusText,
    headers: [...response.headers.entries()],
    body,
    binary: false,
    size: new Blob([body]).size,
    truncated: false,
    durationMs: Math.round(performance.now() - started),
    url: response.url || request.url,
    via: 'browser',
  };
}

async function fromRelay(request: Sendable): Promise<HttpTestAnswer> {
  try {
    const answer = await request_(request);
    return {
      status: answer.status,
      statusText: answer.status_text,
      headers: answer.headers,
      body: answer.body,
      binary: answer.binary === 1,
      size: answer.size,
      truncated: answer.truncated === 1,
      durationMs: answer.duration_ms,
      url: answer.url,
      via: 'relay',
    };
  } catch (error) {
    const { message, code } = error as { message: string; code?: number };
    throw new AssistantError(message, code ?? -1);
  }
}

const request_ = (sendable: Sendable) =>
  request<RelayAnswer>(
    'httpRelay/send',
    {
      method: sendable.method,
      url: sendable.url,
      headers: JSON.stringify(sendable.headers),
      body: sendable.body,
    },
    { alert: false },
  );

/**
 * Sends from the browser first; a target the browser may not read (CORS, mixed content, a
 * network error) is tried again through the relay. A POST the browser would send unasked goes
 * through the relay only (relayOnly), so it never runs twice.
 */
export async function sendHttpTest(
  request: Sendable,
  signal: AbortSignal,
): Promise<HttpTestAnswer> {
  if (!relayOnly(request)) {
    try {
      return await fromBrowser(request, signal);
    } catch (error) {
      if (signal.aborted) throw error;
      // A TypeError: the browser refused to show the answer (or never got one).
    }
  }
  return fromRelay(request);
}
