/**
 * A page's shared document kept in this browser (y-indexeddb) and joined with the server's
 * (Hocuspocus): loading the kept copy first, then syncing, so Yjs merges what was typed here
 * offline with what others changed meanwhile. Used to download an item's pages and to send the
 * offline edits on reconnect; the editor keeps its own provider (useCollabDoc) on the same
 * database.
 */
import { HocuspocusProvider } from '@hocuspocus/provider';
import { IndexeddbPersistence } from 'y-indexeddb';
import * as Y from 'yjs';
import {
  PAGE_TEXT,
  pageDocumentName,
  type CollabLock,
  type CollabServerMessage,
} from '../../../realtime/collabProtocol';
import { getToken } from '../../auth/storage';
import { collabUrl } from '../editor/useCollabDoc';
import { pageDatabase } from './store';

export const SYNC_TIMEOUT_MS = 20_000;

export interface SyncedPage {
  provider: HocuspocusProvider;
  text: Y.Text;
  /** The server's word on our write access when we joined. */
  readOnly: boolean;
  lock: CollabLock | null;
  close(): void;
}

/** The kept copy alone (no network): its text, '' when nothing is kept. */
export async function keptText(pageId: number): Promise<string> {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(pageDatabase(pageId), doc);
  await persistence.whenSynced;
  const text = doc.getText(PAGE_TEXT).toString();
  await persistence.destroy();
  doc.destroy();
  return text;
}

/** Opens the kept copy, joins the server's document and resolves once both are merged. */
export async function openSyncedPage(pageId: number): Promise<SyncedPage> {
  const doc = new Y.Doc();
  const persistence = new IndexeddbPersistence(pageDatabase(pageId), doc);
  await persistence.whenSynced;
  let provider: HocuspocusProvider | null = null;
  const close = () => {
    provider?.destroy();
    void persistence.destroy();
    doc.destroy();
  };
  try {
    return await new Promise<SyncedPage>((resolve, reject) => {
      let synced = false;
      let hello: { readOnly: boolean; lock: CollabLock | null } | null = null;
      const timer = window.setTimeout(
        () => reject(new Error(`page ${pageId}: no answer from the server`)),
        SYNC_TIMEOUT_MS,
      );
      // Merged on both sides: we have the server's state (synced) and the server acknowledged
      // ours (no unsynced changes; a read-only connection's are never applied).
      const done = () => {
        if (!synced || !hello || !provider) return;
        if (!hello.readOnly && provider.hasUnsyncedChanges) return;
        window.clearTimeout(timer);
        resolve({ provider, text: doc.getText(PAGE_TEXT), ...hello, close });
      };
      provider = new HocuspocusProvider({
        url: collabUrl(),
        name: pageDocumentName(pageId),
        document: doc,
        token: getToken() ?? '',
        onAuthenticationFailed: ({ reason }) => {
          window.clearTimeout(timer);
          reject(new Error(reason));
        },
        onSynced: () => {
          synced = true;
          done();
        },
        onUnsyncedChanges: () => done(),
        onStateless: ({ payload }) => {
          let message: CollabServerMessage;
          try {
            message = JSON.parse(payload) as CollabServerMessage;
          } catch {
            return;
          }
          if (message.type === 'hello') {
            hello = { readOnly: message.readOnly, lock: message.lock };
            done();
          }
        },
      });
    });
  } catch (error) {
    close();
    throw error;
  }
}

let keepCounter = 0;

/**
 * Asks the server to store the document as the page's draft when none is stored yet
 * (collabProtocol.ts `keep`): the kept copy then shares the history later saves build on.
 */
export function keepOnServer(synced: SyncedPage): Promise<void> {
  const requestId = `keep-${Date.now().toString(36)}-${++keepCounter}`;
  const { provider } = synced;
  return new Promise((resolve) => {
    const finish = () => {
      window.clearTimeout(timer);
      provider.off('stateless', onStateless);
      resolve();
    };
    const onStateless = ({ payload }: { payload: string }) => {
      try {
        const message = JSON.parse(payload) as CollabServerMessage;
        if (message.type === 'kept' && message.requestId === requestId) finish();
      } catch {
        // not ours
      }
    };
    // An older server does not answer: the copy is still kept, merges are then by Yjs alone.
    const timer = window.setTimeout(finish, SYNC_TIMEOUT_MS);
    provider.on('stateless', onStateless);
    provider.sendStateless(JSON.stringify({ type: 'keep', requestId }));
  });
}
