/**
 * Items: creating, changing, archiving, transferring and deleting documentation projects
 * (reference accounts §9.3–§9.5, §9.12–§9.14). Every function takes the acting user, asks
 * models/access.ts, writes, and publishes `item.changed`.
 *
 * Departures from ShowDoc, for safety (the response shapes are kept):
 * - visit passwords are stored as bcrypt hashes and never returned (`password` is always '');
 * - `update` changes only the fields that were sent (ShowDoc blanked omitted name/description/
 *   password, silently making an item public);
 * - archive, transfer and delete ask for the caller's own login password (ShowDoc asked for the
 *   owner's, so item admins had to know someone else's password); transfer and delete are for
 *   the owner or a site admin only;
 * - an archived item is read-only on every write path (models/access.ts).
 */
import { hashItemPassword, type ItemAccess, permits, requireAction, type Actor } from '../access';
import { errors, events, nextId, nowSeconds } from '../platform';
import { type AiConfig, aiConfigOf } from './aiConfig';
import { addItemToGroups, groupIdsOf, setItemGroups } from './itemGroups';
import { Item, type ItemDoc } from './schemas/item';
import { itemPages } from './ports';
import { User, type UserDoc, verifyPassword } from '../accounts';

export const MAX_ITEM_NAME = 100;
export const MAX_DESCRIPTION = 1000;
export const MAX_DOMAIN = 50;
const MAX_PASSWORD_BYTES = 100;
/** Types this server creates: regular, single page, RunApi (imports), spreadsheet, whiteboard. */
export const CREATABLE_TYPES = [1, 2, 3, 4, 5, 6];
/** Kanban: its board page is made by models/kanban on first use. */
const KANBAN_ITEM = 6;
/** The text of a new single-page item's page (ShowDoc's welcome sentence). */
export const SINGLE_PAGE_WELCOME =
  'Welcome to your single-page document. Edit this page to get started.';

/** An item row as ShowDoc emits it: every column a string; the visit password never leaves. */
export interface ItemRow {
  item_id: string;
  item_name: string;
  item_description: string;
  uid: string;
  username: string;
  password: string;
  addtime: string;
  last_update_time: string;
  item_domain: string;
  item_type: string;
  is_archived: string;
  is_del: string;
  del_time: string;
  allow_comment: string;
  allow_feedback: string;
  co_edit: string;
  suggest_only_readers: string;
}

export function itemRow(item: ItemDoc): ItemRow {
  return {
    item_id: String(item.item_id),
    item_name: item.item_name ?? '',
    item_description: item.item_description ?? '',
    uid: String(item.uid),
    username: item.username ?? '',
    password: '',
    addtime: String(item.addtime ?? 0),
    last_update_time: String(item.last_update_time ?? 0),
    item_domain: item.item_domain ?? '',
    item_type: String(item.item_type ?? 1),
    is_archived: String(item.is_archived ?? 0),
    is_del: String(item.is_del ?? 0),
    del_time: String(item.del_time ?? 0),
    allow_comment: String(item.allow_comment ?? 0),
    allow_feedback: String(item.allow_feedback ?? 0),
    co_edit: String(item.co_edit ?? 0),
    suggest_only_readers: String(item.suggest_only_readers ?? 0),
  };
}

function checkName(raw: string): string {
  const name = raw.trim();
  if (!name) throw errors.refused('Item name is required');
  if (name.length > MAX_ITEM_NAME)
    throw errors.failed(`Item name must be at most ${MAX_ITEM_NAME} characters`);
  return name;
}

function checkDescription(raw: string): string {
  if (raw.length > MAX_DESCRIPTION)
    throw errors.failed(`Description must be at most ${MAX_DESCRIPTION} characters`);
  return raw;
}

function checkVisitPassword(raw: string): string {
  if (Buffer.byteLength(raw) > MAX_PASSWORD_BYTES)
    throw errors.failed(`Visit password must be at most ${MAX_PASSWORD_BYTES} bytes`);
  return raw;
}

/** A custom address: letters and digits, not only digits (it would read as an item id). */
async function checkDomain(raw: string, ownItemId = 0): Promise<string> {
  const domain = raw.trim();
  if (!domain) return '';
  if (!/^[A-Za-z0-9]+$/.test(domain) || /^\d+$/.test(domain) || domain.length > MAX_DOMAIN)
    throw errors.noDeletePermission(
      `The custom address must be 1-${MAX_DOMAIN} letters and digits, and not only digits`,
    );
  // Deleted items keep their address (they can be restored), so it stays taken.
  if (await Item.exists({ item_domain: domain, item_id: { $ne: ownItemId } }))
    throw errors.noManagePermission('This custom address is already used by another item');
  return domain;
}

function isDuplicateKey(error: unknown): boolean {
  return (
    typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 11000
  );
}

export interface NewItemInput {
  item_name: string;
  item_type?: number;
  item_description?: string;
  /** Plain visit password; '' = public. */
  password?: string;
  item_domain?: string;
  allow_comment?: boolean;
  allow_feedback?: boolean;
  /** Caller's groups to put the new item in. */
  group_ids?: number[];
}

async function ownerOf(actor: Actor): Promise<Pick<UserDoc, 'uid' | 'username'>> {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  return { uid: actor.uid, username: actor.username };
}

/**
 * Validates a new item's fields and inserts its row (shared by create, copy and import). The
 * password is hashed here; `passwordHash` lets a copy keep its source's hash as it is.
 */
export async function insertItem(
  actor: Actor,
  input: NewItemInput & { passwordHash?: string },
): Promise<ItemDoc> {
  const owner = await ownerOf(actor);
  const name = checkName(input.item_name);
  const type = input.item_type === undefined || input.item_type === 0 ? 1 : input.item_type;
  if (!CREATABLE_TYPES.includes(type)) throw errors.failed('Unsupported item type');
  const description = checkDescription(input.item_description ?? '');
  const password = checkVisitPassword(input.password ?? '');
  const domain = await checkDomain(input.item_domain ?? '');
  const now = nowSeconds();
  const doc: ItemDoc = {
    item_id: await nextId('item_id'),
    item_name: name,
    item_description: description,
    uid: owner.uid,
    username: owner.username,
    password: password ? await hashItemPassword(password) : (input.passwordHash ?? ''),
    addtime: now,
    last_update_time: now,
    item_domain: domain,
    item_type: type,
    is_archived: 0,
    is_del: 0,
    del_time: 0,
    // A kanban item's tasks take comments from the start, as ShowDoc's do.
    allow_comment: (type === 1 && input.allow_comment) || type === KANBAN_ITEM ? 1 : 0,
    allow_feedback: type === 1 && input.allow_feedback ? 1 : 0,
    co_edit: 0,
    suggest_only_readers: 0,
  };
  try {
    await Item.create(doc);
  } catch (error) {
    if (isDuplicateKey(error))
      throw errors.noManagePermission('This custom address is already used by another item');
    throw error;
  }
  return doc;
}

/** Creates an item owned by the caller (type 2 and 4/5 items get their one page). */
export async function createItem(actor: Actor, input: NewItemInput): Promise<{ item_id: number }> {
  const item = await insertItem(actor, input);
  const { item_id: itemId, item_type: type } = item;
  if (type === 2 || type === 4 || type === 5) {
    await itemPages.use().createFirstPage({
      item_id: itemId,
      page_title: item.item_name,
      page_content: type === 2 ? SINGLE_PAGE_WELCOME : '',
      addtime: item.addtime,
      author_uid: item.uid,
      author_username: item.username,
    });
  }
  await addItemToGroups(actor, itemId, input.group_ids ?? []);
  events.publish('item.changed', { itemId, change: 'created', byUid: actor.uid });
  return { item_id: itemId };
}

export interface ItemUpdate {
  item_name?: string;
  item_description?: string;
  /** Present = change: letters and digits, unique; '' removes the custom address. */
  item_domain?: string;
  /** Present = change: non-empty sets a new password, '' makes the item public. */
  password?: string;
  /**
   * true = the client asks for a private item: with an empty `password` the current one is
   * kept (or refused when there is none) instead of opening the item.
   */
  is_private?: boolean;
  allow_comment?: boolean;
  allow_feedback?: boolean;
  /** Simultaneous editing: several editors co-edit a page's live document (no auto-lock). */
  co_edit?: boolean;
  /** Suggest mode (see ItemDoc). */
  suggest_only_readers?: boolean;
  group_ids?: number[];
}

/** Changes the fields that were sent (item manage; refused on archived items). */
export async function updateItem(
  actor: Actor,
  itemId: number,
  input: ItemUpdate,
  options: { itemPassword?: string } = {},
): Promise<void> {
  const access = await requireAction(actor, 'item.manage', itemId, options);
  const item = access.item;
  const set: Partial<ItemDoc> = {};
  if (input.item_name !== undefined) set.item_name = checkName(input.item_name);
  if (input.item_description !== undefined)
    set.item_description = checkDescription(input.item_description);
  if (input.item_domain !== undefined)
    set.item_domain = await checkDomain(input.item_domain, item.item_id);
  if (input.password !== undefined || input.is_private !== undefined) {
    const plain = checkVisitPassword(input.password ?? '');
    if (plain) set.password = await hashItemPassword(plain);
    else if (input.is_private) {
      if (!item.password) throw errors.failed('A private item needs a visit password');
    } else if (input.password !== undefined) set.password = '';
  }
  const commentsAllowed = (item.item_type || 1) === 1;
  if (input.allow_comment !== undefined && commentsAllowed)
    set.allow_comment = input.allow_comment ? 1 : 0;
  if (input.allow_feedback !== undefined && commentsAllowed)
    set.allow_feedback = input.allow_feedback ? 1 : 0;
  if (input.co_edit !== undefined) set.co_edit = input.co_edit ? 1 : 0;
  if (input.suggest_only_readers !== undefined)
    set.suggest_only_readers = input.suggest_only_readers ? 1 : 0;
  set.last_update_time = nowSeconds();
  const result = await Item.updateOne(
    { item_id: item.item_id, is_del: 0, is_archived: { $ne: 1 } },
    { $set: set },
  ).catch((error: unknown) => {
    // Lost a race for the same custom address: the answer the check above gives.
    if (isDuplicateKey(error))
      throw errors.noManagePermission('This custom address is already used by another item');
    throw error;
  });
  if (!result.matchedCount) throw errors.failed('Item not found');
  if (input.group_ids?.length) await setItemGroups(actor, item.item_id, input.group_ids);
  events.publish('item.changed', { itemId: item.item_id, change: 'updated', byUid: actor.uid });
}

export interface ItemDetail extends ItemRow {
  /** 1 when the item has a visit password (the password itself is never sent). */
  is_private: number;
  group_ids: number[];
  ai_config: AiConfig;
}

/** The full row for the settings dialog (item manager role; archived items still answer). */
export async function itemDetail(actor: Actor, itemId: number): Promise<ItemDetail> {
  const access = await requireAction(actor, 'item.readSettings', itemId);
  return {
    ...itemRow(access.item),
    is_private: access.item.password ? 1 : 0,
    group_ids: await groupIdsOf(actor, access.item.item_id),
    ai_config: await aiConfigOf(access.item.item_id),
  };
}

/** Re-authentication for irreversible actions: the caller's own login password. */
async function confirmCallerPassword(actor: Actor, password: string): Promise<void> {
  if (!password) throw errors.failed('Please enter your login password');
  const user = await User.findOne({ uid: actor.uid }, { password: 1, salt: 1 }).lean();
  if (!user || !(await verifyPassword(user, password)))
    throw errors.confirmPasswordWrong('Wrong password');
}

/** Only the owner or a site admin may give an item away or delete it. */
function requireOwnerOrSiteAdmin(access: ItemAccess): void {
  if (!permits(access, 'item.dispose'))
    throw errors.noEditPermission('Only the item owner can do this');
}

/** Makes the item read-only for good (item manage + the caller's password). */
export async function archiveItem(actor: Actor, itemId: number, password: string): Promise<void> {
  await requireAction(actor, 'item.manage', itemId);
  await confirmCallerPassword(actor, password);
  const result = await Item.updateOne(
    { item_id: itemId, is_del: 0 },
    { $set: { is_archived: 1, last_update_time: nowSeconds() } },
  );
  if (!result.matchedCount) throw errors.failed('Item not found');
  events.publish('item.changed', { itemId, change: 'archived', byUid: actor.uid });
}

/** Finds a user by username, else by e-mail address. */
export async function findUserByNameOrEmail(
  name: string,
): Promise<Pick<UserDoc, 'uid' | 'username'> | null> {
  const trimmed = name.trim();
  if (!trimmed) return null;
  const byName = await User.findOne({ username: trimmed }, { uid: 1, username: 1, _id: 0 }).lean();
  if (byName) return byName;
  if (!trimmed.includes('@')) return null;
  return User.findOne({ email: trimmed }, { uid: 1, username: 1, _id: 0 }).lean();
}

/** Transfers ownership (owner or site admin + the caller's password); returns the new row. */
export async function transferItem(
  actor: Actor,
  itemId: number,
  targetName: string,
  password: string,
): Promise<ItemRow> {
  const access = await requireAction(actor, 'item.manage', itemId);
  requireOwnerOrSiteAdmin(access);
  if (!targetName.trim()) throw errors.targetUserNotFound('User not found');
  await confirmCallerPassword(actor, password);
  const target = await findUserByNameOrEmail(targetName);
  if (!target) throw errors.targetUserNotFound('User not found');
  return giveItemTo(
    actor,
    { item_id: itemId, is_del: 0, is_archived: { $ne: 1 } },
    {
      previousOwner: access.item.uid,
      target,
    },
  );
}

/**
 * The ownership change itself, for `item/attorn` and the back office's `adminItem/attorn`: the
 * item matching `filter` goes to `target`, and both owners' memberships are re-read; the new row.
 */
export async function giveItemTo(
  actor: Actor,
  filter: { item_id: number } & Record<string, unknown>,
  change: { previousOwner: number; target: { uid: number; username: string } },
): Promise<ItemRow> {
  const { previousOwner, target } = change;
  const itemId = filter.item_id;
  const updated = await Item.findOneAndUpdate(
    filter,
    { $set: { uid: target.uid, username: target.username, last_update_time: nowSeconds() } },
    { returnDocument: 'after', lean: true },
  );
  if (!updated) throw errors.failed('Item not found');
  events.publish('item.changed', { itemId, change: 'transferred', byUid: actor.uid });
  events.publish('membership.changed', {
    itemId,
    uids: [...new Set([previousOwner, target.uid])],
    change: 'updated',
    byUid: actor.uid,
  });
  return itemRow(updated as ItemDoc);
}

/**
 * Moves the item to the admin recycle bin (is_del = 1, del_time = now): owner or site admin,
 * with the caller's password — or, for single-sign-on accounts that have no local password, the
 * item's exact name. Allowed on archived items too (archive freezes content, not disposal).
 */
export async function deleteItem(
  actor: Actor,
  itemId: number,
  confirm: { password: string; projectName: string },
): Promise<void> {
  const access = await requireAction(actor, 'item.readSettings', itemId);
  requireOwnerOrSiteAdmin(access);
  const user = await User.findOne({ uid: actor.uid }, { is_sso: 1 }).lean();
  if (user?.is_sso === 1 && !confirm.password) {
    if (!permits(access, 'item.actAsOwner'))
      throw errors.noEditPermission('Only the item owner can do this');
    if (confirm.projectName !== access.item.item_name)
      throw errors.confirmPasswordWrong('The item name does not match');
  } else await confirmCallerPassword(actor, confirm.password);
  await moveItemToBin(actor, itemId);
}

/**
 * The MCP `delete_item` of an AI token allowed to delete items (its owner chose so when creating
 * it, which stands in for the password): only the item's owner, with a write token (ShowDoc).
 */
export async function deleteItemByToken(actor: Actor, itemId: number): Promise<void> {
  if (!actor.token || actor.token.permission !== 'write')
    throw errors.noEditPermission('Only the item owner can do this');
  const access = await requireAction(actor, 'item.readSettings', itemId);
  if (!permits(access, 'item.actAsOwner'))
    throw errors.noEditPermission('Only the item owner can delete the item');
  await moveItemToBin(actor, itemId);
}

async function moveItemToBin(actor: Actor, itemId: number): Promise<void> {
  const now = nowSeconds();
  const result = await Item.updateOne(
    { item_id: itemId, is_del: 0 },
    { $set: { is_del: 1, del_time: now } },
  );
  if (!result.matchedCount) throw errors.failed('Item not found');
  events.publish('item.changed', { itemId, change: 'deleted', byUid: actor.uid });
}

/** Whether the user still owns an item that is not deleted (deleting the account waits then). */
export async function ownsLiveItems(uid: number): Promise<boolean> {
  return (await Item.exists({ uid, is_del: { $ne: 1 } })) !== null;
}
