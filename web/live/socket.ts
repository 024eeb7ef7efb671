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
  const socket: LiveSocket = io({
    path: '/socket.io',
    auth: { user_token: token },
    reconnection: true,
    reconnectionDelay: 1_000,
    reconnectionDelayMax: 30_000,
    // Long-polling first works behind any proxy; socket.io upgrades to WebSocket when it can.
    transports: ['polling', 'websocket'],
  });
  // A stopping server says so before it closes the connection; should the close come as a
  // server-side disconnect (which socket.io does not retry), come back anyway: another process
  // behind the load balancer takes over.
  let serverStopping = false;
  socket.on('server_shutdown', () => (serverStopping = true));
  socket.on('disconnect', (reason) => {
    if (serverStopping && reason === 'io server disconnect') socket.connect();
    serverStopping = false;
  });
  return socket;
}

/** How long a close waits for the polling transport's request in flight (see closeLiveSocket). */
const CLOSE_WAIT_MS = 2_000;

/**
 * Closes the socket for good. Over long-polling, engine.io-client sends its close packet at once,
 * even while its previous POST (the connect packet, say) is still on its way; the server answers
 * two POSTs of one session at the same time with HTTP 400, which the browser logs as a failed
 * resource. So a close waits for the POST in flight to be answered (or at most CLOSE_WAIT_MS).
 */
export function closeLiveSocket(socket: LiveSocket): void {
  const transport = socket.io.engine?.transport;
  if (!transport || transport.name !== 'polling' || transport.writable) {
    socket.disconnect();
    return;
  }
  const close = () => {
    clearTimeout(timer);
    transport.off('drain', close);
    socket.disconnect();
  };
  const timer = setTimeout(close, CLOSE_WAIT_MS);
  transport.once('drain', close);
}

/** The refusal code of a `connect_error` (`{data: {error_code}}`), or 0. */
export function refusalCode(error: unknown): number {
  const data = (error as { data?: { error_code?: unknown } } | null)?.data;
  return typeof data?.error_code === 'number' ? data.error_code : 0;
}
