/**
 * An item's "Ask the docs" settings (ShowDoc's `item_ai_config` table, `item/getAiConfig|
 * setAiConfig`): the assistant on or off, guests allowed or not, the welcome message and an extra
 * system prompt. Read on every item/info, so each process keeps the rows it has read; a change
 * publishes `item.changed`, which drops the row everywhere (the Redis bus relays it).
 */
import { Schema } from 'mongoose';
import { type Actor, requireAction } from '../access';
import { defineModel, errors, events, nowSeconds, perContext, ReadCache } from '../platform';

export interface AiConfig {
  enabled: number;
  dialog_collapsed: number;
  guest_enabled: number;
  welcome_message: string;
  system_prompt: string;
}

interface ItemAiConfigDoc extends AiConfig {
  item_id: number;
  addtime: number;
  updatetime: number;
}

const itemAiConfigSchema = new Schema<ItemAiConfigDoc>(
  {
    item_id: { type: Number, required: true },
    enabled: { type: Number, default: 0 },
    dialog_collapsed: { type: Number, default: 1 },
    guest_enabled: { type: Number, default: 0 },
    welcome_message: { type: String, default: '' },
    system_prompt: { type: String, default: '' },
    addtime: { type: Number, default: 0 },
    updatetime: { type: Number, default: 0 },
  },
  { collection: 'item_ai_config', versionKey: false },
);
itemAiConfigSchema.index({ item_id: 1 }, { unique: true });

const ItemAiConfig = defineModel<ItemAiConfigDoc>('ItemAiConfig', itemAiConfigSchema);

/** ShowDoc's row for an item that has none: everything off. */
export const AI_CONFIG_OFF: AiConfig = {
  enabled: 0,
  dialog_collapsed: 1,
  guest_enabled: 0,
  welcome_message: '',
  system_prompt: '',
};

export const MAX_WELCOME_LENGTH = 2000;
export const MAX_ITEM_PROMPT_LENGTH = 4000;

const cache = perContext((context) => {
  const rows = new ReadCache<number, AiConfig>({ maxEntries: 10_000 });
  context.bus.subscribe('item.changed', ({ itemId }) => rows.drop(itemId), { synchronous: true });
  return rows;
});

/** The item's settings (the "off" row when it has none). */
export async function aiConfigOf(itemId: number): Promise<AiConfig> {
  if (!(itemId > 0)) return { ...AI_CONFIG_OFF };
  const row = await cache().get(itemId, async () => {
    const doc = await ItemAiConfig.findOne({ item_id: itemId }, { _id: 0 }).lean();
    return doc
      ? {
          enabled: doc.enabled ? 1 : 0,
          dialog_collapsed: doc.dialog_collapsed ? 1 : 0,
          guest_enabled: doc.guest_enabled ? 1 : 0,
          welcome_message: doc.welcome_message ?? '',
          system_prompt: doc.system_prompt ?? '',
        }
      : { ...AI_CONFIG_OFF };
  });
  return { ...row };
}

/** item/getAiConfig: anyone who may visit the item reads it (ShowDoc's checkItemVisit). */
export async function readItemAiConfig(
  actor: Actor,
  itemId: number,
  itemPassword = '',
): Promise<AiConfig> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  await requireAction(actor, 'item.useAssistant', itemId, { itemPassword });
  return aiConfigOf(itemId);
}

export type AiConfigChange = Partial<AiConfig>;

/**
 * item/setAiConfig: the item's managers change the settings they send. Guests may only be let in
 * on an open item (no visit password): the assistant must not become a way around the password.
 */
export async function saveItemAiConfig(
  actor: Actor,
  itemId: number,
  change: AiConfigChange,
): Promise<{ success: true }> {
  if (!(itemId > 0)) throw errors.failed('Item ID is required');
  const access = await requireAction(actor, 'item.manage', itemId);
  const fields = Object.fromEntries(
    Object.entries(change).filter(([, value]) => value !== undefined),
  ) as AiConfigChange;
  if (!Object.keys(fields).length) throw errors.failed('Nothing to update');
  if ((fields.welcome_message ?? '').length > MAX_WELCOME_LENGTH)
    throw errors.failed(`The welcome message may be at most ${MAX_WELCOME_LENGTH} characters`);
  if ((fields.system_prompt ?? '').length > MAX_ITEM_PROMPT_LENGTH)
    throw errors.failed(`The system prompt may be at most ${MAX_ITEM_PROMPT_LENGTH} characters`);
  if (fields.guest_enabled && access.item.password)
    throw errors.failed('Guests can use the assistant only on open items (no visit password)');
  const now = nowSeconds();
  await ItemAiConfig.updateOne(
    { item_id: itemId },
    { $set: { ...fields, updatetime: now }, $setOnInsert: { addtime: now } },
    { upsert: true },
  );
  events.publish('item.changed', { itemId, change: 'updated', byUid: actor.uid });
  return { success: true };
}
