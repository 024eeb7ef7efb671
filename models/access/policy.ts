/**
 * The permission policy (models/access's index.ts is its face). Every path that reaches an item or a page — REST, Socket.IO room
 * joins, collaborative documents, search, exports, share links — asks here, so the answer is the
 * same everywhere.
 *
 * Levels (reference accounts §3, pages §0.4), each implying the ones before it:
 *   visit  — may read the item (member of any kind, public item, or the right visit password)
 *   edit   — may write pages and catalogs (owner, member/team authority 1, or manage)
 *   manage — may change the item itself and its members (owner, authority 2, or site admin)
 *   owner  — the item's owner
 * A deleted item grants nothing. An archived item is read-only on every path: edit and manage
 * become false (site admins included), visit stays. A type-3 item (a RunApi project) is written by
 * the RunApi client, its scripts and agents through the API with the user's own rights, as on
 * ShowDoc; the web client shows it read-only (spec 002 §6 "Type 3 projects force manage and edit to
 * false"): `clientFlags` answers no edit or manage for it.
 *
 * Catalog restriction: a member row may list top-level catalogs; such a member sees only pages
 * inside those catalogs (and none at the root), on every path — unlike ShowDoc, which only hid
 * menu entries. The personal row's restriction wins; a team row's applies only when the personal
 * row has none (or there is no personal row). Owners, item admins and site admins are never
 * restricted.
 *
 * The read model these answers come from (items, member rows, catalog trees) is cache.ts.
 */
import { ApiError, type ErrorCode, errors } from '../platform';
import {
  catalogParents,
  findLiveItem,
  type ItemDoc,
  MEMBER_ADMIN,
  MEMBER_EDIT,
  TOP_LEVEL,
  type MemberRows,
  memberKey,
  memberRowsOf,
  memberRowsOfMany,
  NO_MEMBER_ROWS,
} from './cache';
import { ACTIONS, type ActionRule, type ItemAction, type Role } from './actions';
import { verifyItemPassword } from './itemPasswords';

/** Who is asking. `uid` 0 is an anonymous visitor. */
export interface Actor {
  uid: number;
  username: string;
  /** 1 = site admin. */
  groupid: number;
  /**
   * Set when the actor calls through an AI (MCP) token: the token's limits apply on top of the
   * user's rights, here in the policy, so every models/ function a tool calls obeys them.
   */
  token?: ActorToken;
}

/** An AI token's limits: read-only tokens never edit or manage; `itemIds` (when set) bound the items. */
export interface ActorToken {
  id: number;
  permission: 'read' | 'write';
  /** null = all the user's items. */
  itemIds: number[] | null;
}

export const ANONYMOUS: Actor = { uid: 0, username: '', groupid: 0 };

export type AccessLevel = 'visit' | 'edit' | 'manage' | 'owner';

export interface ItemAccess {
  item: ItemDoc;
  visit: boolean;
  edit: boolean;
  manage: boolean;
  owner: boolean;
  siteAdmin: boolean;
  archived: boolean;
  /** Every write is refused: the item is archived (see above). */
  readOnly: boolean;
  /** A RunApi project (type 3): the web client shows it read-only (clientFlags). */
  runApi: boolean;
  /**
   * The rights the actor's role gives before the archive rule: for reads that need an editor or a
   * manager (change log, member lists, item detail), which an archived item still allows.
   */
  editor: boolean;
  manager: boolean;
  /** The authority that applies through membership (-1 when none: owner, admin, stranger). */
  memberGroupId: number;
  /** Top-level catalog ids the actor is limited to; null = the whole item. */
  catalogRestriction: number[] | null;
}

export function isSiteAdmin(actor: Actor): boolean {
  return actor.uid > 0 && actor.groupid === 1;
}

/** The back office's gate: 10102 for visitors, 10103 for anyone but a site admin. */
export function requireSiteAdmin(actor: Actor): void {
  if (!(actor.uid > 0)) throw errors.notLoggedIn();
  if (!isSiteAdmin(actor)) throw errors.noPermission();
}

export interface AccessOptions {
  /** The visit password the client remembered (`_item_pwd`). */
  itemPassword?: string;
}

/** Everything the actor may do with an item (null when the item does not exist or is deleted). */
export async function itemAccess(
  actor: Actor,
  idOrItem: number | string | ItemDoc,
  options: AccessOptions = {},
): Promise<ItemAccess | null> {
  const item = typeof idOrItem === 'object' ? idOrItem : await findLiveItem(idOrItem);
  if (!item || item.is_del) return null;
  const rows = needsMemberRows(actor, item)
    ? await memberRowsOf(item.item_id, actor.uid)
    : NO_MEMBER_ROWS;
  const access = accessFrom(actor, item, rows);
  if (!access.visit && options.itemPassword)
    access.visit = await verifyItemPassword(item, options.itemPassword);
  return access;
}

/**
 * itemAccess of many users to one live item (no visit password): the member rows not kept yet
 * are read in one query per table, not one pair of queries per user — a notice to hundreds of
 * subscribers checks them all at once.
 */
export async function itemAccessOfMany(
  actors: Actor[],
  item: ItemDoc,
): Promise<Map<number, ItemAccess>> {
  const asked = actors.filter((actor) => needsMemberRows(actor, item));
  const rows = asked.length
    ? await memberRowsOfMany(
        item.item_id,
        asked.map((actor) => actor.uid),
      )
    : new Map<string, MemberRows>();
  return new Map(
    actors.map((actor) => [
      actor.uid,
      accessFrom(actor, item, rows.get(memberKey(item.item_id, actor.uid)) ?? NO_MEMBER_ROWS),
    ]),
  );
}

const needsMemberRows = (actor: Actor, item: ItemDoc) => actor.uid > 0 && item.uid !== actor.uid;

/** RunApi projects: read-only in the web client (spec 002 §6), written through the API. */
export const RUNAPI_ITEM_TYPE = 3;

/** The refusal of a write to a read-only item. */
export function readOnlyMessage(access: Pick<ItemAccess, 'archived'>): string {
  return access.archived ? 'This item is archived and read-only' : 'This item is read-only';
}

/** The access these member rows give (the visit password aside). */
function accessFrom(actor: Actor, item: ItemDoc, rows: MemberRows): ItemAccess {
  const siteAdmin = isSiteAdmin(actor);
  const owner = actor.uid > 0 && item.uid === actor.uid;
  let memberGroupId = -1;
  let catalogRestriction: number[] | null = null;
  let isMember = false;
  if (rows.personal) {
    isMember = true;
    memberGroupId = rows.personal.member_group_id;
    catalogRestriction = restrictionOf(rows.personal);
  }
  for (const row of rows.teams) {
    isMember = true;
    memberGroupId = Math.max(memberGroupId, row.member_group_id);
    if (!catalogRestriction) catalogRestriction = restrictionOf(row);
  }
  let manager = owner || siteAdmin || memberGroupId === MEMBER_ADMIN;
  let editor = manager || memberGroupId === MEMBER_EDIT;
  let visit = manager || isMember || !item.password;
  if (manager) catalogRestriction = null;
  // An AI token narrows the user's rights: outside its items nothing, read-only never writes
  // (the editor/manager roles stay: they gate reads such as the change log).
  let writes = true;
  const token = actor.token;
  if (token?.itemIds && !token.itemIds.includes(item.item_id)) {
    manager = editor = visit = writes = false;
  } else if (token?.permission === 'read') writes = false;
  const archived = item.is_archived === 1;
  const readOnly = archived;
  return {
    item,
    visit,
    edit: editor && writes && !readOnly,
    manage: manager && writes && !readOnly,
    owner,
    siteAdmin,
    archived,
    readOnly,
    runApi: item.item_type === RUNAPI_ITEM_TYPE,
    editor,
    manager,
    memberGroupId,
    catalogRestriction: catalogRestriction && catalogRestriction.length ? catalogRestriction : null,
  };
}

function restrictionOf(row: { cat_id?: number; cat_ids?: number[] }): number[] | null {
  const ids = (row.cat_ids ?? []).filter((n) => n > 0);
  if (ids.length) return ids;
  return row.cat_id && row.cat_id > 0 ? [row.cat_id] : null;
}

export function allows(access: ItemAccess, level: AccessLevel): boolean {
  switch (level) {
    case 'visit':
      return access.visit;
    case 'edit':
      return access.edit;
    case 'manage':
      return access.manage;
    case 'owner':
      return access.owner && access.manage;
  }
}

export interface Denials {
  /** Code when the item is missing or deleted (ShowDoc: mostly 10101). */
  missing?: ErrorCode;
  /** Code when the level is not met (ShowDoc: 10303 for most item actions, 10101 for page reads). */
  denied?: ErrorCode;
  message?: string;
}

/** The actor's access, or an ApiError with the code the calling endpoint uses. */
export async function requireItem(
  actor: Actor,
  idOrItem: number | string | ItemDoc,
  level: AccessLevel,
  options: AccessOptions & Denials = {},
): Promise<ItemAccess> {
  const access = await itemAccess(actor, idOrItem, options);
  if (!access) throw new ApiError(options.missing ?? 10101, 'Item not found');
  if (!allows(access, level)) {
    const readOnlyWrite = access.readOnly && level !== 'visit';
    throw new ApiError(
      options.denied ?? 10303,
      readOnlyWrite ? readOnlyMessage(access) : options.message,
    );
  }
  return access;
}

/**
 * The top-level catalog a catalog belongs to (walking up parents), given the item's catalogs.
 * Returns 0 for the root (cat_id 0).
 */
export function topLevelCatalogOf(
  catId: number,
  parentOf: ReadonlyMap<number, { parent_cat_id: number; level: number }>,
): number {
  let current = catId;
  for (let guard = 0; current > 0 && guard < 16; guard++) {
    const cat = parentOf.get(current);
    if (!cat) return current;
    if (cat.parent_cat_id === 0 || cat.level <= TOP_LEVEL) return current;
    current = cat.parent_cat_id;
  }
  return current;
}

/** Whether a restricted actor may see something in catalog `catId` (0 = item root). */
export function catalogVisible(
  access: ItemAccess,
  catId: number,
  parents: ReadonlyMap<number, { parent_cat_id: number; level: number }>,
): boolean {
  if (!access.catalogRestriction) return true;
  if (!catId) return false;
  return access.catalogRestriction.includes(topLevelCatalogOf(catId, parents));
}

/** Checks one catalog (loading the item's tree only when the actor is restricted). */
export async function canSeeCatalog(access: ItemAccess, catId: number): Promise<boolean> {
  if (!access.catalogRestriction) return true;
  return catalogVisible(access, catId, await catalogParents(access.item.item_id));
}

/**
 * The actor's access when they may do `action` to the item; otherwise the refusal the action's
 * rule names (models/access/actions.ts).
 */
export async function requireAction(
  actor: Actor,
  action: ItemAction,
  idOrItem: number | string | ItemDoc,
  options: AccessOptions = {},
): Promise<ItemAccess> {
  const rule: ActionRule = ACTIONS[action];
  const answer = { ...options, missing: rule.missing, denied: rule.denied, message: rule.message };
  if (!isRole(rule.needs)) return requireItem(actor, idOrItem, rule.needs, answer);
  const access = await itemAccess(actor, idOrItem, options);
  if (!access) throw new ApiError(answer.missing ?? 10101, 'Item not found');
  if (!hasRole(access, rule.needs)) throw new ApiError(answer.denied ?? 10303, answer.message);
  return access;
}

/**
 * The refusal `action`'s rule names when `access` does not allow it (null when it does): for
 * checks on an access already read, such as a page's (models/pages requirePage).
 */
export function refusalOf(access: ItemAccess, action: ItemAction): ApiError | null {
  if (permits(access, action)) return null;
  const rule: ActionRule = ACTIONS[action];
  const readOnlyWrite = !isRole(rule.needs) && rule.needs !== 'visit' && access.readOnly;
  return new ApiError(rule.denied ?? 10303, readOnlyWrite ? readOnlyMessage(access) : rule.message);
}

/** Whether an access already read allows `action` (for flags and filters; no refusal). */
export function permits(access: ItemAccess, action: ItemAction): boolean {
  const { needs } = ACTIONS[action] as ActionRule;
  return isRole(needs) ? hasRole(access, needs) : allows(access, needs);
}

const isRole = (need: ActionRule['needs']): need is Role =>
  need !== 'visit' && need !== 'edit' && need !== 'manage';

function hasRole(access: ItemAccess, role: Role): boolean {
  switch (role) {
    case 'editor':
    case 'manager':
      return access[role];
    case 'member':
      return access.owner || access.siteAdmin || access.memberGroupId >= 0;
    case 'itemOwner':
      return access.owner;
    case 'ownerOrSiteAdmin':
      return access.owner || access.siteAdmin;
  }
}

/** Markdown items (regular, single page): the kinds whose page text suggest mode addresses. */
const TEXT_ITEM_TYPES = new Set([0, 1, 2]);

/**
 * Whether the actor may propose changes to the item's pages (suggest mode, issue #41): whoever
 * may edit them, and — when the item's `suggest_only_readers` is on — its read-only members
 * (they may propose, never change). Never on an archived item nor through a read-only AI token.
 */
export function maySuggest(access: ItemAccess, actor: Actor): boolean {
  if (!TEXT_ITEM_TYPES.has(access.item.item_type ?? 1) || access.readOnly) return false;
  if (!(actor.uid > 0) || actor.token?.permission === 'read') return false;
  if (permits(access, 'page.update')) return true;
  return permits(access, 'page.suggest') && access.item.suggest_only_readers === 1;
}

/**
 * The flags the web client shows buttons by (`item/info`): the named actions' answers, so the UI
 * never re-derives permissions.
 */
export function clientFlags(access: ItemAccess, actor: Actor) {
  // A RunApi project is edited in the RunApi client, never in the web one (spec 002 §6).
  const edit = permits(access, 'page.update') && !access.runApi;
  const manage = permits(access, 'item.manage') && !access.runApi;
  return {
    is_login: actor.uid > 0,
    item_edit: edit,
    item_manage: manage,
    ItemPermn: edit,
    ItemCreator: manage,
    /** Quire: may propose changes to pages (suggest mode); a ShowDoc client ignores it. */
    item_suggest: maySuggest(access, actor) && !access.runApi,
  };
}
