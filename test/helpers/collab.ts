/**
 * Real Hocuspocus clients for tests: @hocuspocus/provider 3 over `ws` (Node 20 has no global
 * WebSocket), one socket per client, against a running Quire's /collab. Every client opened here
 * is tracked; `closeAllCollabClients()` in afterAll/afterEach destroys the ones still open.
 */
import { expect } from '@jest/globals';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import {
  COLLAB_PATH,
  PAGE_TEXT,
  pageDocumentName,
  type CollabSaveRequest,
  type CollabServerMessage,
} from '../../realtime/collabProtocol';
import { eventually } from './embedded';

export interface CollabClient {
  provider: HocuspocusProvider;
  doc: Y.Doc;
  text: Y.Text;
  /** Resolves with the scope on authentication, rejects with the refusal reason. */
  opened: Promise<'read-write' | 'readonly'>;
  /** Resolves once the first sync with the server completed. */
  synced: Promise<void>;
  /** Server messages (`hello`, `access`) in arrival order. */
  messages: CollabServerMessage[];
  /** Reasons of the server's document-connection closes. */
  closes: string[];
  /** Inserts at the end of the page text. */
  append(chunk: string): void;
  /** Sends a `save` request on this connection; resolves with the server's answer to it. */
  save(
    request: Omit<CollabSaveRequest, 'type' | 'requestId'>,
  ): Promise<Extract<CollabServerMessage, { type: 'saved' | 'save-failed' }>>;
  /** Keeps the socket from reconnecting when the server goes away (restart tests). */
  stopReconnecting(): void;
  destroy(): void;
}

const open = new Set<CollabClient>();
let saves = 0;

export function collabUrl(serverUrl: string): string {
  return serverUrl.replace(/^http/, 'ws') + COLLAB_PATH;
}

export function openPage(
  serverUrl: string,
  pageId: number,
  token: string | null,
  options: { name?: string } = {},
): CollabClient {
  const socket = new HocuspocusProviderWebsocket({
    url: collabUrl(serverUrl),
    WebSocketPolyfill: WebSocket,
    // Tests want a refusal or a close to stay visible, not to be retried behind their back.
    maxAttempts: 1,
  });
  const doc = new Y.Doc();
  const messages: CollabServerMessage[] = [];
  const closes: string[] = [];
  let resolveOpened!: (scope: 'read-write' | 'readonly') => void;
  let rejectOpened!: (reason: Error) => void;
  const opened = new Promise<'read-write' | 'readonly'>((resolve, reject) => {
    resolveOpened = resolve;
    rejectOpened = reject;
  });
  opened.catch(() => {});
  let resolveSynced!: () => void;
  const synced = new Promise<void>((resolve) => (resolveSynced = resolve));
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: options.name ?? pageDocumentName(pageId),
    document: doc,
    token,
    onAuthenticated: ({ scope }) => resolveOpened(scope as 'read-write' | 'readonly'),
    onAuthenticationFailed: ({ reason }) => rejectOpened(new Error(reason)),
    onSynced: () => resolveSynced(),
    onStateless: ({ payload }) => messages.push(JSON.parse(payload) as CollabServerMessage),
    onClose: ({ event }) => {
      if (event.reason) closes.push(event.reason);
    },
  });
  // A v3 provider given its own websocket must be attached to it.
  provider.attach();
  const client: CollabClient = {
    provider,
    doc,
    text: doc.getText(PAGE_TEXT),
    opened,
    synced,
    messages,
    closes,
    append(chunk) {
      this.text.insert(this.text.length, chunk);
    },
    async save(request) {
      const requestId = `save-${++saves}`;
      provider.sendStateless(JSON.stringify({ type: 'save', requestId, ...request }));
      return eventually(() => {
        const answer = messages.find(
          (m): m is Extract<CollabServerMessage, { type: 'saved' | 'save-failed' }> =>
            (m.type === 'saved' || m.type === 'save-failed') && m.requestId === requestId,
        );
        if (!answer) throw new Error(`no answer to ${requestId} yet`);
        return answer;
      });
    },
    stopReconnecting() {
      socket.shouldConnect = false;
    },
    destroy() {
      if (!open.delete(client)) return;
      provider.destroy();
      socket.destroy();
    },
  };
  open.add(client);
  return client;
}

/** Opens the page and waits until it is authenticated and synced. */
export async function openSynced(
  serverUrl: string,
  pageId: number,
  token: string,
): Promise<CollabClient> {
  const client = openPage(serverUrl, pageId, token);
  await client.opened;
  await client.synced;
  return client;
}

/** The latest server message of a type. */
export function lastMessage<T extends CollabServerMessage['type']>(
  client: CollabClient,
  type: T,
): Extract<CollabServerMessage, { type: T }> | undefined {
  return [...client.messages].reverse().find((m) => m.type === type) as
    Extract<CollabServerMessage, { type: T }> | undefined;
}

/** Waits until the client's page text equals `expected`. */
export function textBecomes(client: CollabClient, expected: string): Promise<void> {
  return eventually(() => expect(client.text.toString()).toBe(expected));
}

export function closeAllCollabClients(): void {
  for (const client of [...open]) client.destroy();
}
