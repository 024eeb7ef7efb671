/**
 * The page's shared Yjs document at /collab (realtime/collabProtocol.ts is the contract): one
 * provider per open editor, authenticated with the stored token (sent inside the WebSocket, never
 * in a URL). The server says who we are and whether we may write (`hello`), and tells us at once
 * when that changes (`access`: the lock moved, co-editing was switched, our role changed).
 *
 * A page of an item made available offline (web/features/offline) also keeps its document in
 * IndexedDB (y-indexeddb): with no connection the editor opens that copy for writing, every edit
 * is kept there and reported (`onOfflineEdit`), and the provider merges it with the server's
 * document when the connection is back.
 */
import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useMemo, useRef, useState } from 'react';
import * as Y from 'yjs';
import {
  COLLAB_PATH,
  PAGE_TEXT,
  pageDocumentName,
  type CollabLock,
  type CollabServerMessage,
} from '../../../realtime/collabProtocol';
import { getToken } from '../../auth/storage';
import { pageDatabase } from '../offline/store';

export type CollabStatus =
  /** Connecting, authenticating or waiting for the first sync. */
  | 'loading'
  /** Synced: the text is the shared document. */
  | 'ready'
  /** The server refused the document (no access, deleted page, expired login). */
  | 'refused';

export interface CollabState {
  status: CollabStatus;
  /** Why the server refused or closed the document ('' while fine). */
  reason: string;
  provider: HocuspocusProvider | null;
  text: Y.Text | null;
  /** The server's word on our write access (true until `hello` says otherwise). */
  readOnly: boolean;
  coEdit: boolean;
  lock: CollabLock | null;
  /** Our identity as the server knows it (the awareness `user` must match it). */
  me: { id: number; name: string } | null;
  /** False while the socket is down (edits are kept and sent on reconnect). */
  online: boolean;
  /** Opened from this browser's offline copy, with no connection (the lock is asked later). */
  offline: boolean;
}

const INITIAL: CollabState = {
  status: 'loading',
  reason: '',
  provider: null,
  text: null,
  readOnly: true,
  coEdit: false,
  lock: null,
  me: null,
  online: true,
  offline: false,
};

export function collabUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === 'https:' ? 'wss' : 'ws'}://${host}${COLLAB_PATH}`;
}

/** A cursor colour per user id (stable, readable on white). */
export function userColour(id: number): { color: string; colorLight: string } {
  const hue = (id * 137.508) % 360;
  return {
    color: `hsl(${hue.toFixed(0)} 70% 40%)`,
    colorLight: `hsl(${hue.toFixed(0)} 70% 40% / 0.2)`,
  };
}

/**
 * Opens page `pageId`'s document (0: none — a page not saved yet). `keep`: the page's item is
 * available offline — the document is kept in IndexedDB too, and `onOfflineEdit` hears of every
 * edit made here while not connected.
 */
export function useCollabDoc(
  pageId: number,
  keep = false,
  onOfflineEdit?: () => void,
): CollabState {
  const [state, setState] = useState<CollabState>(INITIAL);
  const offlineEdit = useRef(onOfflineEdit);
  offlineEdit.current = onOfflineEdit;

  useEffect(() => {
    if (!pageId) {
      setState(INITIAL);
      return;
    }
    const doc = new Y.Doc();
    const text = doc.getText(PAGE_TEXT);
    let alive = true;
    const update = (patch: Partial<CollabState>) => {
      if (alive) setState((current) => ({ ...current, ...patch }));
    };
    let synced = false;
    let hello = false;
    let connected = false;
    let keptLoaded = false;
    let persistence: { destroy(): Promise<void> } | null = null;
    const readyIfComplete = () => {
      if (!synced || !hello) return;
      connected = true;
      update({ status: 'ready', online: true, offline: false });
    };
    // No connection (the browser says so, or the socket closed before the first sync) and the
    // kept copy is loaded: edit that copy.
    let cut = !navigator.onLine;
    const offlineIfCut = () => {
      if (!alive || connected || !cut || !keptLoaded) return;
      update({ status: 'ready', readOnly: false, online: false, offline: true });
    };
    const onBrowserOffline = () => {
      cut = true;
      offlineIfCut();
    };
    window.addEventListener('offline', onBrowserOffline);
    if (keep)
      void import('y-indexeddb').then(({ IndexeddbPersistence }) => {
        if (!alive) return;
        const kept = new IndexeddbPersistence(pageDatabase(pageId), doc);
        persistence = kept;
        void kept.whenSynced.then(() => {
          keptLoaded = true;
          offlineIfCut();
        });
      });

    const provider = new HocuspocusProvider({
      url: collabUrl(),
      name: pageDocumentName(pageId),
      document: doc,
      token: getToken() ?? '',
      onAuthenticationFailed: ({ reason }) => update({ status: 'refused', reason }),
      onSynced: () => {
        synced = true;
        readyIfComplete();
      },
      onStateless: ({ payload }) => {
        let message: CollabServerMessage;
        try {
          message = JSON.parse(payload) as CollabServerMessage;
        } catch {
          return;
        }
        if (message.type === 'hello') {
          hello = true;
          const { id, name } = message.user;
          provider.setAwarenessField('user', { id, name, ...userColour(id) });
          update({
            me: message.user,
            readOnly: message.readOnly,
            coEdit: message.coEdit,
            lock: message.lock,
          });
          readyIfComplete();
        } else if (message.type === 'access') {
          update({ readOnly: message.readOnly, coEdit: message.coEdit, lock: message.lock });
        }
      },
      onClose: ({ event }) => {
        connected = false;
        synced = false;
        cut = true;
        offlineIfCut();
        update({ online: false });
        // A close with one of our reasons (access revoked, page deleted …) is final.
        if (event.reason) update({ status: 'refused', reason: event.reason });
      },
      onOpen: () => update({ online: true }),
    });
    setState({ ...INITIAL, provider, text });
    // Edits typed here (not the server's nor the kept copy's) while not connected.
    doc.on('update', (_update: Uint8Array, origin: unknown) => {
      if (!keep || connected || origin === provider || origin === persistence) return;
      offlineEdit.current?.();
    });

    return () => {
      alive = false;
      window.removeEventListener('offline', onBrowserOffline);
      provider.destroy();
      void persistence?.destroy();
      doc.destroy();
    };
  }, [pageId, keep]);

  return state;
}

/** The shared text and awareness the editor binds to, once the document is ready (else null). */
export function useSharedText(collab: CollabState) {
  return useMemo(
    () =>
      collab.status === 'ready' && collab.text && collab.provider?.awareness
        ? { text: collab.text, awareness: collab.provider.awareness }
        : null,
    [collab.status, collab.text, collab.provider],
  );
}
