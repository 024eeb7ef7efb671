/**
 * The page's shared Yjs document at /collab (realtime/collabProtocol.ts is the contract): one
 * provider per open editor, authenticated with the stored token (sent inside the WebSocket, never
 * in a URL). The server says who we are and whether we may write (`hello`), and tells us at once
 * when that changes (`access`: the lock moved, co-editing was switched, our role changed).
 */
import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useMemo, useState } from 'react';
import * as Y from 'yjs';
import {
  COLLAB_PATH,
  PAGE_TEXT,
  pageDocumentName,
  type CollabLock,
  type CollabServerMessage,
} from '../../../realtime/collabProtocol';
import { getToken } from '../../auth/storage';

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

/** Opens page `pageId`'s document (0: none — a page not saved yet). */
export function useCollabDoc(pageId: number): CollabState {
  const [state, setState] = useState<CollabState>(INITIAL);

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
    const readyIfComplete = () => {
      if (synced && hello) update({ status: 'ready' });
    };

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
        update({ online: false });
        // A close with one of our reasons (access revoked, page deleted …) is final.
        if (event.reason) update({ status: 'refused', reason: event.reason });
      },
      onOpen: () => update({ online: true }),
    });
    setState({ ...INITIAL, provider, text });

    return () => {
      alive = false;
      provider.destroy();
      doc.destroy();
    };
  }, [pageId]);

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
