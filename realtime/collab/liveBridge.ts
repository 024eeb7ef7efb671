/**
 * Server-side saves into open documents (models/pages `LiveDocPort`, registered at start with
 * `registerLiveDocs`): a page saved by a
 * script over REST, the open API, an import or a history restore while editors have it open is
 * applied into its Y.Text as a minimal text diff, so they see the saved text appear in place and
 * the draft never persists stale text over it. The editor's own saves never come this way: they
 * are a command on the document itself (saveCommand.ts), which hands savePage the document it
 * comes from as the save's own port (`documentPort`): it holds the text already, so the save only
 * rebases its draft.
 *
 * An AI agent's save (MCP, `agent` set) is replayed as only its own hunks relative to the text it
 * replaced (text.ts rebaseOnLive): what an editor typed and has not saved yet survives it.
 *
 * Either way the draft is rebased on the saved content and stored at once.
 *
 * Several processes (REDIS_URL, or worker processes): the save's own process applies it when it has the document
 * loaded; the `page.saved` event, relayed to every process, lets the others that have it loaded
 * catch up. Each applies the change deterministically (text.ts: the same state and target give
 * byte-identical Yjs items), so processes that apply the same save to the same document state
 * merge into one change instead of inserting the text twice.
 */
import type { Document } from '@hocuspocus/server';
import { URLSearchParams } from 'node:url';
import {
  contentHash,
  type LiveDocPort,
  livePageContent,
  type SaveOrigin,
} from '../../models/pages';
import { pageDocumentName, whiteboardDocumentName } from '../collabProtocol';
import type { LivePage } from './livePages';
import { loadedPage, type CollabRuntime } from './runtime';
import { pageText, rebaseOnLive, setPageTextDeterministically } from './text';
import { setBoardDeterministically } from './whiteboard';

/** The socketId Hocuspocus hooks see for stores the server starts. */
const SERVER_SOCKET = 'quire-bridge';

/**
 * Rebases the document's draft on `content` (now the saved page content) and writes it at once,
 * on behalf of `byUid` (resolves when written; callers that need not wait may ignore it).
 */
export function rebaseAndStore(
  runtime: CollabRuntime,
  document: Document,
  live: LivePage,
  content: string,
  byUid: number,
): Promise<void> {
  live.baseHash = contentHash(content);
  live.baseText = content;
  const stored = runtime.hocuspocus
    .storeDocumentHooks(
      document,
      {
        instance: runtime.hocuspocus,
        clientsCount: document.getConnectionsCount(),
        context: { user: { uid: byUid } },
        document,
        documentName: document.name,
        requestHeaders: {},
        requestParameters: new URLSearchParams(),
        socketId: SERVER_SOCKET,
      },
      true,
    )
    ?.catch((error: unknown) =>
      runtime.logger.error({ err: error, pageId: live.pageId }, 'draft store failed'),
    );
  return stored ?? Promise.resolve();
}

interface SaveFacts {
  pageId: number;
  content: string;
  byUid: number;
  /**
   * An agent's save (MCP) was made against this saved text: only its own hunks are replayed on
   * the document, so what editors typed meanwhile stays. Other saves set the saved text as is.
   */
  agentBase?: string;
}

/**
 * The port of a save made by the page's document itself (the editor's save command): the document
 * holds the saved text, so only its draft is rebased on it and stored. Resolves false when the
 * document was unloaded meanwhile (savePage then brings the stored draft up to date).
 */
export function documentPort(runtime: CollabRuntime, documentName: string): LiveDocPort {
  return {
    async applySave(save) {
      const loaded = loadedPage(runtime, documentName);
      if (!loaded) return false;
      rebaseAndStore(runtime, loaded.document, loaded.live, save.content, save.byUid);
      return true;
    },
  };
}

export function liveBridge(runtime: CollabRuntime): {
  port: LiveDocPort;
  stop(): void;
} {
  const log = runtime.logger.child({ service: 'collab-bridge' });

  /** The page's loaded document, a Markdown page's or a whiteboard's. */
  const loadedDocumentOf = (pageId: number) =>
    loadedPage(runtime, pageDocumentName(pageId)) ??
    loadedPage(runtime, whiteboardDocumentName(pageId));

  /** Applies the saved text into the loaded document. */
  function applyInto(document: Document, live: LivePage, save: SaveFacts): void {
    // The origin doubles as the store's context: the draft records who changed it.
    const origin = { source: SERVER_SOCKET, context: { user: { uid: save.byUid } } };
    if (live.kind === 'whiteboard') {
      // A board has no text to rebase: the saved board (a restore, a ShowDoc client's save) wins.
      setBoardDeterministically(document, save.content, `save:${save.pageId}`, origin);
      return;
    }
    const target =
      save.agentBase === undefined
        ? save.content
        : rebaseOnLive(save.agentBase, save.content, pageText(document).toString());
    setPageTextDeterministically(document, target, `save:${save.pageId}`, origin);
  }

  const port: LiveDocPort = {
    async applySave(save) {
      try {
        const loaded = loadedDocumentOf(save.pageId);
        // No editor here: savePage marks a stored draft the save caught up with.
        if (!loaded || loaded.document.getConnectionsCount() === 0) return false;
        applyInto(loaded.document, loaded.live, {
          ...save,
          // The text the save replaced is the base an agent worked from; the document's own
          // base when another process's save has not reached it yet.
          ...(save.agent || save.rebase ? { agentBase: save.previous } : {}),
        });
        rebaseAndStore(runtime, loaded.document, loaded.live, save.content, save.byUid);
        return true;
      } catch (error) {
        log.error(
          { err: error, pageId: save.pageId },
          'applying a save to the live document failed',
        );
        return false;
      }
    },
  };

  /**
   * Another process saved a page this one has open (several processes only: otherwise applySave
   * ran). `live`: the saving process put the text into the document open there, so it reaches
   * this one as a Yjs update through Redis, like any edit.
   */
  async function onRelayedSave(
    pageId: number,
    byUid: number,
    origin: SaveOrigin,
    live: boolean,
    agent: boolean,
  ): Promise<void> {
    if (!loadedDocumentOf(pageId)) return;
    const page = await livePageContent(pageId);
    const loaded = loadedDocumentOf(pageId);
    if (!page || !loaded || loaded.document.getConnectionsCount() === 0) return;
    const hash = contentHash(page.content);
    if (hash === loaded.live.baseHash) return;
    // The saving process stored the draft; here only the base moves, and the text when no open
    // document carries it here: not for an editor's save (it stored this very text), nor for a
    // save the saving process applied to its open document — that change arrives (or already
    // arrived) through Redis, and editors here may have typed after it: setting the saved text
    // now would undo their typing.
    const base = loaded.live.baseText;
    loaded.live.baseHash = hash;
    loaded.live.baseText = page.content;
    if (origin !== 'collab' && !live)
      applyInto(loaded.document, loaded.live, {
        pageId,
        content: page.content,
        byUid,
        ...(agent ? { agentBase: base } : {}),
      });
  }

  const stop = runtime.multiProcess
    ? runtime.events.subscribe('page.saved', async (event) => {
        if (event.created) return;
        try {
          await onRelayedSave(
            event.pageId,
            event.byUid,
            event.origin,
            event.live === true,
            event.agent !== undefined,
          );
        } catch (error) {
          log.error({ err: error, pageId: event.pageId }, 'applying a relayed save failed');
        }
      })
    : () => {};

  return { port, stop };
}
