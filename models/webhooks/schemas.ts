/**
 * Quire's webhooks (no ShowDoc table): `webhook` holds an item's hooks (and each user's push
 * address, `kind: 'user'`, made on its first delivery), `webhook_delivery` one row per event sent
 * to one hook — its body, its state and the outcome of its last attempt. Pending rows survive a
 * restart: the queue (queue.ts) picks them up again by `next_at`.
 *
 * The signing secret is kept as is: HMAC needs it. It leaves the server once, in the answer of
 * the call that made or rotated it, and never appears in a list or a log.
 */
import { Schema } from 'mongoose';
import { defineModel } from '../platform';

export const PRESETS = ['json', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom'] as const;
export type Preset = (typeof PRESETS)[number];

/** What a hook may listen to (`ping` is the test message, always allowed). */
export const HOOK_EVENTS = [
  'page.created',
  'page.updated',
  'page.deleted',
  'page.restored',
  'catalog.changed',
  'comment.added',
  'member.changed',
  'item.archived',
  'item.transferred',
  'contract.changed',
] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number] | 'ping';

export interface WebhookDoc {
  id: number;
  /** 'item': an item's hook (its managers'); 'user': a user's push address. */
  kind: 'item' | 'user';
  /** 0 for a user's push address. */
  item_id: number;
  /** Who made it (for `kind: 'user'`, whose push address it is). */
  uid: number;
  url: string;
  preset: Preset;
  events: string[];
  /** json: ours (HMAC of the body); feishu/dingtalk: the bot's signing secret ('' = unsigned). */
  secret: string;
  enabled: number;
  /** Failed attempts in a row (a success resets it); `disable_after` of them disable the hook. */
  fail_count: number;
  /** Why it was switched off ('' while enabled or switched off by hand). */
  disabled_reason: string;
  /**
   * Unix ms from which the hook hears events: its creation, or when it was last switched on.
   * Events are addressed a batch window after they happen, so without it a hook made (or switched
   * on) just after an event would still be sent that event. 0 (hooks from before): every event.
   */
  listening_since: number;
  created_at: string;
  updated_at: string;
}

/** A hook as read (lean, no `_id`). */
export type WebhookDocFields = WebhookDoc;

export type DeliveryStatus = 'pending' | 'sending' | 'success' | 'failed';

export interface WebhookDeliveryDoc {
  id: number;
  hook_id: number;
  item_id: number;
  event: string;
  /** The JSON body as sent (every attempt sends the same bytes, freshly signed). */
  body: string;
  status: DeliveryStatus;
  attempts: number;
  /** Unix ms of the next attempt (pending), or of the lease's end (sending). */
  next_at: number;
  response_code: number;
  latency_ms: number;
  /** The last attempt's failure, short ('' on success). */
  error: string;
  created_at: string;
  last_attempt_at: string;
}

const webhookSchema = new Schema<WebhookDoc>(
  {
    id: { type: Number, required: true },
    kind: { type: String, default: 'item' },
    item_id: { type: Number, default: 0 },
    uid: { type: Number, default: 0 },
    url: { type: String, default: '' },
    preset: { type: String, default: 'json' },
    events: { type: [String], default: [] },
    secret: { type: String, default: '' },
    enabled: { type: Number, default: 1 },
    fail_count: { type: Number, default: 0 },
    disabled_reason: { type: String, default: '' },
    listening_since: { type: Number, default: 0 },
    created_at: { type: String, default: '' },
    updated_at: { type: String, default: '' },
  },
  { collection: 'webhook', versionKey: false },
);
webhookSchema.index({ id: 1 }, { unique: true });
webhookSchema.index({ item_id: 1 });
webhookSchema.index({ kind: 1, uid: 1 });

const deliverySchema = new Schema<WebhookDeliveryDoc>(
  {
    id: { type: Number, required: true },
    hook_id: { type: Number, required: true },
    item_id: { type: Number, default: 0 },
    event: { type: String, default: '' },
    body: { type: String, default: '' },
    status: { type: String, default: 'pending' },
    attempts: { type: Number, default: 0 },
    next_at: { type: Number, default: 0 },
    response_code: { type: Number, default: 0 },
    latency_ms: { type: Number, default: 0 },
    error: { type: String, default: '' },
    created_at: { type: String, default: '' },
    last_attempt_at: { type: String, default: '' },
  },
  { collection: 'webhook_delivery', versionKey: false },
);
deliverySchema.index({ id: 1 }, { unique: true });
deliverySchema.index({ hook_id: 1, id: -1 });
deliverySchema.index({ status: 1, next_at: 1 });

export const Webhook = defineModel<WebhookDoc>('Webhook', webhookSchema);
export const WebhookDelivery = defineModel<WebhookDeliveryDoc>('WebhookDelivery', deliverySchema);
