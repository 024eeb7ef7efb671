/**
 * Server-side saves into open documents (models/pages/pages.ts `connectLiveDocuments`): a page saved by
 * a script over REST, the open API, an import or a history restore while editors have it open is
 * applied into its Y.Text as a minimal text diff, so they see the saved text appear in place and
 * the draft never persists stale text over it. Saves made by the collaborative editor itself
 * (origin 'collab') are never re-applied: savePage does not call the bridge for them.
 *
 * The editor's own explicit save (REST page/save with the text on screen) usually arrives after
 * its author or a co-editor typed a little more. The document already went through the saved text,
 * so re-applying it would undo that typing: a REST save whose exact text the document held in the
 * last RECENT_MS is taken as already applied. Either way the draft is rebased on the saved content
 * and stored at once (saved flag set when nothing was typed since).
 *
 * Several processes (REDIS_URL): the save's own process applies it when it has the document
 * loaded; the `page.saved` event, relayed to every process, lets another process that has it
 * loaded do it otherwise. A Redis claim per (page, content) makes sure exactly one does — two
 * processes applying the same diff would insert the text twice.
 */
import type { Document, Extension, afterLoadDocumentPayload } from '@hocuspocus/server';
import { URLSearchParams } from 'node:url';
import {
  contentHash,
  markDraftSaved,
  type LivePageDocuments,
  type SaveOrigin,
} from '../../models/pages';
import { Page } from '../../models/pages/schemas';
import { pageDocumentName } from '../collabProtocol';
import type { LivePage } from './livePages';
import { loadedPage, type CollabRuntime } from './runtime';
import { applyMinimalDiff, pageText } from './text';

/** How long a text the document held counts as "already there" for an editor's REST save. */
export const RECENT_MS = 30_000;
const RECENT_MAX = 500;
/** How long a claim to apply one save lasts (relayed events arrive within milliseconds). */
const CLAIM_TTL_MS = 5000;
/** The socketId Hocuspocus hooks see for stores the bridge starts. */
const BRIDGE_SOCKET = 'quire-bridge';

function remember(live: LivePage, text: string): void {
  const hash = contentHash(text);
  const now = Date.now();
  live.recentTexts.delete(hash);
  live.recentTexts.set(hash, now);
  for (const [old, at] of live.recentTexts) {
    if (live.recentTexts.size <= RECENT_MAX && now - at <= RECENT_MS) break;
    live.recentTexts.delete(old);
  }
}

function heldLately(live: LivePage, hash: string): boolean {
  const at = live.recentTexts.get(hash);
  return at !== undefined && Date.now() - at <= RECENT_MS;
}

interface SaveFacts {
  pageId: number;
  content: string;
  byUid: number;
  origin: SaveOrigin;
}

export function liveBridge(runtime: CollabRuntime): {
  extension: Extension;
  bridge: LivePageDocuments;
  stop(): void;
} {
  const log = runtime.logger.child({ service: 'collab-bridge' });

  /** Applies the save into the loaded document and stores the draft now. */
  function applyInto(document: Document, live: LivePage, save: SaveFacts, hash: string): void {
    live.baseHash = hash;
    // The origin doubles as the store's context: the draft records who changed it.
    const origin = { source: BRIDGE_SOCKET, context: { user: { uid: save.byUid } } };
    if (!(save.origin === 'rest' && heldLately(live, hash)))
      document.transact(() => applyMinimalDiff(pageText(document), save.content), origin);
    runtime.hocuspocus
      .storeDocumentHooks(
        document,
        {
          instance: runtime.hocuspocus,
          clientsCount: document.getConnectionsCount(),
          context: origin.context,
          document,
          documentName: document.name,
          requestHeaders: {},
          requestParameters: new URLSearchParams(),
          socketId: BRIDGE_SOCKET,
        },
        true,
      )
      ?.catch((error: unknown) =>
        log.error({ err: error, pageId: live.pageId }, 'draft store failed'),
      );
  }

  /** Whether this process is the one to apply this content (always, without Redis). */
  async function claimed(pageId: number, hash: string): Promise<boolean> {
    return runtime.redis ? runtime.redis.claim(`apply:${pageId}:${hash}`, CLAIM_TTL_MS) : true;
  }

  const bridge: LivePageDocuments = {
    async applySave(save) {
      try {
        const name = pageDocumentName(save.pageId);
        const loaded = loadedPage(runtime, name);
        if (!loaded || loaded.document.getConnectionsCount() === 0) {
          await markDraftSaved(save.pageId, save.content);
          return;
        }
        const hash = contentHash(save.content);
        if (!(await claimed(save.pageId, hash))) {
          loaded.live.baseHash = hash;
          return;
        }
        const now = loadedPage(runtime, name);
        if (now) applyInto(now.document, now.live, save, hash);
      } catch (error) {
        log.error(
          { err: error, pageId: save.pageId },
          'applying a save to the live document failed',
        );
      }
    },
  };

  /** Another process saved a page this one has open (only with Redis: otherwise applySave ran). */
  async function onRelayedSave(pageId: number, byUid: number, origin: SaveOrigin): Promise<void> {
    const name = pageDocumentName(pageId);
    if (!loadedPage(runtime, name)) return;
    const page = await Page.findOne(
      { page_id: pageId, is_del: 0 },
      { page_content: 1, _id: 0 },
    ).lean();
    const loaded = loadedPage(runtime, name);
    if (!page || !loaded || loaded.document.getConnectionsCount() === 0) return;
    const hash = contentHash(page.page_content);
    if (hash === loaded.live.baseHash) return;
    if (!(await claimed(pageId, hash))) {
      loaded.live.baseHash = hash;
      return;
    }
    const now = loadedPage(runtime, name);
    if (now)
      applyInto(
        now.document,
        now.live,
        { pageId, content: page.page_content, byUid, origin },
        hash,
      );
  }

  const stop = runtime.redis
    ? runtime.events.subscribe('page.saved', async (event) => {
        if (event.created || event.origin === 'collab') return;
        try {
          await onRelayedSave(event.pageId, event.byUid, event.origin);
        } catch (error) {
          log.error({ err: error, pageId: event.pageId }, 'applying a relayed save failed');
        }
      })
    : () => {};

  const extension: Extension = {
    extensionName: 'quire-live-bridge',
    /** Keeps the texts the document goes through, for the editor's-own-save rule. */
    async afterLoadDocument({ documentName, document }: afterLoadDocumentPayload) {
      const live = runtime.pages.get(documentName);
      if (!live) return;
      remember(live, pageText(document).toString());
      document.on('update', () => remember(live, pageText(document).toString()));
    },
  };

  return { extension, bridge, stop };
}
