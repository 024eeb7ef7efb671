/**
 * Loading and storing page documents as the page's live shared draft (models/pages/liveDrafts.ts).
 *
 * Load: the stored draft when there is one, brought up to the saved content if the page was saved
 * while nobody had it open; otherwise the Y.Text starts as the saved page content. Both edits are
 * made deterministically (text.ts), so processes that load the same page at the same time agree.
 *
 * A whiteboard's document (`whiteboard.<id>`, whiteboard.ts) is loaded and stored the same way,
 * its board in place of the text; the draft's text is then the board's JSON.
 *
 * Store: Hocuspocus calls onStoreDocument debounced after changes (DEBOUNCE_MS, at the latest
 * MAX_DEBOUNCE_MS after the first unsaved change) and at once when the last editor leaves. Bytes
 * and text are written together; a store that would write what is already stored is skipped.
 */
import { createHash } from 'node:crypto';
import type {
  afterUnloadDocumentPayload,
  Extension,
  onLoadDocumentPayload,
  onStoreDocumentPayload,
} from '@hocuspocus/server';
import * as Y from 'yjs';
import { itemCoEditOn } from '../../models/items';
import { contentHash, livePageContent, loadDraft, storeDraft } from '../../models/pages';
import { collabDocumentOf } from '../collabProtocol';
import { refusal, type CollabContext } from './access';
import type { CollabRuntime } from './runtime';
import { documentContent, setContentDeterministically } from './whiteboard';

/** Quiet time after the last change before the draft is written. */
export const DEBOUNCE_MS = 2000;
/** Longest a changed document waits to be written while edits keep coming. */
export const MAX_DEBOUNCE_MS = 10_000;

/** Transaction origin of changes made while loading (not a client's edit: nothing to store). */
const LOAD_ORIGIN = { source: 'quire-load' };

function signature(state: Uint8Array, baseHash: string): string {
  return createHash('sha256').update(state).update(baseHash).digest('hex');
}

export function persistence(runtime: CollabRuntime): Extension {
  return {
    extensionName: 'quire-persistence',

    async onLoadDocument({ documentName, document }: onLoadDocumentPayload) {
      const target = collabDocumentOf(documentName);
      const pageId = target?.pageId ?? 0;
      const page = target ? await livePageContent(pageId) : null;
      if (!target || !page) throw refusal('forbidden');
      const { kind } = target;
      const coEdit = await itemCoEditOn(page.itemId);
      const baseHash = contentHash(page.content);
      const draft = await loadDraft(pageId);

      let storedSignature = '';
      if (draft && draft.state.length > 0) {
        Y.applyUpdate(document, draft.state, LOAD_ORIGIN);
        storedSignature = signature(Y.encodeStateAsUpdate(document), draft.baseHash);
        // Saved while nobody had it open: the saved content wins, as it does for open documents.
        if (draft.baseHash !== baseHash)
          setContentDeterministically(
            kind,
            document,
            page.content,
            `reconcile:${pageId}`,
            LOAD_ORIGIN,
          );
      } else {
        setContentDeterministically(kind, document, page.content, `init:${pageId}`, LOAD_ORIGIN);
      }

      runtime.pages.set(documentName, {
        pageId,
        kind,
        itemId: page.itemId,
        baseHash,
        baseText: page.content,
        storedSignature,
        coEdit,
        lock: null,
      });
    },

    async onStoreDocument({ documentName, document, context }: onStoreDocumentPayload) {
      const live = runtime.pages.get(documentName);
      if (!live) return;
      const state = Y.encodeStateAsUpdate(document);
      const next = signature(state, live.baseHash);
      if (next === live.storedSignature) return;
      await storeDraft({
        pageId: live.pageId,
        itemId: live.itemId,
        state,
        text: documentContent(live.kind, document),
        baseHash: live.baseHash,
        byUid: (context as Partial<CollabContext> | undefined)?.user?.uid ?? 0,
      });
      live.storedSignature = next;
    },

    async afterUnloadDocument({ documentName, instance }: afterUnloadDocumentPayload) {
      // A quick reconnect may already be loading the page again: keep that one's state.
      if (instance.documents.has(documentName) || instance.loadingDocuments.has(documentName))
        return;
      runtime.pages.drop(documentName);
    },
  };
}
