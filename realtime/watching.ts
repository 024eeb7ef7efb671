/**
 * Which item and page rooms a socket is in, and why it may be there. A socket joins `item:<id>` or
 * `page:<id>` only after the permission module (models/access/index.ts, models/pages/pageAccess.ts — the same
 * checks as REST, catalog restriction and drafts included) says its user may read it, and it is
 * taken out again when that stops being true (`recheckSocket`).
 *
 * Besides the rooms the client sees, a watcher of an item (or of any of its pages) is in
 * `watchers:<item>`, and in `restricted:<item>` / `visitors:<item>` when its access is limited to
 * some catalogs / rests on the item being public or on its visit password. Those rooms let the
 * fan-out re-check only the sockets a change can affect.
 */
import { itemAccess, permits, type Actor, type ItemAccess } from '../models/access';
import { ApiError, errors, isApiError } from '../models/platform';
import { requirePage } from '../models/pages';
import { rooms, type PresenceMode } from './socketEvents';
import type { QuireSocket } from './types';

/** Rooms one socket may watch at once (items + pages), so a client cannot hoard memory. */
export const MAX_WATCHED_ROOMS = 200;

/** No visit right on an item (ShowDoc's `item/info` code). */
export const NO_ITEM_ACCESS = 10303;
/** Not found, or not visible to this user (pages answer it for both, so ids cannot be probed). */
export const NOT_FOUND = 10101;

/** Visit passwords a socket watched private items with (local to this process, like tokens). */
const itemPasswords = new WeakMap<QuireSocket, Map<number, string>>();

interface Grant {
  itemId: number;
  restricted: boolean;
  visitor: boolean;
}

function grantOf(access: ItemAccess): Grant {
  return {
    itemId: access.item.item_id,
    restricted: access.catalogRestriction !== null,
    visitor: !permits(access, 'item.belong'),
  };
}

async function checkItem(actor: Actor, itemId: number, password?: string): Promise<Grant> {
  const access = await itemAccess(actor, itemId, { itemPassword: password });
  if (!access) throw new ApiError(NOT_FOUND, 'Item not found');
  if (!permits(access, 'item.read')) throw new ApiError(NO_ITEM_ACCESS);
  return grantOf(access);
}

async function checkPage(actor: Actor, pageId: number, password?: string): Promise<Grant> {
  const { access } = await requirePage(actor, pageId, {
    action: 'page.read',
    itemPassword: password,
  });
  return grantOf(access);
}

function watchedCount(socket: QuireSocket): number {
  let count = 0;
  for (const room of socket.rooms)
    if (room.startsWith('item:') || room.startsWith('page:')) count++;
  return count;
}

function applyGrant(socket: QuireSocket, grant: Grant): void {
  const rest: string[] = [rooms.watchers(grant.itemId)];
  if (grant.restricted) rest.push(rooms.restricted(grant.itemId));
  else socket.leave(rooms.restricted(grant.itemId));
  if (grant.visitor) rest.push(rooms.visitors(grant.itemId));
  else socket.leave(rooms.visitors(grant.itemId));
  socket.join(rest);
}

function rememberPassword(socket: QuireSocket, itemId: number, password?: string): void {
  if (!password) return;
  let map = itemPasswords.get(socket);
  if (!map) itemPasswords.set(socket, (map = new Map()));
  map.set(itemId, password);
}

/** Joins `item:<id>` if the user may read the item. Throws the refusal as an ApiError. */
export async function watchItem(
  socket: QuireSocket,
  actor: Actor,
  itemId: number,
  password?: string,
): Promise<void> {
  const room = rooms.item(itemId);
  if (!socket.rooms.has(room) && watchedCount(socket) >= MAX_WATCHED_ROOMS)
    throw errors.failed(`At most ${MAX_WATCHED_ROOMS} rooms per connection`);
  const grant = await checkItem(actor, itemId, password);
  if (!socket.connected) return; // gone while we checked: joining now would leak the room
  rememberPassword(socket, itemId, password);
  applyGrant(socket, grant);
  socket.join(room);
}

/** Joins `page:<id>` if the user may read the page; returns the page's item id. */
export async function watchPage(
  socket: QuireSocket,
  actor: Actor,
  pageId: number,
  password?: string,
): Promise<number> {
  const room = rooms.page(pageId);
  if (!socket.rooms.has(room) && watchedCount(socket) >= MAX_WATCHED_ROOMS)
    throw errors.failed(`At most ${MAX_WATCHED_ROOMS} rooms per connection`);
  const grant = await checkPage(actor, pageId, password);
  if (!socket.connected) return grant.itemId;
  rememberPassword(socket, grant.itemId, password);
  applyGrant(socket, grant);
  socket.data.pages[pageId] = grant.itemId;
  socket.join(room);
  return grant.itemId;
}

function watchesItem(socket: QuireSocket, itemId: number): boolean {
  return socket.rooms.has(rooms.item(itemId)) || Object.values(socket.data.pages).includes(itemId);
}

/** Leaves the helper rooms of an item once nothing of it is watched any more. */
function releaseItemIfUnused(socket: QuireSocket, itemId: number): void {
  if (watchesItem(socket, itemId)) return;
  socket.leave(rooms.watchers(itemId));
  socket.leave(rooms.restricted(itemId));
  socket.leave(rooms.visitors(itemId));
  itemPasswords.get(socket)?.delete(itemId);
}

export function unwatchItem(socket: QuireSocket, itemId: number): void {
  socket.leave(rooms.item(itemId));
  releaseItemIfUnused(socket, itemId);
}

/**
 * Leaves a page room. Returns the presence mode the socket had there (so the caller can tell the
 * page's presence list), or null.
 */
export function unwatchPage(socket: QuireSocket, pageId: number): PresenceMode | null {
  const itemId = socket.data.pages[pageId];
  const mode = socket.data.present[pageId] ?? null;
  socket.leave(rooms.page(pageId));
  socket.leave(rooms.presence(pageId));
  delete socket.data.pages[pageId];
  delete socket.data.present[pageId];
  if (itemId !== undefined) releaseItemIfUnused(socket, itemId);
  return mode;
}

export interface Revoked {
  itemIds: number[];
  pageIds: number[];
  /** Pages whose presence list lost this socket. */
  presencePages: number[];
}

/**
 * Checks again the socket's rooms of `itemId` (the item's and its pages'), and takes it out of
 * those its user may no longer read, telling the client with `unwatched`. Errors that are not
 * refusals (database trouble) are thrown and leave the socket where it is.
 */
export async function recheckSocket(
  socket: QuireSocket,
  actor: Actor,
  itemId: number,
): Promise<Revoked> {
  const revoked: Revoked = { itemIds: [], pageIds: [], presencePages: [] };
  const passwords = itemPasswords.get(socket);
  if (socket.rooms.has(rooms.item(itemId))) {
    const refusal = await refusalOf(() => checkItem(actor, itemId, passwords?.get(itemId)), socket);
    if (refusal !== undefined) {
      unwatchItem(socket, itemId);
      socket.emit('unwatched', { item_id: itemId, error_code: refusal });
      revoked.itemIds.push(itemId);
    }
  }
  for (const [key, pageItem] of Object.entries(socket.data.pages)) {
    if (pageItem !== itemId) continue;
    const pageId = Number(key);
    const refusal = await refusalOf(
      () => checkPage(actor, pageId, passwords?.get(pageItem)),
      socket,
    );
    if (refusal === undefined) continue;
    if (unwatchPage(socket, pageId)) revoked.presencePages.push(pageId);
    socket.emit('unwatched', { page_id: pageId, error_code: refusal });
    revoked.pageIds.push(pageId);
  }
  return revoked;
}

/**
 * The refusal code when the check refuses, undefined when it grants (and then the socket's helper
 * rooms are brought up to date: the grant may have changed, e.g. a restriction was added).
 */
async function refusalOf(
  check: () => Promise<Grant>,
  socket: QuireSocket,
): Promise<number | undefined> {
  try {
    const grant = await check();
    // Only while the socket still watches something of the item (it may have unwatched meanwhile).
    if (socket.connected && watchesItem(socket, grant.itemId)) applyGrant(socket, grant);
    return undefined;
  } catch (error) {
    if (isApiError(error)) return error.code;
    throw error;
  }
}

/** Takes the socket out of a page's rooms (the page is gone); true when it was present there. */
export function dropPage(socket: QuireSocket, pageId: number): boolean {
  return unwatchPage(socket, pageId) !== null;
}
