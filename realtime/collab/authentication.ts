/**
 * Who may open a page document. Every connection (one per page per socket) authenticates on its
 * own with the provider's `token` (a user_token; expired or unknown → `unauthorized`) and a
 * document name `page.<page_id>`; models/pages/pageAccess.ts requirePage decides: edit access →
 * read-write, visit access → read-only, anything else (no access, catalog restriction, someone
 * else's draft page, deleted page) → `forbidden`, exactly like a page that does not exist.
 *
 * Access is re-checked while connections stay open: when an item's members, settings or menu
 * change, each affected connection is asked again and closed (`access-revoked`) or has its write
 * access recomputed; a deleted page closes its document's connections (`page-deleted`); a logout
 * or password change (`session.revoked`) closes the user's connections, and a sweep closes those
 * whose token has expired since they connected (`session-ended`).
 */
import type { Extension, onAuthenticatePayload } from '@hocuspocus/server';
import { authenticateToken } from '../../models/accounts';
import {
  collabDocumentOf,
  pageDocumentName,
  whiteboardDocumentName,
  type CollabCloseReason,
} from '../collabProtocol';
import {
  actorOf,
  applyAccess,
  contextOf,
  displayName,
  pageRole,
  refusal,
  writeAllowed,
  type CollabContext,
} from './access';
import { readLiveLock } from './lockBridge';
import { loadedPage, type CollabRuntime } from './runtime';

/** WebSocket-style close codes for the document connections we end (4000–4999: ours). */
const CLOSE_CODES: Record<CollabCloseReason, number> = {
  'access-revoked': 4403,
  'page-deleted': 4404,
  'awareness-identity': 4401,
  'refused-message': 4400,
  'session-ended': 4402,
};

export function closeEvent(reason: CollabCloseReason): { code: number; reason: string } {
  return { code: CLOSE_CODES[reason], reason };
}

export function authentication(): Extension {
  return {
    extensionName: 'quire-authentication',
    async onAuthenticate(data: onAuthenticatePayload): Promise<CollabContext> {
      const target = collabDocumentOf(data.documentName);
      if (!target) throw refusal('bad-document');
      const { pageId, kind } = target;
      const who = await authenticateToken(data.token);
      if (!who) throw refusal('unauthorized');
      const role = await pageRole(who.actor, pageId);
      if (!role) throw refusal('forbidden');
      // One live document per page: a whiteboard's canvas never opens as Markdown text, nor a
      // Markdown page as a canvas (both would write the same page's draft).
      if (role.whiteboard !== (kind === 'whiteboard')) throw refusal('bad-document');
      const context: CollabContext = {
        user: {
          uid: who.user.uid,
          username: who.user.username,
          name: displayName(who.user),
          groupid: who.user.groupid,
        },
        pageId,
        itemId: role.page.item_id,
        kind,
        canEdit: role.canEdit,
        tokenExpiresAt: who.expiresAt,
      };
      // The lock bridge keeps this current once the connection is open.
      // Whiteboards take no page lock: everyone who may edit draws at once.
      const lock = kind === 'page' ? await readLiveLock(pageId) : null;
      data.connectionConfig.readOnly = !writeAllowed(context, role.coEdit, lock);
      return context;
    },
  };
}

/** Asks models/ again for the open connections of an item's pages (all, or these users'). */
async function recheckItem(runtime: CollabRuntime, itemId: number, uids?: number[]): Promise<void> {
  const only = uids ? new Set(uids) : null;
  for (const name of runtime.pages.ofItem(itemId)) {
    const loaded = loadedPage(runtime, name);
    if (!loaded) continue;
    const roles = new Map<number, Awaited<ReturnType<typeof pageRole>>>();
    for (const connection of loaded.document.getConnections()) {
      const context = contextOf(connection);
      if (!context || (only && !only.has(context.user.uid))) continue;
      if (!roles.has(context.user.uid))
        roles.set(context.user.uid, await pageRole(actorOf(context), context.pageId));
      const role = roles.get(context.user.uid);
      if (!role) {
        connection.close(closeEvent('access-revoked'));
        continue;
      }
      context.canEdit = role.canEdit;
      const settingChanged = loaded.live.coEdit !== role.coEdit;
      loaded.live.coEdit = role.coEdit;
      applyAccess(connection, loaded.live, settingChanged);
    }
  }
}

/** How often open connections are checked for an expired token. */
const EXPIRY_SWEEP_MS = 30_000;

/** Closes the open connections whose context matches (one user's, or those expired). */
function closeSessions(runtime: CollabRuntime, matches: (context: CollabContext) => boolean): void {
  for (const document of runtime.hocuspocus.documents.values())
    for (const connection of document.getConnections()) {
      const context = contextOf(connection);
      if (context && matches(context)) connection.close(closeEvent('session-ended'));
    }
}

/** Subscribes the re-checks to the domain events; returns the unsubscriber. */
export function watchAccess(runtime: CollabRuntime): () => void {
  const { events, logger } = runtime;
  const guard =
    <T>(what: string, run: (payload: T) => Promise<void>) =>
    async (payload: T) => {
      try {
        await run(payload);
      } catch (error) {
        logger.error({ err: error, what }, 'collab access re-check failed');
      }
    };
  const stops = [
    events.subscribe(
      'membership.changed',
      guard('membership', (e) => recheckItem(runtime, e.itemId, e.uids)),
    ),
    events.subscribe(
      'item.changed',
      guard('item', (e) => recheckItem(runtime, e.itemId)),
    ),
    events.subscribe(
      'menu.changed',
      guard('menu', (e) => recheckItem(runtime, e.itemId)),
    ),
    events.subscribe(
      'page.deleted',
      guard('page', async (e) => {
        for (const name of [pageDocumentName(e.pageId), whiteboardDocumentName(e.pageId)]) {
          const loaded = loadedPage(runtime, name);
          for (const connection of loaded?.document.getConnections() ?? [])
            connection.close(closeEvent('page-deleted'));
        }
      }),
    ),
    events.subscribe(
      'session.revoked',
      guard('session', async (e) => closeSessions(runtime, (c) => c.user.uid === e.uid)),
    ),
  ];
  const sweep = setInterval(() => {
    const now = Math.floor(Date.now() / 1000);
    closeSessions(runtime, (c) => c.tokenExpiresAt <= now);
  }, EXPIRY_SWEEP_MS);
  sweep.unref();
  return () => {
    clearInterval(sweep);
    stops.forEach((stop) => stop());
  };
}
