/**
 * Real Socket.IO clients for realtime tests (socket.io-client, websocket transport, no automatic
 * reconnection), with what tests need on top: a record of every event received, bounded waits for
 * an event, and typed `watch`/`unwatch`/`presence` requests. Every client made here is tracked;
 * `closeAllSockets()` in afterAll disconnects whatever a failing test left open.
 */
import { expect } from '@jest/globals';
import { io as connect, type Socket } from 'socket.io-client';
import type {
  Ack,
  ClientToServerEvents,
  PresenceUpdate,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
  UnwatchTarget,
  WatchAck,
  WatchTarget,
} from '../../realtime/socketEvents';
import { eventually } from './embedded';

export type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

const open = new Set<ClientSocket>();

export interface TestClient {
  socket: ClientSocket;
  /** Every server push so far, in order. */
  received: { name: ServerEventName; payload: unknown }[];
  /** Payloads of one event so far. */
  all<N extends ServerEventName>(name: N): ServerEventPayload<N>[];
  /**
   * Resolves with the first payload of `name` (already received or still to come) that matches;
   * rejects after the timeout with what did arrive.
   */
  waitFor<N extends ServerEventName>(
    name: N,
    match?: (payload: ServerEventPayload<N>) => boolean,
    timeoutMs?: number,
  ): Promise<ServerEventPayload<N>>;
  watch(target: WatchTarget): Promise<WatchAck>;
  unwatch(target: UnwatchTarget): Promise<Ack>;
  presence(update: PresenceUpdate): Promise<Ack>;
  close(): void;
}

function wrap(socket: ClientSocket): TestClient {
  const received: TestClient['received'] = [];
  socket.onAny((name: ServerEventName, payload: unknown) => received.push({ name, payload }));
  const all = <N extends ServerEventName>(name: N) =>
    received.filter((e) => e.name === name).map((e) => e.payload as ServerEventPayload<N>);
  const request = <T>(event: 'watch' | 'unwatch' | 'presence', arg: unknown) =>
    socket.timeout(5000).emitWithAck(event, arg as never) as Promise<T>;
  return {
    socket,
    received,
    all,
    async waitFor(name, match = () => true, timeoutMs = 10_000) {
      try {
        return await eventually(
          () => {
            const found = all(name).find(match);
            if (found === undefined) throw new Error('not yet');
            return found;
          },
          { timeoutMs, intervalMs: 20 },
        );
      } catch {
        throw new Error(
          `no matching "${name}" within ${timeoutMs} ms; received: ${JSON.stringify(received)}`,
        );
      }
    },
    watch: (target) => request<WatchAck>('watch', target),
    unwatch: (target) => request<Ack>('unwatch', target),
    presence: (update) => request<Ack>('presence', update),
    close() {
      socket.disconnect();
      open.delete(socket);
    },
  };
}

/** Connects and resolves once the server accepted the handshake (rejects with its refusal). */
export function connectClient(url: string, auth: Record<string, unknown>): Promise<TestClient> {
  const socket: ClientSocket = connect(url, {
    path: '/socket.io',
    transports: ['websocket'],
    reconnection: false,
    forceNew: true,
    auth,
  });
  open.add(socket);
  return new Promise((resolve, reject) => {
    socket.once('connect', () => resolve(wrap(socket)));
    socket.once('connect_error', (error) => {
      socket.disconnect();
      open.delete(socket);
      reject(error);
    });
  });
}

/** The refusal a server sent with `connect_error` (its `data`), or throws if it connected. */
export async function refusalOf(url: string, auth: Record<string, unknown>): Promise<unknown> {
  try {
    const client = await connectClient(url, auth);
    client.close();
  } catch (error) {
    return (error as { data?: unknown }).data ?? (error as Error).message;
  }
  throw new Error('expected the connection to be refused, but it was accepted');
}

export function closeAllSockets(): void {
  for (const socket of open) socket.disconnect();
  open.clear();
}

/**
 * Presence across processes (or workers): `viewer`'s socket watches the page as a viewer, then
 * `editor`'s socket, on another process, as an editor; each sees the other, and the editor's
 * leaving reaches the viewer. Closes both sockets.
 */
export async function expectPresenceAcross(
  pageId: number,
  viewing: { client: TestClient; user: { uid: number; username: string } },
  editing: { client: TestClient; user: { uid: number } },
): Promise<void> {
  const reader = viewing.user;
  const editor = editing.user;
  await viewing.client.watch({ page_id: pageId, mode: 'viewing' });
  const ack = await editing.client.watch({ page_id: pageId, mode: 'editing' });
  expect(ack).toMatchObject({
    ok: true,
    presence: expect.arrayContaining([
      { uid: reader.uid, username: reader.username, mode: 'viewing' },
    ]),
  });
  await viewing.client.waitFor('presence', (p) =>
    p.users.some((u) => u.uid === editor.uid && u.mode === 'editing'),
  );
  editing.client.close();
  await viewing.client.waitFor('presence', (p) => !p.users.some((u) => u.uid === editor.uid));
  viewing.client.close();
}
