/**
 * The whiteboard's shared Yjs document at /collab (`whiteboard.<page_id>`): one provider per open
 * board, authenticated with the stored token (inside the WebSocket, never in a URL). The server's
 * `hello` says who we are and whether we may draw; `access` when that changes.
 */
import { HocuspocusProvider } from '@hocuspocus/provider';
import { useEffect, useState } from 'react';
import * as Y from 'yjs';
import { whiteboardDocumentName, type CollabServerMessage } from '../../../realtime/collabProtocol';
import { getToken } from '../../auth/storage';
import { collabUrl, userColour } from '../editor/useCollabDoc';

export interface BoardDocState {
  status: 'loading' | 'ready' | 'refused';
  reason: string;
  provider: HocuspocusProvider | null;
  doc: Y.Doc | null;
  readOnly: boolean;
  me: { id: number; name: string } | null;
  online: boolean;
  /** Answers to our `save` requests, newest last. */
  lastSave: Extract<CollabServerMessage, { type: 'saved' | 'save-failed' }> | null;
}

const INITIAL: BoardDocState = {
  status: 'loading',
  reason: '',
  provider: null,
  doc: null,
  readOnly: true,
  me: null,
  online: true,
  lastSave: null,
};

export function useBoardDoc(pageId: number, enabled: boolean): BoardDocState {
  const [state, setState] = useState<BoardDocState>(INITIAL);
  useEffect(() => {
    if (!pageId || !enabled) return;
    const doc = new Y.Doc();
    let alive = true;
    const update = (patch: Partial<BoardDocState>) => {
      if (alive) setState((current) => ({ ...current, ...patch }));
    };
    let synced = false;
    let hello = false;
    const readyIfComplete = () => synced && hello && update({ status: 'ready' });
    const provider = new HocuspocusProvider({
      url: collabUrl(),
      name: whiteboardDocumentName(pageId),
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
          update({ me: message.user, readOnly: message.readOnly });
          readyIfComplete();
        } else if (message.type === 'access') update({ readOnly: message.readOnly });
        else if (message.type === 'saved' || message.type === 'save-failed')
          update({ lastSave: message });
      },
      onClose: ({ event }) => {
        update({ online: false });
        if (event.reason) update({ status: 'refused', reason: event.reason });
      },
      onOpen: () => update({ online: true }),
    });
    setState({ ...INITIAL, provider, doc });
    return () => {
      alive = false;
      provider.destroy();
      doc.destroy();
    };
  }, [pageId, enabled]);
  return state;
}
