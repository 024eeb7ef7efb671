/** An item's webhooks and chat pushes (`webhook/*`, Quire's own controller). */
import type { Output } from '../../../api/contracts';
import { request } from '../../api/request';

export type Webhook = Output<'webhook', 'list'>[number];
export type WebhookDelivery = Output<'webhook', 'deliveries'>['list'][number];
export type WebhookTest = Output<'webhook', 'test'>;

export const WEBHOOK_PRESETS = ['json', 'slack', 'teams', 'feishu', 'dingtalk', 'wecom'] as const;
export type WebhookPreset = (typeof WEBHOOK_PRESETS)[number];

export const WEBHOOK_EVENTS = [
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

export interface WebhookInput {
  item_id: number;
  id?: number;
  url?: string;
  preset?: WebhookPreset;
  events?: string[];
  secret?: string;
  enabled?: boolean;
}

export const listWebhooks = (itemId: number) =>
  request<Webhook[]>('webhook/list', { item_id: itemId });

/** A new generic hook's secret is in this answer only. */
export const saveWebhook = (input: WebhookInput) =>
  request<{ id: number; secret: string }>('webhook/save', {
    item_id: input.item_id,
    id: input.id,
    url: input.url,
    preset: input.preset,
    events: input.events?.join(','),
    secret: input.secret,
    enabled: input.enabled === undefined ? undefined : input.enabled ? 1 : 0,
  });

export const deleteWebhook = (itemId: number, id: number) =>
  request<true>('webhook/delete', { item_id: itemId, id });

export const testWebhook = (itemId: number, id: number) =>
  request<WebhookTest>('webhook/test', { item_id: itemId, id });

export const webhookDeliveries = (itemId: number, id: number) =>
  request<{ list: WebhookDelivery[]; total: number }>('webhook/deliveries', {
    item_id: itemId,
    id,
  });

export const redeliverWebhook = (itemId: number, deliveryId: number) =>
  request<{ delivery_id: number }>('webhook/redeliver', {
    item_id: itemId,
    delivery_id: deliveryId,
  });

export const rotateWebhookSecret = (itemId: number, id: number) =>
  request<{ secret: string }>('webhook/rotateSecret', { item_id: itemId, id });
