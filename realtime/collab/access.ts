/**
 * Who may do what on a page document, decided with models/ (requirePage: the same check as every
 * REST page path, catalog restriction and drafts included) and applied to Hocuspocus connections.
 *
 * A connection is writable when its user may edit the page and the lock rule lets them: with the
 * item's "simultaneous editing" off, a live lock held by someone else makes everyone but the
 * holder a live read-only watcher. Hocuspocus refuses every update from a read-only connection
 * (the flag is read per message, so it can change while the connection is open).
 */
import type { Connection } from '@hocuspocus/server';
import { permits, type Actor } from '../../models/access';
import { type PageDoc, requirePage } from '../../models/pages';
import type {
  CollabDocumentKind,
  CollabLock,
  CollabRefusal,
  CollabServerMessage,
} from '../collabProtocol';
import type { LivePage } from './livePages';

/** Whiteboard items (ShowDoc 3.9's type 5): their page opens as a `whiteboard.<id>` document. */
export const WHITEBOARD_ITEM_TYPE = 5;

/** What authentication puts in a Hocuspocus connection's context. */
export interface CollabContext {
  user: { uid: number; username: string; name: string; groupid: number };
  pageId: number;
  itemId: number;
  kind: CollabDocumentKind;
  /** The user may edit the page (before the lock rule). */
  canEdit: boolean;
  /** The token's expiry (Unix seconds): the connection is closed when it passes. */
  tokenExpiresAt: number;
}

export function contextOf(connection: Pick<Connection, 'context'>): CollabContext | null {
  const context = connection.context as Partial<CollabContext> | undefined;
  return context?.user && context.pageId ? (context as CollabContext) : null;
}

export function actorOf(context: CollabContext): Actor {
  const { uid, username, groupid } = context.user;
  return { uid, username, groupid };
}

/** The name awareness states must carry: the display name when there is one. */
export function displayName(user: { username: string; name?: string }): string {
  return user.name?.trim() ? user.name.trim() : user.username;
}

/** A refusal Hocuspocus hands to the provider (`authenticationFailed` reason). No message: no log noise. */
export function refusal(reason: CollabRefusal): { reason: CollabRefusal } {
  return { reason };
}

/** The page and whether the actor may edit it; null when they may not even read it. */
export async function pageRole(
  actor: Actor,
  pageId: number,
): Promise<{ page: PageDoc; canEdit: boolean; coEdit: boolean; whiteboard: boolean } | null> {
  try {
    const { page, access } = await requirePage(actor, pageId, { action: 'page.read' });
    return {
      page,
      canEdit: permits(access, 'page.update'),
      coEdit: access.item.co_edit === 1,
      whiteboard: access.item.item_type === WHITEBOARD_ITEM_TYPE,
    };
  } catch {
    return null;
  }
}

/** The lock rule: see the file comment. `lock` must be live (not expired). */
export function writeAllowed(
  context: CollabContext,
  coEdit: boolean,
  lock: CollabLock | null,
): boolean {
  if (!context.canEdit) return false;
  return coEdit || !lock || lock.uid === context.user.uid;
}

export function sendMessage(connection: Connection, message: CollabServerMessage): void {
  connection.sendStateless(JSON.stringify(message));
}

/**
 * Sets the connection's write access from the live page state; tells the client when it changed
 * (or always, with `announce`).
 */
export function applyAccess(connection: Connection, live: LivePage, announce = false): void {
  const context = contextOf(connection);
  if (!context) return;
  const readOnly = !writeAllowed(context, live.coEdit, live.lock);
  if (connection.readOnly === readOnly && !announce) return;
  connection.readOnly = readOnly;
  sendMessage(connection, { type: 'access', readOnly, coEdit: live.coEdit, lock: live.lock });
}
