/**
 * Item visit passwords. ShowDoc kept them in plain text and compared on every request; Quire
 * stores a bcrypt hash. Clients still send the plain password (`_item_pwd`) with each request, so
 * successful verifications are remembered (keyed by item, stored hash and a SHA-256 of the
 * attempt) to keep bcrypt off the hot path. Changing the password changes the stored hash, which
 * invalidates every remembered answer.
 *
 * Guessing is braked per item and client (throttle `itemPassword`): after too many misses every
 * route that accepts a visit password — item/pwd and `_item_pwd` on the read routes, which all
 * come here — answers 10100 until the window passes. Each new attempt costs one bcrypt compare
 * whether or not the item has a password, so timing tells nothing either.
 */
import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { countFailure, currentClient, perContext, requireUnderLimit } from '../platform';
import type { ItemDoc } from './cache';

/** The instance's answers to attempts already checked (a repeated attempt costs no bcrypt). */
const rememberedAnswers = perContext(() => new Map<string, boolean>());
const LIMIT = 10_000;

export function hashItemPassword(plain: string): Promise<string> {
  return bcrypt.hash(plain, 10);
}

/** Compared against when the item has no password, so that path costs the same. */
let dummyHash: Promise<string> | undefined;

export async function verifyItemPassword(
  item: Pick<ItemDoc, 'item_id' | 'password'>,
  attempt: string,
): Promise<boolean> {
  if (!attempt) return false;
  const throttleKey = `${item.item_id}:${currentClient()}`;
  await requireUnderLimit('itemPassword', throttleKey);
  const stored = item.password || (await (dummyHash ??= hashItemPassword('-')));
  const key = `${item.item_id}:${stored}:${createHash('sha256').update(attempt).digest('hex')}`;
  const remembered = rememberedAnswers();
  const known = remembered.get(key);
  if (known !== undefined) return known; // a repeated attempt teaches nothing new: not counted
  const ok = (await bcrypt.compare(attempt, stored)) && Boolean(item.password);
  if (remembered.size >= LIMIT) remembered.delete(remembered.keys().next().value as string);
  remembered.set(key, ok);
  if (!ok) await countFailure('itemPassword', throttleKey);
  return ok;
}
