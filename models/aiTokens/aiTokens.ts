/**
 * AI tokens (`ai_token/*`, ShowDoc's `user_ai_token`): a user's keys for the MCP endpoint, each
 * read-only or read-write, over all the user's items or selected ones, optionally expiring.
 *
 * Safer than ShowDoc: the raw token (`ai_` + 86 hex characters, 43 random bytes) is shown once,
 * by create and reset, and stored only as its SHA-256 — a plain hash is enough for a random
 * 344-bit secret, and it lets a request find its token with one indexed lookup. Lists and details
 * show the preview ShowDoc shows (`ai_ab***abcdef`). Selected items must be items the user can
 * reach (ShowDoc stored any id). A revoked token stays listed until deleted.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Actor, ActorToken } from '../access';
import { User } from '../accounts';
import { Item } from '../items';
import { myItemList } from '../items';
import { errors, formatNow, formatUnix, nextId, nowSeconds } from '../platform';
import { UserAiToken, type UserAiTokenDoc } from './schemas';

const TOKEN_PREFIX = 'ai_';
const TOKEN_RANDOM_BYTES = 43;
const TOKEN_LENGTH = TOKEN_PREFIX.length + TOKEN_RANDOM_BYTES * 2;
export const MAX_TOKEN_NAME = 100;
/** Tokens per user (ShowDoc has no limit; a bound keeps a list and its screen small). */
export const MAX_TOKENS_PER_USER = 100;
/** Items one token may be limited to. */
export const MAX_SELECTED_ITEMS = 1000;
/** last_used_at is written at most this often per token (every call would be a write). */
const TOUCH_EVERY_SECONDS = 60;

const TOKEN_ID_REQUIRED = 'Token ID is required';
const TOKEN_MISSING = 'Token does not exist';

export function hashToken(raw: string): string {
  return createHash('sha256').update(raw).digest('hex');
}

function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(TOKEN_RANDOM_BYTES).toString('hex');
}

/** ShowDoc's maskToken: the first 5 and last 6 characters. */
function maskToken(raw: string): string {
  return raw.length <= 10 ? raw : `${raw.slice(0, 5)}***${raw.slice(-6)}`;
}

export function isTokenFormat(raw: string): boolean {
  return (
    typeof raw === 'string' &&
    raw.length === TOKEN_LENGTH &&
    raw.startsWith(TOKEN_PREFIX) &&
    /^[0-9a-f]+$/i.test(raw.slice(TOKEN_PREFIX.length))
  );
}

/** A token as ShowDoc's list and detail answer it (no raw token, no hash). */
export interface AiTokenRow {
  id: number;
  uid: number;
  name: string;
  permission: 'read' | 'write';
  scope: 'all' | 'selected';
  /** JSON text of the item ids, as ShowDoc's column holds it. */
  allowed_items: string;
  can_create_item: number;
  can_delete_item: number;
  auto_add_created_item: number;
  /** Quire: 1 = writes directly on items in suggest mode (else its edits are suggestions). */
  write_directly: number;
  expires_at: string | null;
  created_at: string;
  last_used_at: string | null;
  is_active: number;
  token_preview: string;
  /** Quire: whether the token works now (active and not expired). */
  is_expired: number;
}

function tokenRow(doc: UserAiTokenDoc, now = nowSeconds()): AiTokenRow {
  return {
    id: doc.id,
    uid: doc.uid,
    name: doc.name,
    permission: doc.permission,
    scope: doc.scope,
    allowed_items: JSON.stringify(doc.allowed_items ?? []),
    can_create_item: doc.can_create_item,
    can_delete_item: doc.can_delete_item,
    auto_add_created_item: doc.auto_add_created_item,
    write_directly: doc.write_directly ?? 0,
    expires_at: doc.expires_at || null,
    created_at: doc.created_at,
    last_used_at: doc.last_used_at || null,
    is_active: doc.is_active,
    token_preview: doc.token_preview,
    is_expired: doc.expires_time > 0 && doc.expires_time <= now ? 1 : 0,
  };
}

function requireUser(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  // A token never manages tokens (an agent could otherwise mint itself a wider one).
  if (actor.token) throw errors.noPermission('AI tokens cannot manage AI tokens');
}

function requireId(id: number): void {
  if (!(id > 0)) throw errors.failed(TOKEN_ID_REQUIRED);
}

async function ownToken(actor: Actor, id: number): Promise<UserAiTokenDoc> {
  requireUser(actor);
  requireId(id);
  const doc = await UserAiToken.findOne({ id, uid: actor.uid }, { _id: 0 }).lean<UserAiTokenDoc>();
  if (!doc) throw errors.failed(TOKEN_MISSING);
  return doc;
}

/** `2026-12-31`, `2026-12-31 23:59:59`, ISO text → Unix seconds (server zone for plain dates). */
function parseExpiry(raw: string): { text: string; time: number } {
  const value = raw.trim();
  if (!value) return { text: '', time: 0 };
  const plain = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(value);
  let time: number;
  if (plain) {
    const [, y, m, d, hh = '23', mm = '59', ss = plain[4] ? '00' : '59'] = plain;
    // Interpreted in the server's zone: find the offset that formats back to the same wall time.
    const guess = Date.UTC(+y, +m - 1, +d, +hh, +mm, +ss) / 1000;
    const shown = formatUnix(guess);
    const shownUtc =
      Date.UTC(
        +shown.slice(0, 4),
        +shown.slice(5, 7) - 1,
        +shown.slice(8, 10),
        +shown.slice(11, 13),
        +shown.slice(14, 16),
        +shown.slice(17, 19),
      ) / 1000;
    time = guess - (shownUtc - guess);
  } else time = Math.floor(Date.parse(value) / 1000);
  if (!Number.isFinite(time) || time <= 0) throw errors.failed('Invalid expiry time format');
  return { text: formatUnix(time), time };
}

function parseItemIds(raw: unknown): number[] {
  const list =
    typeof raw === 'string'
      ? raw.trim().startsWith('[')
        ? safeJsonArray(raw)
        : raw.split(',')
      : Array.isArray(raw)
        ? raw
        : [];
  const ids = list
    .map((v) => (typeof v === 'number' ? v : Number(String(v).trim())))
    .filter((n) => Number.isSafeInteger(n) && n > 0);
  return [...new Set(ids)];
}

function safeJsonArray(text: string): unknown[] {
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed : [];
  } catch {
    return [];
  }
}

/** Only items the user can reach may be selected (ShowDoc stored any id). */
async function checkReachable(actor: Actor, ids: number[]): Promise<void> {
  if (ids.length > MAX_SELECTED_ITEMS)
    throw errors.failed(`At most ${MAX_SELECTED_ITEMS} items per token`);
  if (!ids.length) return;
  const reachable = new Set((await availableItems(actor)).items.map((i) => i.item_id));
  const foreign = ids.filter((id) => !reachable.has(id));
  if (foreign.length) throw errors.failed(`You cannot access item(s): ${foreign.join(', ')}`);
}

function flag(value: unknown, fallback: number): number {
  if (value === undefined || value === null || value === '') return fallback;
  if (value === true || value === 'true') return 1;
  if (value === false || value === 'false') return 0;
  return Number(value) ? 1 : 0;
}

export interface AiTokenInput {
  name?: string;
  permission?: string;
  scope?: string;
  allowed_items?: unknown;
  can_create_item?: unknown;
  can_delete_item?: unknown;
  auto_add_created_item?: unknown;
  write_directly?: unknown;
  expires_at?: string;
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (name.length > MAX_TOKEN_NAME)
    throw errors.failed(`The token name must be at most ${MAX_TOKEN_NAME} characters`);
  return name;
}

/** ai_token/create: the raw token is in this answer and nowhere else, ever. */
export async function createAiToken(
  actor: Actor,
  input: AiTokenInput,
): Promise<{ token: string; message: string; id: number }> {
  requireUser(actor);
  const permission = input.permission || 'write';
  const scope = input.scope || 'all';
  if (permission !== 'read' && permission !== 'write')
    throw errors.failed('Invalid permission type');
  if (scope !== 'all' && scope !== 'selected') throw errors.failed('Invalid scope type');
  const items = parseItemIds(input.allowed_items);
  if (scope === 'selected' && !items.length)
    throw errors.failed('Select at least one item for a token limited to selected items');
  const expiry = parseExpiry(input.expires_at ?? '');
  const name = checkName(input.name ?? '') || 'AI Token';
  await checkReachable(actor, items);
  if ((await UserAiToken.countDocuments({ uid: actor.uid })) >= MAX_TOKENS_PER_USER)
    throw errors.failed(`At most ${MAX_TOKENS_PER_USER} tokens per user`);
  const raw = generateToken();
  const id = await nextId('user_ai_token_id');
  await UserAiToken.create({
    id,
    uid: actor.uid,
    token_hash: hashToken(raw),
    token_preview: maskToken(raw),
    name,
    permission,
    scope,
    allowed_items: scope === 'selected' ? items : [],
    can_create_item: flag(input.can_create_item, 1),
    can_delete_item: flag(input.can_delete_item, 0),
    auto_add_created_item: flag(input.auto_add_created_item, 1),
    write_directly: flag(input.write_directly, 0),
    expires_at: expiry.text,
    expires_time: expiry.time,
    created_at: formatNow(),
    last_used_at: '',
    last_used_time: 0,
    is_active: 1,
    client_name: '',
  });
  return { token: raw, message: 'Token created, keep it safe: it is shown only once', id };
}

/** ai_token/list: the caller's tokens, newest first, masked. */
export async function listAiTokens(actor: Actor): Promise<{ tokens: AiTokenRow[]; total: number }> {
  requireUser(actor);
  const docs = await UserAiToken.find({ uid: actor.uid }, { _id: 0 })
    .sort({ id: -1 })
    .lean<UserAiTokenDoc[]>();
  const now = nowSeconds();
  const tokens = docs.map((doc) => tokenRow(doc, now));
  return { tokens, total: tokens.length };
}

/** ai_token/detail: one token, masked, with the names of its selected items. */
export async function aiTokenDetail(
  actor: Actor,
  id: number,
): Promise<AiTokenRow & { allowed_items_detail?: Array<{ item_id: number; item_name: string }> }> {
  const doc = await ownToken(actor, id);
  const row: ReturnType<typeof tokenRow> & {
    allowed_items_detail?: Array<{ item_id: number; item_name: string }>;
  } = tokenRow(doc);
  if (doc.scope === 'selected' && doc.allowed_items.length) {
    const items = await Item.find(
      { item_id: { $in: doc.allowed_items }, is_del: 0 },
      { item_id: 1, item_name: 1, _id: 0 },
    ).lean();
    row.allowed_items_detail = items.map((i) => ({ item_id: i.item_id, item_name: i.item_name }));
  }
  return row;
}

/** ai_token/update: changes the fields sent. */
export async function updateAiToken(
  actor: Actor,
  id: number,
  input: AiTokenInput,
): Promise<{ message: string }> {
  const doc = await ownToken(actor, id);
  const set: Partial<UserAiTokenDoc> = {};
  if (input.name !== undefined) set.name = checkName(input.name);
  if (input.permission === 'read' || input.permission === 'write')
    set.permission = input.permission;
  if (input.scope === 'all' || input.scope === 'selected') set.scope = input.scope;
  if (input.allowed_items !== undefined) {
    const items = parseItemIds(input.allowed_items);
    await checkReachable(actor, items);
    set.allowed_items = items;
  }
  if (input.can_create_item !== undefined) set.can_create_item = flag(input.can_create_item, 1);
  if (input.can_delete_item !== undefined) set.can_delete_item = flag(input.can_delete_item, 0);
  if (input.auto_add_created_item !== undefined)
    set.auto_add_created_item = flag(input.auto_add_created_item, 1);
  if (input.write_directly !== undefined) set.write_directly = flag(input.write_directly, 0);
  if (input.expires_at !== undefined) {
    const expiry = parseExpiry(input.expires_at);
    set.expires_at = expiry.text;
    set.expires_time = expiry.time;
  }
  if (!Object.keys(set).length) throw errors.failed('Nothing to update');
  const scope = set.scope ?? doc.scope;
  const items = set.allowed_items ?? doc.allowed_items;
  if (scope === 'selected' && !items.length)
    throw errors.failed('Select at least one item for a token limited to selected items');
  await UserAiToken.updateOne({ id, uid: actor.uid }, { $set: set });
  return { message: 'Token updated' };
}

/** ai_token/reset: a new raw token replaces the old one, which stops working at once. */
export async function resetAiToken(
  actor: Actor,
  id: number,
): Promise<{ token: string; message: string }> {
  await ownToken(actor, id);
  const raw = generateToken();
  await UserAiToken.updateOne(
    { id, uid: actor.uid },
    { $set: { token_hash: hashToken(raw), token_preview: maskToken(raw) } },
  );
  return { token: raw, message: 'Token reset, keep the new token safe: it is shown only once' };
}

/** ai_token/revoke: the token stops working but stays listed. */
export async function revokeAiToken(actor: Actor, id: number): Promise<{ message: string }> {
  await ownToken(actor, id);
  await UserAiToken.updateOne({ id, uid: actor.uid }, { $set: { is_active: 0 } });
  return { message: 'Token revoked' };
}

/** ai_token/delete: removed for good. */
export async function deleteAiToken(actor: Actor, id: number): Promise<{ message: string }> {
  await ownToken(actor, id);
  await UserAiToken.deleteOne({ id, uid: actor.uid });
  return { message: 'Token deleted' };
}

/** ai_token/availableItems: the items a token may be limited to (everything the user reaches). */
export async function availableItems(
  actor: Actor,
): Promise<{ items: Array<{ item_id: number; item_name: string }>; total: number }> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  const list = await myItemList(
    { uid: actor.uid, username: actor.username, groupid: actor.groupid },
    { itemGroupId: 0, original: false },
  );
  const items = list.map((entry) => ({
    item_id: Number(entry.item_id),
    item_name: String(entry.item_name),
  }));
  return { items, total: items.length };
}

// ---------------------------------------------------------------------------------------------
// The endpoint's side

export interface AiTokenCaller {
  actor: Actor;
  token: UserAiTokenDoc;
}

/** The live token behind a raw value, with its user as an Actor carrying the token's limits. */
export async function authenticateAiToken(raw: string): Promise<AiTokenCaller | null> {
  if (!isTokenFormat(raw)) return null;
  const doc = await UserAiToken.findOne(
    { token_hash: hashToken(raw) },
    { _id: 0 },
  ).lean<UserAiTokenDoc>();
  if (!doc || doc.is_active !== 1) return null;
  if (doc.expires_time > 0 && doc.expires_time <= nowSeconds()) return null;
  const user = await User.findOne({ uid: doc.uid }, { uid: 1, username: 1, groupid: 1 }).lean();
  if (!user) return null;
  const limits: ActorToken = {
    id: doc.id,
    permission: doc.permission === 'read' ? 'read' : 'write',
    itemIds: doc.scope === 'selected' ? [...doc.allowed_items] : null,
  };
  return {
    actor: { uid: user.uid, username: user.username, groupid: user.groupid, token: limits },
    token: doc,
  };
}

/** Records a call (last_used_at), at most once a minute per token. */
export async function touchAiToken(token: UserAiTokenDoc, now = nowSeconds()): Promise<void> {
  if (now - (token.last_used_time ?? 0) < TOUCH_EVERY_SECONDS) return;
  await UserAiToken.updateOne(
    { id: token.id },
    { $set: { last_used_time: now, last_used_at: formatUnix(now) } },
  );
}

/** The MCP client that initialized with the token ("Claude"), shown as the agent's name. */
export async function rememberAiClient(token: UserAiTokenDoc, clientName: string): Promise<void> {
  const name = clientName.trim().slice(0, 60);
  if (!name || name === token.client_name) return;
  await UserAiToken.updateOne({ id: token.id }, { $set: { client_name: name } });
}

/**
 * A token limited to selected items that created an item: the item joins its scope when the
 * token says so (ShowDoc's auto_add_created_item).
 */
export async function addCreatedItemToScope(token: UserAiTokenDoc, itemId: number): Promise<void> {
  if (token.scope !== 'selected' || token.auto_add_created_item !== 1) return;
  await UserAiToken.updateOne({ id: token.id }, { $addToSet: { allowed_items: itemId } });
}
