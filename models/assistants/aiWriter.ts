/**
 * The page editor's AI writing assistant (`ai/create`, spec 001 §2 and §7): the user's request
 * goes to the OpenAI-compatible chat endpoint the admin configured (`open_ai_host`, `open_ai_key`,
 * `ai_model_name`; ShowDoc's `open_api_*` names too) and the answer streams back as ShowDoc's
 * AiController streams it: server-sent events carrying the service's own `chat.completion.chunk`
 * objects, then `[DONE]`. Refusals and failures travel in the same stream as one
 * `{"error_code":…,"error_message":…}` event, since ShowDoc's editor reads only the stream.
 *
 * The key goes to the HTTP client and nowhere else: the client's logging is off, and a message
 * the service sends back has the key cut out before the browser sees it.
 */
import type OpenAIClient from 'openai';
import { type Actor } from '../access';
import { errors, isAddressRefusal, isApiError, policyFetch, throttle } from '../platform';
import { type AiService, getAiService } from '../settings';

const AI_KEY_MISSING =
  'The administrator has not configured an AI assistant key in the back office, so AI features are unavailable. Please contact the administrator';
const TIMEOUT_MS = 120_000;
/** Used when the admin set no `ai_system_prompt`. */
const DEFAULT_SYSTEM_PROMPT =
  'You are the writing assistant of a documentation tool. You help users write documents, ' +
  'API descriptions, code and other text faster. Answer in Markdown that can be pasted into a ' +
  'page as it is, in the language the user writes in. If the request is unclear, explain ' +
  'briefly how to ask (for example: "write an API document for a user registration endpoint").';

/** Where the events go: the route writes them as `data: …` lines. */
export interface EventSink {
  /** One event: objects are sent as JSON, strings as they are (`[DONE]`). */
  send(data: unknown): void;
  /** Aborted when the client has gone away: the service call is cancelled with it. */
  readonly signal: AbortSignal;
}

export interface StreamError {
  error_code: number;
  error_message: string;
}

function streamError(code: number, message: string): StreamError {
  return { error_code: code, error_message: message };
}

/** A message from the service, without the key should it quote it. */
function redacted(text: string, key: string): string {
  return key ? text.split(key).join('***') : text;
}

function failureOf(error: unknown, service: AiService, OpenAI: typeof OpenAIClient): StreamError {
  // The client wraps what its fetch threw: a refusal of the address policy is said as such.
  const cause = (error as { cause?: unknown })?.cause;
  if (isAddressRefusal(error) || isAddressRefusal(cause))
    return streamError(
      10101,
      'The AI service is on a private address this site may not connect to (ALLOW_PRIVATE_HOSTS). Please contact the administrator',
    );
  if (error instanceof OpenAI.APIConnectionTimeoutError)
    return streamError(10005, `The AI service did not answer within ${TIMEOUT_MS / 1000} s`);
  if (error instanceof OpenAI.APIConnectionError)
    return streamError(10101, 'Cannot reach the AI service, please contact the administrator');
  if (error instanceof OpenAI.APIError) {
    const detail = redacted(String(error.message ?? ''), service.key).slice(0, 500);
    return streamError(10101, `The AI service refused the request: ${detail}`);
  }
  return streamError(10101, 'The AI service failed to answer');
}

/** Refusals before the service is asked: no key, nothing asked, too long, too often. */
async function refusal(
  actor: Actor,
  content: string,
  service: AiService | null,
): Promise<StreamError | null> {
  if (!service) return streamError(10101, AI_KEY_MISSING);
  if (content.trim() === '') return streamError(10101, 'Content cannot be empty');
  if (content.length > service.maxMessageLength)
    return streamError(
      10101,
      `The request is too long: at most ${service.maxMessageLength} characters`,
    );
  try {
    await throttle('aiCreate', String(actor.uid));
  } catch (error) {
    if (isApiError(error)) return streamError(error.code, error.message);
    throw error;
  }
  return null;
}

/**
 * A client of the admin's OpenAI-compatible service (the writing help and the assistant use the
 * same one). The library loads with the first question, not when a process starts.
 */
export async function openAiClient(service: AiService, timeoutMs: number): Promise<OpenAIClient> {
  const { default: OpenAI } = await import('openai');
  return new OpenAI({
    apiKey: service.key,
    baseURL: `${service.host}/v1`,
    maxRetries: 0,
    timeout: timeoutMs,
    logLevel: 'off',
    // Only the admin's settings count, never OPENAI_* variables of the server's environment.
    organization: null,
    project: null,
    webhookSecret: null,
    // Every connection passes the address policy and goes to the address it checked.
    fetch: policyFetch,
  });
}

/** ai/create: streams the answer to `content` into `sink`. */
export async function writeAiAnswer(actor: Actor, content: string, sink: EventSink) {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const service = await getAiService();
  const refused = await refusal(actor, content, service);
  if (refused || !service) {
    sink.send(refused);
    return;
  }
  const client = await openAiClient(service, TIMEOUT_MS);
  try {
    const stream = await client.chat.completions.create(
      {
        model: service.model,
        stream: true,
        messages: [
          { role: 'system', content: service.systemPrompt || DEFAULT_SYSTEM_PROMPT },
          { role: 'user', content },
        ],
      },
      { signal: sink.signal },
    );
    for await (const chunk of stream) sink.send(chunk);
    sink.send('[DONE]');
  } catch (error) {
    if (sink.signal.aborted) return;
    // The library is loaded by now (the client came from it): its error classes name the failure.
    sink.send(failureOf(error, service, (await import('openai')).default));
  }
}
