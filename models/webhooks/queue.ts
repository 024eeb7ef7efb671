/**
 * The delivery queue: rows of `webhook_delivery` due now are claimed (pending → sending, with a
 * lease) and sent, a few at a time, off every request path — a save's event only adds a row
 * (listener.ts, batched) and tells the queue. A failed attempt is retried after the next step of
 * the schedule (WEBHOOK_RETRY_SCHEDULE, about a day by default); `disableAfter` failed attempts
 * of a hook in a row switch it off and tell its owner through a notice.
 *
 * What is due is kept in memory (delivery id, hook, when), fed by the rows this process queues
 * and its retries, so finding the next delivery never scans the collection and nothing polls
 * while deliveries are in flight. A sweep at start and every IDLE_POLL_MS adds the rows other
 * processes queued and those a stopped process left pending or mid-send (their lease ran out),
 * so nothing queued is lost. A row is claimed by its id, atomically, so several processes can
 * share the collection.
 *
 * A slow receiver holds at most PER_HOOK attempts (sockets) at once: the rest of its rows wait
 * their turn, and other hooks' deliveries go on in the other slots.
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
const CONCURRENCY = 8;
/** Attempts running at once per hook and process: a slow receiver cannot take every slot. */
export const PER_HOOK = 2;
/** How often the queue sweeps the collection for rows it does not know of (ms). */
const IDLE_POLL_MS = 30_000;
/** Answer bytes read: enough for a chat service's `{errcode, errmsg}`. */
const MAX_ANSWER = 4096;

/** A row known to be due at `at` (Unix ms). */
interface Due {
  id: number;
  at: number;
}

interface QueueState {
  settings: DeliverySettings;
  started: boolean;
  timer: NodeJS.Timeout | null;
  sweeper: NodeJS.Timeout | null;
  draining: Promise<void> | null;
  again: boolean;
  running: Set<Promise<void>>;
  /** Hook id → its due rows, earliest first. */
  due: Map<number, Due[]>;
  /** Delivery ids in `due` or being sent here. */
  known: Set<number>;
  /** Hook id → attempts in flight here. */
  busy: Map<number, number>;
  onError: (error: unknown) => void;
}

const queue = perContext((): QueueState => ({
  settings: DEFAULT_SETTINGS,
  started: false,
  timer: null,
  sweeper: null,
  draining: null,
  again: false,
  running: new Set(),
  due: new Map(),
  known: new Set(),
  busy: new Map(),
  onError: () => {},
}));

/** Adds a row to the hook's due list, in time order. */
function remember(state: QueueState, hookId: number, row: Due): void {
  if (state.known.has(row.id)) return;
  state.known.add(row.id);
  let list = state.due.get(hookId);
  if (!list) state.due.set(hookId, (list = []));
  // New rows are the latest almost always: look from the end.
  let i = list.length;
  while (
    i > 0 &&
    (list[i - 1].at > row.at || (list[i - 1].at === row.at && list[i - 1].id > row.id))
  )
    i--;
  list.splice(i, 0, row);
}

/** The earliest due row of a hook with a free slot, taken out of the lists (null: none now). */
function takeDue(state: QueueState, now: number): { hookId: number; id: number } | null {
  let best: { hookId: number; row: Due } | null = null;
  for (const [hookId, list] of state.due) {
    if ((state.busy.get(hookId) ?? 0) >= PER_HOOK) continue;
    const head = list[0];
    if (head.at > now) continue;
    if (!best || head.at < best.row.at) best = { hookId, row: head };
  }
  if (!best) return null;
  const list = state.due.get(best.hookId)!;
  list.shift();
  if (!list.length) state.due.delete(best.hookId);
  return { hookId: best.hookId, id: best.row.id };
}

/** When the next known row of a hook with a free slot falls due (null: none known). */
function nextDueAt(state: QueueState): number | null {
  let next: number | null = null;
  for (const [hookId, list] of state.due) {
    if ((state.busy.get(hookId) ?? 0) >= PER_HOOK) continue;
    if (next === null || list[0].at < next) next = list[0].at;
  }
  return next;
}

/** Rows just written (enqueue, redelivery): due now, so the queue looks at once. */
export function queued(rows: Array<{ id: number; hook_id: number; next_at: number }>): void {
  const state = queue();
  if (!state.started) return;
  for (const row of rows) remember(state, row.hook_id, { id: row.id, at: row.next_at });
  wakeQueue();
}

/** A deleted hook's rows went with it: its due list goes too (no claim per gone row). */
export function forgetHook(hookId: number): void {
  const state = queue();
  for (const row of state.due.get(hookId) ?? []) state.known.delete(row.id);
  state.due.delete(hookId);
}

/**
 * A hook switched off: its waiting rows fail at once, in one write, rather than one claim and
 * two writes each as the queue reaches them (a slow receiver's backlog can be thousands). They
 * stay in the log, for a redelivery once it is on again.
 */
export async function failWaiting(hookId: number): Promise<void> {
  forgetHook(hookId);
  await WebhookDelivery.updateMany(
    { hook_id: hookId, status: 'pending' },
    {
      $set: {
        status: 'failed',
        next_at: 0,
        error: 'the hook is switched off',
        last_attempt_at: formatNow(),
      },
    },
  );
}

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
  if (switched.modifiedCount !== 1) return;
  await failWaiting(hookId);
  await notifyDisabled(hook, await ownerOf(hook));
}

/** Who hears of a switched-off hook: the item's owner, or the push address's user. */
async function ownerLookup(hook: WebhookDocFields): Promise<number> {
  if (hook.kind === 'user') return hook.uid;
  return (await findLiveItem(hook.item_id))?.uid ?? hook.uid;
}

/** Sends one claimed row; resolves the time of its retry (null: none). */
async function process(row: WebhookDeliveryDoc): Promise<number | null> {
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
    return null;
  }
  const outcome = await attempt(hook, row);
  const schedule = queue().settings.retrySchedule;
  const retry = !outcome.ok && !outcome.final && attempts <= schedule.length;
  const nextAt = retry ? Date.now() + schedule[attempts - 1] * 1000 : 0;
  // Whoever sees a success in the log sees the hook's count reset, and whoever sees the hook
  // switched off sees the failure that did it: a reset goes before the row, a failure after.
  if (outcome.ok)
    await Webhook.updateOne({ id: hook.id, fail_count: { $ne: 0 } }, { $set: { fail_count: 0 } });
  await WebhookDelivery.updateOne(
    { id: row.id },
    {
      $set: {
        status: outcome.ok ? 'success' : retry ? 'pending' : 'failed',
        attempts,
        next_at: nextAt,
        response_code: outcome.code,
        latency_ms: outcome.latency,
        error: outcome.error,
        last_attempt_at: now,
      },
    },
  );
  if (!outcome.ok) await countFailure(hook.id, ownerLookup);
  return retry ? nextAt : null;
}

/** Claims this row for this process if it is still due (pending, or mid-send past its lease). */
async function claim(id: number): Promise<WebhookDeliveryDoc | null> {
  const now = Date.now();
  const lease = queue().settings.timeoutMs * 3 + 5_000;
  return WebhookDelivery.findOneAndUpdate(
    { id, status: { $in: ['pending', 'sending'] }, next_at: { $lte: now } },
    { $set: { status: 'sending', next_at: now + lease } },
    { returnDocument: 'after', projection: { _id: 0 } },
  ).lean<WebhookDeliveryDoc>();
}

function start(state: QueueState, hookId: number, row: WebhookDeliveryDoc): void {
  state.busy.set(hookId, (state.busy.get(hookId) ?? 0) + 1);
  const run = process(row)
    .then((retryAt) => {
      state.known.delete(row.id);
      if (retryAt !== null) remember(state, hookId, { id: row.id, at: retryAt });
    })
    .catch((error: unknown) => {
      state.known.delete(row.id);
      state.onError(error);
    })
    .finally(() => {
      state.running.delete(run);
      const left = (state.busy.get(hookId) ?? 1) - 1;
      if (left > 0) state.busy.set(hookId, left);
      else state.busy.delete(hookId);
      // A slot is free: the hook's next row (or another hook's) may go now.
      wakeQueue();
    });
  state.running.add(run);
}

async function drainOnce(): Promise<void> {
  const state = queue();
  while (state.started && state.running.size < CONCURRENCY) {
    const next = takeDue(state, Date.now());
    if (!next) break;
    const row = await claim(next.id);
    // Sent by another process, or its lease has not run out: that process has it.
    if (!row) {
      state.known.delete(next.id);
      continue;
    }
    // The row's hook is the claimed row's (the memory may predate a move; there is none).
    start(state, row.hook_id, row);
  }
}

/** Adds the rows of the collection this process does not know of (other processes', a restart's). */
async function sweep(): Promise<void> {
  const state = queue();
  const rows = await WebhookDelivery.find(
    { status: { $in: ['pending', 'sending'] } },
    { id: 1, hook_id: 1, next_at: 1, _id: 0 },
  ).lean();
  for (const row of rows) remember(state, row.hook_id, { id: row.id, at: row.next_at });
}

/** Looks for due rows now (after a row was queued, redelivered or an attempt ended). */
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
      // While every slot is taken, the attempt that ends first wakes the queue: no timer.
      const next = state.running.size < CONCURRENCY ? nextDueAt(state) : null;
      if (next !== null) schedule(Math.max(10, next - Date.now()));
    } catch (error) {
      state.onError(error);
      schedule(1_000);
    } finally {
      state.draining = null;
    }
  })();
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

function sweepThenWake(): void {
  sweep().then(wakeQueue, (error: unknown) => queue().onError(error));
}

export function startQueue(
  settings: Partial<DeliverySettings>,
  onError: (error: unknown) => void,
): () => Promise<void> {
  const state = queue();
  state.settings = { ...DEFAULT_SETTINGS, ...settings };
  state.onError = onError;
  state.started = true;
  sweepThenWake();
  state.sweeper = setInterval(sweepThenWake, IDLE_POLL_MS);
  state.sweeper.unref?.();
  return async () => {
    state.started = false;
    if (state.timer) clearTimeout(state.timer);
    if (state.sweeper) clearInterval(state.sweeper);
    state.timer = state.sweeper = null;
    await state.draining;
    await Promise.allSettled([...state.running]);
    state.due.clear();
    state.known.clear();
    state.busy.clear();
  };
}
