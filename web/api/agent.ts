/**
 * "Ask the docs" (`agent/*`): the item assistant's sessions and its streamed answers. A visitor
 * who is not logged in is known by a random id kept in this browser (`guest_token`).
 */
import type { Output } from '../../api/contracts';
import { getToken } from '../auth/storage';
import { authorizedForm, request } from './request';

const GUEST_KEY = 'quire_ask_guest';

function guestToken(): string | undefined {
  if (getToken()) return undefined;
  try {
    let token = localStorage.getItem(GUEST_KEY);
    if (!token) {
      const bytes = new Uint8Array(16);
      crypto.getRandomValues(bytes);
      token = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
      localStorage.setItem(GUEST_KEY, token);
    }
    return token;
  } catch {
    return undefined;
  }
}

const quiet = { alert: false, redirect: false, manager: false } as const;

export type AgentConfig = Output<'agent', 'config'>;
export type LoadedSession = Output<'agent', 'sessionLoad'>;
export type AgentMessage = LoadedSession['messages'][number];
export type Citation = AgentMessage['citations'][number];

export const agentConfig = (itemId: number) =>
  request<AgentConfig>('agent/config', { item_id: itemId, guest_token: guestToken() }, quiet);

export const loadSession = (itemId: number, sessionId = 0) =>
  request<LoadedSession>(
    'agent/sessionLoad',
    { item_id: itemId, session_id: sessionId || undefined, guest_token: guestToken() },
    quiet,
  );

export const newSession = (itemId: number) =>
  request<{ session_id: number }>(
    'agent/sessionNew',
    { item_id: itemId, guest_token: guestToken() },
    quiet,
  );

export const sendFeedback = (msgId: number, feedback: 0 | 1 | 2) =>
  request<unknown>('agent/feedback', { msg_id: msgId, feedback, guest_token: guestToken() }, quiet);

export const cancelAnswer = (sessionId: number, turnToken: string) =>
  request<unknown>(
    'agent/agentCancel',
    { session_id: sessionId, turn_token: turnToken, guest_token: guestToken() },
    quiet,
  );

/** One event of the answer stream (ShowDoc's, plus Quire's `citations`). */
export type AnswerEvent =
  | { type: 'text'; content: string }
  | { type: 'status'; content: string }
  | {
      type: 'ref';
      kind: string;
      page_id: number;
      page_title: string;
      item_id: number;
      /** A page read but not named inline (listed from `citations` instead). */
      source?: boolean;
    }
  | { type: 'citations'; citations: (Citation & { url: string })[] }
  | { type: 'message_id'; content: string }
  | { type: 'error'; code?: string; message: string };

export interface AskInput {
  itemId: number;
  sessionId: number;
  message: string;
  turnToken: string;
  signal: AbortSignal;
  onEvent: (event: AnswerEvent) => void;
}

/** Asks and reads the stream; rejects with the server's message when it refused before it. */
export async function askQuestion(input: AskInput): Promise<void> {
  const response = await fetch('/api/agent/agent', {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'text/event-stream' },
    body: authorizedForm({
      item_id: input.itemId,
      session_id: input.sessionId,
      message: input.message,
      turn_token: input.turnToken,
      guest_token: guestToken(),
    }),
    signal: input.signal,
    credentials: 'same-origin',
  });
  if (!(response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const envelope = (await response.json().catch(() => ({}))) as { error_message?: string };
    throw new Error(envelope.error_message || `HTTP ${response.status}`);
  }
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    const blocks = buffer.split('\n\n');
    buffer = blocks.pop() ?? '';
    for (const block of blocks) {
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice(5).trimStart())
        .join('\n');
      if (!data) continue;
      if (data === '[DONE]') return;
      try {
        input.onEvent(JSON.parse(data) as AnswerEvent);
      } catch {
        // a malformed event is skipped; the rest of the answer still arrives
      }
    }
  }
}
