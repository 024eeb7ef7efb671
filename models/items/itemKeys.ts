/**
 * Open-API credentials of an item (`item_token`, reference accounts §5). Managers read them with
 * `item/getKey` (made on first use) and replace the secret half with `item/resetKey`. The open
 * API resolves a key pair with `itemIdForApiKey`.
 */
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { readOnlyMessage, requireAction, type Actor } from '../access';
import { errors, nextId, nowSeconds } from '../platform';
import { Item } from './schemas/item';
import { ItemToken, type ItemTokenDoc } from './schemas/itemToken';

export interface ItemTokenRow {
  id: string;
  item_id: string;
  api_key: string;
  api_token: string;
  addtime: string;
  last_check_time: string;
}

/** 32 random hex characters followed by a random decimal number, as ShowDoc makes them. */
function newSecret(): string {
  return randomBytes(16).toString('hex') + String(randomInt(1, 2 ** 31 - 1));
}

function toRow(row: ItemTokenDoc): ItemTokenRow {
  return {
    id: String(row.id),
    item_id: String(row.item_id),
    api_key: row.api_key,
    api_token: row.api_token,
    addtime: String(row.addtime),
    last_check_time: String(row.last_check_time ?? 0),
  };
}

async function ensureToken(itemId: number): Promise<ItemTokenDoc> {
  const existing = await ItemToken.findOne({ item_id: itemId }, { _id: 0 }).lean<ItemTokenDoc>();
  if (existing) return existing;
  try {
    const created = await ItemToken.create({
      id: await nextId('item_token_id'),
      item_id: itemId,
      api_key: newSecret(),
      api_token: newSecret(),
      addtime: nowSeconds(),
      last_check_time: 0,
    });
    return created.toObject();
  } catch (error) {
    // Two first calls at once: the other one made the row.
    if ((error as { code?: unknown }).code !== 11000) throw error;
    const row = await ItemToken.findOne({ item_id: itemId }, { _id: 0 }).lean<ItemTokenDoc>();
    if (!row) throw error;
    return row;
  }
}

/** The item's key pair (item manager role). Archived items show an existing pair but get no new one. */
export async function getItemKey(actor: Actor, itemId: number): Promise<ItemTokenRow> {
  const access = await requireAction(actor, 'item.readSettings', itemId);
  // A type-3 item gets its key: it is how its pages arrive (models/access).
  if (access.archived) {
    const existing = await ItemToken.findOne({ item_id: itemId }, { _id: 0 }).lean<ItemTokenDoc>();
    if (!existing) throw errors.noEditPermission(readOnlyMessage(access));
    return toRow(existing);
  }
  return toRow(await ensureToken(itemId));
}

/** Replaces the secret half (`api_token`); the key stays. Item manage, not on archived items. */
export async function resetItemKey(actor: Actor, itemId: number): Promise<ItemTokenRow> {
  await requireAction(actor, 'item.manage', itemId);
  const row = await ensureToken(itemId);
  const updated = await ItemToken.findOneAndUpdate(
    { id: row.id },
    { $set: { api_token: newSecret() } },
    { returnDocument: 'after', lean: true, projection: { _id: 0 } },
  );
  if (!updated) throw errors.failed('Reset failed');
  return toRow(updated as ItemTokenDoc);
}

function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * The live item a key pair belongs to (null when wrong, or the item is deleted); records the
 * check time. Callers still ask models/access.ts before writing (archived items are read-only).
 */
export async function itemIdForApiKey(apiKey: string, apiToken: string): Promise<number | null> {
  if (typeof apiKey !== 'string' || typeof apiToken !== 'string' || !apiKey || !apiToken)
    return null;
  if (apiKey.length > 200 || apiToken.length > 200) return null;
  const row = await ItemToken.findOne(
    { api_key: apiKey },
    { id: 1, item_id: 1, api_token: 1, _id: 0 },
  ).lean();
  if (!row || !sameSecret(row.api_token, apiToken)) return null;
  if (!(await Item.exists({ item_id: row.item_id, is_del: 0 }))) return null;
  await ItemToken.updateOne({ id: row.id }, { $set: { last_check_time: nowSeconds() } });
  return row.item_id;
}
