/**
 * `webhook/*`: Quire's own controller (no ShowDoc counterpart) for an item's webhooks and chat
 * pushes — list, save, delete, test, deliveries, redeliver, rotateSecret. A secret appears only in
 * save's answer for a new generic hook and in rotateSecret's.
 */
import { z } from 'zod';
import { action, id, int, maybeBool, maybeStr, raw } from './coerce';

const preset = z.enum(['json', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom']);

export const webhookRow = z.object({
  id: z.number(),
  item_id: z.number(),
  url: z.string(),
  preset,
  events: z.array(z.string()),
  enabled: z.number(),
  fail_count: z.number(),
  disabled_reason: z.string(),
  signed: z.number(),
  created_at: z.string(),
  updated_at: z.string(),
});

export const webhookDeliveryRow = z.object({
  id: z.number(),
  hook_id: z.number(),
  event: z.string(),
  status: z.enum(['pending', 'sending', 'success', 'failed']),
  attempts: z.number(),
  response_code: z.number(),
  latency_ms: z.number(),
  error: z.string(),
  created_at: z.string(),
  last_attempt_at: z.string(),
  next_attempt_at: z.string(),
});

export const webhookContract = {
  list: action({ item_id: id() }, z.array(webhookRow)),
  save: action(
    {
      item_id: id(),
      id: id(),
      url: maybeStr(),
      preset: maybeStr(),
      /** An array, a JSON array or a comma list of event names; absent keeps them. */
      events: raw(),
      /** Feishu/DingTalk: the bot's signing secret. */
      secret: maybeStr(),
      enabled: maybeBool(),
    },
    z.object({ id: z.number(), secret: z.string() }),
  ),
  delete: action({ item_id: id(), id: id() }, z.literal(true)),
  test: action(
    { item_id: id(), id: id() },
    z.object({
      delivery_id: z.number(),
      status: z.enum(['success', 'failed']),
      response_code: z.number(),
      latency_ms: z.number(),
      error: z.string(),
    }),
  ),
  deliveries: action(
    { item_id: id(), id: id(), page: int(1) },
    z.object({ list: z.array(webhookDeliveryRow), total: z.number() }),
  ),
  redeliver: action({ item_id: id(), delivery_id: id() }, z.object({ delivery_id: z.number() })),
  rotateSecret: action({ item_id: id(), id: id() }, z.object({ secret: z.string() })),
};
