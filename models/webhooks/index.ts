/** Webhooks: item hooks and users' push addresses, their deliveries, chat presets and the queue. */
export {
  deleteHook,
  type DeliveryRow,
  type HookInput,
  type HookRow,
  listDeliveries,
  listHooks,
  MAX_HOOKS_PER_ITEM,
  redeliver,
  rotateSecret,
  saveHook,
  testHook,
  type TestResult,
} from './hooks';
export { startWebhooks } from './listener';
export { lineDiff, type LineDiff } from './digest';
export { SCHEMA, type WebhookPayload } from './payload';
export {
  dingtalkSign,
  feishuSign,
  quireSignature,
  renderRequest,
  REPLAY_WINDOW_SECONDS,
  SIGNATURE_HEADER,
  WECOM_MAX_BYTES,
} from './presets';
export { DEFAULT_SETTINGS, type DeliverySettings } from './queue';
export { HOOK_EVENTS, PRESETS, type Preset, Webhook, WebhookDelivery } from './schemas';
