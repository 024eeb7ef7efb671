/**
 * The delivery queue: rows of `webhook_delivery` due now are claimed (pending → sending, with a
 * lease) and sent, a few at a time, off every request path — a save only writes a row and wakes
 * the queue. A failed attempt is retried after the next step of the schedule
 * (WEBHOOK_RETRY_SCHEDULE, about a day by default); `disableAfter` failed attempts of a hook in a
 * row switch it off and tell its owner through a notice. Rows left pending or mid-send by a
 * stopped process are due again when the next one starts (their lease ran out), so nothing queued
 * is lost. Each process claims rows atomically, so several can share the collection.
 *
 * Nothing here logs a hook's URL (chat services put their token in it) or its secret.
 */
import { findLiveItem } from '../access';
import { createReminders } from '../notices';
import { addressPolicy, formatNow, isAddressRefusal, perContext, policyFetch } from '../platform';
import type { WebhookPayload } from './payload';
import { renderRequest } from './presets';
import {
  Webhook,
  WebhookDelivery,
  type WebhookDeliveryDoc,
  type WebhookDocFields,
} from './schemas';

export interface DeliverySettings {
  /** Seconds before each retry; its length is the number of retries. */
  retrySchedule: number[];
  /** Failed attempts in a row that switch a hook off. */
  disableAfter: number;
  /** How long one attempt may take. */
  timeoutMs: number;
}

export const DEFAULT_SETTINGS: DeliverySettings = {
  retrySchedule: [60, 300, 1800, 7200, 21600, 43200],
  disableAfter: 10,
  timeoutMs: 10_000,
};

/** Attempts running at once per process. */
const CONCURRENCY = 4;
/** How often an idle queue looks for rows other processes queued (ms). */
const IDLE_POLL_MS = 30_000;
/** Answer bytes read: enough for a chat service's `{errcode, errmsg}`. */
const MAX_ANSWER = 4096;

interface QueueState {
  settings: DeliverySettings;
  started: boolean;
  timer: NodeJS.Timeout | null;
  draining: Promise<void> | null;
  again: boolean;
  running: Set<Promise<void>>;
  onError: (error: unknown) => void;
}

const queue = perContext((): QueueState => ({
  settings: DEFAULT_SETTINGS,
  started: false,
  timer: null,
  draining: null,
  again: false,
  running: new Set(),
  onError: () => {},
}));

export function deliverySettings(): DeliverySettings {
  return queue().settings;
}

/** The first answer bytes as text. */
async function readAnswer(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < MAX_ANSWER) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.length;
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
  return Buffer.concat(chunks).subarray(0, MAX_ANSWER).toString('utf8');
}

/**
 * Chat services answer HTTP 200 with an error inside: Feishu `{code, msg}`, DingTalk and WeCom
 * `{errcode, errmsg}`. A non-zero one is a failed delivery.
 */
function chatError(answer: string): string | null {
  try {
    const parsed = JSON.parse(answer) as Record<string, unknown>;
    const code = parsed.errcode ?? parsed.code ?? parsed.StatusCode;
    if (typeof code === 'number' && code !== 0)
      return `service error ${code}: ${String(parsed.errmsg ?? parsed.msg ?? parsed.StatusMessage ?? '').slice(0, 200)}`;
  } catch {
    // Not JSON (Slack answers "ok"): the status decides.
  }
  return null;
}

interface Outcome {
  ok: boolean;
  code: number;
  latency: number;
  error: string;
  /** A refusal of the address: retrying cannot help. */
  final: boolean;
}

/** Sends one attempt of `row` to `hook`; never throws. */
export async function attempt(
  hook: WebhookDocFields,
  row: Pick<WebhookDeliveryDoc, 'id' | 'body'>,
): Promise<Outcome> {
  const payload = { ...(JSON.parse(row.body) as object), delivered_at: new Date().toISOString() };
  const request = renderRequest(hook, payload as WebhookPayload, Date.now(), row.id);
  const started = Date.now();
  try {
    const response = await policyFetch(
      request.url,
      {
        method: 'POST',
        headers: { 'user-agent': 'Quire-Webhook/1', ...request.headers },
        body: request.body,
        redirect: 'manual',
        signal: AbortSignal.timeout(queue().settings.timeoutMs),
      },
      addressPolicy('Webhook delivery'),
    );
    const answer = await readAnswer(response);
    const latency = Date.now() - started;
    const code = response.status;
    if (code < 200 || code >= 300)
      return { ok: false, code, latency, error: `HTTP ${code}`, final: false };
    const refused = hook.preset === 'json' ? null : chatError(answer);
    if (refused) return { ok: false, code, latency, error: refused, final: false };
    return { ok: true, code, latency, error: '', final: false };
  } catch (error) {
    const latency = Date.now() - started;
    const final = isAddressRefusal(error);
    const message =
      (error as Error)?.name === 'TimeoutError'
        ? 'timed out'
        : String((error as Error)?.message ?? error).slice(0, 300);
    return { ok: false, code: 0, latency, error: message, final };
  }
}

async function notifyDisabled(hook: WebhookDocFields, ownerUid: number): Promise<void> {
  const where = hook.kind === 'user' ? 'Your push address' : `A webhook of item ${hook.item_id}`;
  await createReminders({
    fromUid: 0,
    fromName: 'Quire',
    actionType: 'webhook',
    objectType: hook.kind === 'user' ? 'user' : 'item',
    objectId: hook.kind === 'user' ? hook.uid : hook.item_id,
    text: `${where} (#${hook.id}) was switched off after ${hook.fail_count} failed deliveries in a row. Check the receiver, then switch it on again and redeliver.`,
    toUids: [ownerUid],
  });
}

/** Counts a failed attempt against the hook and switches it off at the limit (once). */
async function countFailure(hookId: number, ownerOf: (hook: WebhookDocFields) => Promise<number>) {
  const hook = await Webhook.findOneAndUpdate(
    { id: hookId },
    { $inc: { fail_count: 1 } },
    { returnDocument: 'after', projection: { _id: 0 } },
  ).lean<WebhookDocFields>();
  if (!hook || hook.fail_count < queue().settings.disableAfter || hook.enabled !== 1) return;
  const switched = await Webhook.updateOne(
    { id: hookId, enabled: 1 },
    {
      $set: {
        enabled: 0,
        disabled_reason: `${hook.fail_count} failed deliveries in a row`,
        updated_at: formatNow(),
      },
    },
  );
  if (switched.modifiedCount === 1) await notifyDisabled(hook, await ownerOf(hook));
}

/** Who hears of a switched-off hook: the item's owner, or the push address's user. */
async function ownerLookup(hook: WebhookDocFields): Promise<number> {
  if (hook.kind === 'user') return hook.uid;
  return (await findLiveItem(hook.item_id))?.uid ?? hook.uid;
}

async function process(row: WebhookDeliveryDoc): Promise<void> {
  const hook = await Webhook.findOne({ id: row.hook_id }, { _id: 0 }).lean<WebhookDocFields>();
  const attempts = row.attempts + 1;
  const now = formatNow();
  if (!hook || (hook.enabled !== 1 && row.event !== 'ping')) {
    await WebhookDelivery.updateOne(
      { id: row.id },
      {
        $set: {
          status: 'failed',
          error: hook ? 'the hook is switched off' : 'the hook was deleted',
          last_attempt_at: now,
        },
      },
    );
    return;
  }
  const outcome = await attempt(hook, row);
  const schedule = queue().settings.retrySchedule;
  const retry = !outcome.ok && !outcome.final && attempts <= schedule.length;
  await WebhookDelivery.updateOne(
    { id: row.id },
    {
      $set: {
        status: outcome.ok ? 'success' : retry ? 'pending' : 'failed',
        attempts,
        next_at: retry ? Date.now() + schedule[attempts - 1] * 1000 : 0,
        response_code: outcome.code,
        latency_ms: outcome.latency,
        error: outcome.error,
        last_attempt_at: now,
      },
    },
  );
  if (outcome.ok)
    await Webhook.updateOne({ id: hook.id, fail_count: { $ne: 0 } }, { $set: { fail_count: 0 } });
  else await countFailure(hook.id, ownerLookup);
}

/** Takes the next due row (pending, or mid-send with an expired lease) for this process. */
async function claim(): Promise<WebhookDeliveryDoc | null> {
  const now = Date.now();
  const lease = queue().settings.timeoutMs * 3 + 5_000;
  return WebhookDelivery.findOneAndUpdate(
    { status: { $in: ['pending', 'sending'] }, next_at: { $lte: now } },
    { $set: { status: 'sending', next_at: now + lease } },
    { sort: { next_at: 1 }, returnDocument: 'after', projection: { _id: 0 } },
  ).lean<WebhookDeliveryDoc>();
}

async function drainOnce(): Promise<void> {
  const state = queue();
  while (state.started) {
    while (state.running.size >= CONCURRENCY) await Promise.race(state.running);
    const row = await claim();
    if (!row) break;
    const run = process(row)
      .catch((error: unknown) => state.onError(error))
      .finally(() => {
        state.running.delete(run);
        // Its retry (if any) may now be the next row due: look again.
        wakeQueue();
      });
    state.running.add(run);
  }
}

/** When the next row falls due (ms from now), bounded by the idle poll. */
async function nextWake(): Promise<number> {
  const next = await WebhookDelivery.findOne(
    { status: { $in: ['pending', 'sending'] } },
    { next_at: 1, _id: 0 },
  )
    .sort({ next_at: 1 })
    .lean();
  if (!next) return IDLE_POLL_MS;
  return Math.min(IDLE_POLL_MS, Math.max(50, next.next_at - Date.now()));
}

function schedule(delay: number): void {
  const state = queue();
  if (!state.started) return;
  if (state.timer) clearTimeout(state.timer);
  state.timer = setTimeout(() => {
    state.timer = null;
    wakeQueue();
  }, delay);
  state.timer.unref?.();
}

/** Looks for due rows now (after a row was queued or redelivered). */
export function wakeQueue(): void {
  const state = queue();
  if (!state.started) return;
  if (state.draining) {
    state.again = true;
    return;
  }
  state.draining = (async () => {
    try {
      do {
        state.again = false;
        await drainOnce();
      } while (state.again && state.started);
      if (state.started) schedule(await nextWake());
    } catch (error) {
      state.onError(error);
      schedule(IDLE_POLL_MS);
    } finally {
      state.draining = null;
    }
  })();
}

export function startQueue(
  settings: Partial<DeliverySettings>,
  onError: (error: unknown) => void,
): () => Promise<void> {
  const state = queue();
  state.settings = { ...DEFAULT_SETTINGS, ...settings };
  state.onError = onError;
  state.started = true;
  wakeQueue();
  return async () => {
    state.started = false;
    if (state.timer) clearTimeout(state.timer);
    state.timer = null;
    await state.draining;
    await Promise.allSettled([...state.running]);
  };
}
