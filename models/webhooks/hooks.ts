/**
 * An item's webhooks, managed by its managers (`webhook.read` lists them and their log,
 * `webhook.manage` changes them): list, save, delete, rotate the secret, send a test message,
 * redeliver. The generic hook's secret is made here and answered once (creation, rotation);
 * chat presets take the bot's own signing secret (Feishu, DingTalk) instead. The receiver's
 * address is checked against the address policy when the hook is saved, and again on every
 * attempt (queue.ts), since a name may resolve elsewhere later.
 */
import { randomBytes } from 'node:crypto';
import { requireAction, type Actor } from '../access';
import {
  addressPolicy,
  errors,
  formatNow,
  formatUnixOrEmpty,
  nextId,
  reservedId,
  resolveChecked,
} from '../platform';
import { attempt, failWaiting, forgetHook, queued } from './queue';
import { buildPayload, type QueuedPayload } from './payload';
import {
  HOOK_EVENTS,
  PRESETS,
  type Preset,
  Webhook,
  WebhookDelivery,
  type WebhookDeliveryDoc,
  type WebhookDocFields,
} from './schemas';

export const MAX_HOOKS_PER_ITEM = 20;
const MAX_URL_LENGTH = 2000;
const MAX_SECRET_LENGTH = 200;
/** Chat presets that sign with a secret of their own. */
const SIGNED_PRESETS: readonly Preset[] = ['feishu', 'dingtalk'];

export interface HookRow {
  id: number;
  item_id: number;
  url: string;
  preset: Preset;
  events: string[];
  enabled: number;
  fail_count: number;
  disabled_reason: string;
  /** Whether deliveries are signed (the secret itself is never listed). */
  signed: number;
  created_at: string;
  updated_at: string;
}

export interface HookInput {
  itemId: number;
  /** 0 = a new hook. */
  id: number;
  url?: string;
  preset?: string;
  /** Event names; undefined keeps them (a new hook: every event). */
  events?: string[];
  /** Feishu/DingTalk: the bot's signing secret ('' = unsigned). Ignored for the other presets. */
  secret?: string;
  enabled?: boolean;
}

/** A hook's signing secret (item hooks and the hooks of push addresses alike). */
export const newSecret = () => `whsec_${randomBytes(24).toString('hex')}`;

function rowOf(hook: WebhookDocFields): HookRow {
  return {
    id: hook.id,
    item_id: hook.item_id,
    url: hook.url,
    preset: hook.preset,
    events: hook.events,
    enabled: hook.enabled,
    fail_count: hook.fail_count,
    disabled_reason: hook.disabled_reason,
    signed: hook.secret ? 1 : 0,
    created_at: hook.created_at,
    updated_at: hook.updated_at,
  };
}

function needLogin(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
}

async function hookOf(itemId: number, id: number): Promise<WebhookDocFields> {
  const hook =
    id > 0
      ? await Webhook.findOne(
          { id, item_id: itemId, kind: 'item' },
          { _id: 0 },
        ).lean<WebhookDocFields>()
      : null;
  if (!hook) throw errors.failed('Webhook not found');
  return hook;
}

/** An http(s) URL whose host the address policy lets the server reach (10403 otherwise). */
export async function checkReceiver(raw: string): Promise<string> {
  const url = raw.trim();
  if (!url || url.length > MAX_URL_LENGTH)
    throw errors.failed('The webhook URL is missing or too long');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw errors.failed('The webhook URL must be an http or https address');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw errors.failed('The webhook URL must be an http or https address');
  await resolveChecked(addressPolicy('Webhook delivery'), parsed.hostname);
  return url;
}

function readEvents(list: string[]): string[] {
  const known = new Set<string>(HOOK_EVENTS);
  const events = [...new Set(list.map((e) => e.trim()).filter(Boolean))];
  const unknown = events.find((e) => !known.has(e));
  if (unknown) throw errors.failed(`Unknown webhook event: ${unknown}`);
  if (!events.length) throw errors.failed('Choose at least one event');
  return events;
}

function readPreset(raw: string | undefined, fallback: Preset): Preset {
  if (raw === undefined || raw === '') return fallback;
  if (!(PRESETS as readonly string[]).includes(raw)) throw errors.failed(`Unknown preset: ${raw}`);
  return raw as Preset;
}

export async function listHooks(actor: Actor, itemId: number): Promise<HookRow[]> {
  needLogin(actor);
  await requireAction(actor, 'webhook.read', itemId);
  const hooks = await Webhook.find({ item_id: itemId, kind: 'item' }, { _id: 0 })
    .sort({ id: 1 })
    .lean<WebhookDocFields[]>();
  return hooks.map(rowOf);
}

/** Creates or updates a hook. A new generic hook's secret is in this answer only. */
export async function saveHook(
  actor: Actor,
  input: HookInput,
): Promise<{ id: number; secret: string }> {
  needLogin(actor);
  await requireAction(actor, 'webhook.manage', input.itemId);
  const existing = input.id > 0 ? await hookOf(input.itemId, input.id) : null;
  const preset = readPreset(input.preset, existing?.preset ?? 'json');
  const url =
    input.url !== undefined || !existing ? await checkReceiver(input.url ?? '') : existing.url;
  const events =
    input.events !== undefined ? readEvents(input.events) : (existing?.events ?? [...HOOK_EVENTS]);
  const ownSecret = input.secret?.trim() ?? '';
  if (ownSecret.length > MAX_SECRET_LENGTH) throw errors.failed('The signing secret is too long');
  const now = formatNow();
  if (existing) {
    const set: Partial<WebhookDocFields> = { url, preset, events, updated_at: now };
    let shown = '';
    if (preset === 'json' && existing.preset !== 'json') set.secret = shown = newSecret();
    else if (SIGNED_PRESETS.includes(preset) && input.secret !== undefined) set.secret = ownSecret;
    else if (preset !== 'json' && !SIGNED_PRESETS.includes(preset)) set.secret = '';
    if (input.enabled === true && existing.enabled !== 1)
      Object.assign(set, {
        enabled: 1,
        fail_count: 0,
        disabled_reason: '',
        listening_since: Date.now(),
      });
    if (input.enabled === false) Object.assign(set, { enabled: 0, disabled_reason: '' });
    await Webhook.updateOne({ id: existing.id }, { $set: set });
    if (input.enabled === false && existing.enabled === 1) await failWaiting(existing.id);
    return { id: existing.id, secret: shown };
  }
  if ((await Webhook.countDocuments({ item_id: input.itemId, kind: 'item' })) >= MAX_HOOKS_PER_ITEM)
    throw errors.refused(`An item has at most ${MAX_HOOKS_PER_ITEM} webhooks`);
  const secret = preset === 'json' ? newSecret() : SIGNED_PRESETS.includes(preset) ? ownSecret : '';
  const id = await nextId('webhook_id');
  await Webhook.create({
    id,
    kind: 'item',
    item_id: input.itemId,
    uid: actor.uid,
    url,
    preset,
    events,
    secret,
    enabled: input.enabled === false ? 0 : 1,
    fail_count: 0,
    disabled_reason: '',
    listening_since: Date.now(),
    created_at: now,
    updated_at: now,
  });
  return { id, secret: preset === 'json' ? secret : '' };
}

export async function deleteHook(actor: Actor, itemId: number, id: number): Promise<void> {
  needLogin(actor);
  await requireAction(actor, 'webhook.manage', itemId);
  const hook = await hookOf(itemId, id);
  await Webhook.deleteOne({ id: hook.id });
  await WebhookDelivery.deleteMany({ hook_id: hook.id });
  forgetHook(hook.id);
}

/** A new secret for a generic hook (answered once); the old one stops verifying at once. */
export async function rotateSecret(
  actor: Actor,
  itemId: number,
  id: number,
): Promise<{ secret: string }> {
  needLogin(actor);
  await requireAction(actor, 'webhook.manage', itemId);
  const hook = await hookOf(itemId, id);
  if (hook.preset !== 'json')
    throw errors.failed('Only generic JSON webhooks have a Quire secret to rotate');
  const secret = newSecret();
  await Webhook.updateOne({ id: hook.id }, { $set: { secret, updated_at: formatNow() } });
  return { secret };
}

/** One delivery to queue: a payload for a hook. */
export interface QueuedDelivery {
  hookId: number;
  itemId: number;
  payload: QueuedPayload;
}

/** Delivery ids a process takes from the counter at a time. */
const DELIVERY_ID_BLOCK = 200;

/**
 * Writes the delivery rows, in their order, with one insert (one journal flush) for all of them,
 * and wakes the queue. A payload shared by several rows is serialised once.
 */
export async function enqueueMany(list: QueuedDelivery[]): Promise<number[]> {
  if (!list.length) return [];
  // From a block this process holds: most batches take their ids without a database write.
  const ids = await Promise.all(
    list.map(() => reservedId('webhook_delivery_id', DELIVERY_ID_BLOCK)),
  );
  const bodies = new Map<QueuedPayload, string>();
  const bodyOf = (payload: QueuedPayload) => {
    let body = bodies.get(payload);
    if (body === undefined) bodies.set(payload, (body = JSON.stringify(payload)));
    return body;
  };
  const now = formatNow();
  const at = Date.now();
  const rows = list.map(({ hookId, itemId, payload }, i) => ({
    id: ids[i],
    hook_id: hookId,
    item_id: itemId,
    event: payload.event,
    body: bodyOf(payload),
    status: 'pending' as const,
    attempts: 0,
    next_at: at,
    response_code: 0,
    latency_ms: 0,
    error: '',
    created_at: now,
    last_attempt_at: '',
  }));
  await WebhookDelivery.insertMany(rows, { lean: true });
  queued(rows);
  return ids;
}

export interface TestResult {
  delivery_id: number;
  status: 'success' | 'failed';
  response_code: number;
  latency_ms: number;
  error: string;
}

/**
 * "Send test message": a `ping` sent now, while the manager waits for the answer (the one
 * delivery that runs on a request, and no save waits for it). Logged like any delivery, never
 * retried, not counted against the hook.
 */
export async function testHook(actor: Actor, itemId: number, id: number): Promise<TestResult> {
  needLogin(actor);
  await requireAction(actor, 'webhook.manage', itemId);
  const hook = await hookOf(itemId, id);
  const payload = await buildPayload({ event: 'ping', itemId, byUid: actor.uid });
  if (!payload) throw errors.itemNotFound();
  payload.digest.summary = `Test message from Quire for ${payload.item.item_name}`;
  const deliveryId = await nextId('webhook_delivery_id');
  const body = JSON.stringify(payload);
  const outcome = await attempt(hook, { id: deliveryId, body });
  const status = outcome.ok ? 'success' : 'failed';
  const now = formatNow();
  await WebhookDelivery.create({
    id: deliveryId,
    hook_id: hook.id,
    item_id: itemId,
    event: 'ping',
    body,
    status,
    attempts: 1,
    next_at: 0,
    response_code: outcome.code,
    latency_ms: outcome.latency,
    error: outcome.error,
    created_at: now,
    last_attempt_at: now,
  });
  return {
    delivery_id: deliveryId,
    status,
    response_code: outcome.code,
    latency_ms: outcome.latency,
    error: outcome.error,
  };
}

export interface DeliveryRow {
  id: number;
  hook_id: number;
  event: string;
  status: WebhookDeliveryDoc['status'];
  attempts: number;
  response_code: number;
  latency_ms: number;
  error: string;
  created_at: string;
  last_attempt_at: string;
  /** `YYYY-MM-DD HH:MM:SS` of the next retry ('' when none is due). */
  next_attempt_at: string;
}

export const MAX_DELIVERIES_LISTED = 100;

/** A hook's log, newest first. */
export async function listDeliveries(
  actor: Actor,
  itemId: number,
  hookId: number,
  page: number,
): Promise<{ list: DeliveryRow[]; total: number }> {
  needLogin(actor);
  await requireAction(actor, 'webhook.read', itemId);
  const hook = await hookOf(itemId, hookId);
  const skip = Math.max(0, page - 1) * MAX_DELIVERIES_LISTED;
  const [rows, total] = await Promise.all([
    WebhookDelivery.find({ hook_id: hook.id }, { _id: 0, body: 0 })
      .sort({ id: -1 })
      .skip(skip)
      .limit(MAX_DELIVERIES_LISTED)
      .lean<WebhookDeliveryDoc[]>(),
    WebhookDelivery.countDocuments({ hook_id: hook.id }),
  ]);
  return {
    total,
    list: rows.map((row) => ({
      id: row.id,
      hook_id: row.hook_id,
      event: row.event,
      status: row.status,
      attempts: row.attempts,
      response_code: row.response_code,
      latency_ms: row.latency_ms,
      error: row.error,
      created_at: row.created_at,
      last_attempt_at: row.last_attempt_at,
      next_attempt_at:
        row.status === 'pending' ? formatUnixOrEmpty(Math.floor(row.next_at / 1000)) : '',
    })),
  };
}

/** Sends a logged delivery's body again, as a new delivery (the log keeps both). */
export async function redeliver(
  actor: Actor,
  itemId: number,
  deliveryId: number,
): Promise<{ delivery_id: number }> {
  needLogin(actor);
  await requireAction(actor, 'webhook.manage', itemId);
  const row =
    deliveryId > 0
      ? await WebhookDelivery.findOne(
          { id: deliveryId, item_id: itemId },
          { _id: 0 },
        ).lean<WebhookDeliveryDoc>()
      : null;
  if (!row) throw errors.failed('Delivery not found');
  const hook = await hookOf(itemId, row.hook_id);
  if (hook.enabled !== 1) throw errors.failed('Switch the webhook on before redelivering');
  const [id] = await enqueueMany([
    { hookId: hook.id, itemId, payload: JSON.parse(row.body) as QueuedPayload },
  ]);
  return { delivery_id: id };
}
