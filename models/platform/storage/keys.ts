/**
 * Storage keys: `<YYYY>/<MM>/<32 lowercase hex>`, made here from the clock and the CSPRNG. Every
 * storage implementation checks a key against the same rule before using it, so a key can never
 * name anything outside the storage (no `..`, no separators of its own).
 */
import { randomBytes } from 'node:crypto';

const KEY_RULE = /^\d{4}\/\d{2}\/[0-9a-f]{32}$/;

export function newStorageKey(now = new Date()): string {
  const year = String(now.getUTCFullYear()).padStart(4, '0');
  const month = String(now.getUTCMonth() + 1).padStart(2, '0');
  return `${year}/${month}/${randomBytes(16).toString('hex')}`;
}

export function assertStorageKey(key: string): void {
  if (!KEY_RULE.test(key)) throw new Error('invalid storage key');
}
