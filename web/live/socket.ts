/**
 * The Socket.IO connection of a logged-in user (DESIGN §5): authenticated with the stored
 * `user_token`, reconnecting by itself with backoff. Event names and payloads come from the
 * server's catalogue (types only: nothing of realtime/ is bundled).
 */
import { io, type Socket } from 'socket.io-client';
import type { ClientToServerEvents, ServerToClientEvents } from '../../realtime/socketEvents';

export type LiveSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/**
 * - connecting: first attempt under way
 * - connected: events flow
 * - reconnecting: the connection dropped; socket.io is retrying
 * - refused: the server turned the token down (10102); no retry until the login changes
 */
export type ConnectionState = 'connecting' | 'connected' | 'reconnecting' | 'refused';

export const NOT_LOGGED_IN = 10102;

export function openLiveSocket(token: string): LiveSocket {
  return io({
    path: '/socket.io',
    auth: { user_token: token },
    reconnection: true,
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 30_000,
    // Long-polling first works behind any proxy; socket.io upgrades to WebSocket when it can.
    transports: ['polling', 'websocket'],
  });
}

/** The refusal code of a `connect_error` (`{data: {error_code}}`), or 0. */
export function refusalCode(error: unknown): number {
  const data = (error as { data?: { error_code?: unknown } } | null)?.data;
  return typeof data?.error_code === 'number' ? data.error_code : 0;
}
