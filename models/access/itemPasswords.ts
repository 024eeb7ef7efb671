/**
 * Item visit passwords. ShowDoc kept them in plain text and compared on every request; Quire
 * stores a bcrypt hash. Clients still send the plain password (`_item_pwd`) with each request, so
 * successful verifications are remembered (keyed by item, stored hash and a SHA-256 of the
 * attempt) to keep bcrypt off the hot path. Changing the password changes the stored hash, which
 * invalidates every remembered answer.
 */
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import type { ItemDoc } from '../items/schemas';

const remembered = new Map<string, boolean>();
const LIMIT = 10_000;

export function hashItemPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, 10);
}

export async function verifyItemPassword(item: Pick<ItemDoc, 'item_id' | 'password'>, attempt: string): Promise<boolean> {
  if (!item.password || !attempt) return false;
  const key = `${item.item_id}:${item.password}:${createHash('sha256').update(attempt).digest('hex')}`;
  const known = remembered.get(key);
  if (known !== undefined) return known;
  const ok = await bcrypt.compare(attempt, item.password);
  if (remembered.size >= LIMIT) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, ok);
  return ok;
}
