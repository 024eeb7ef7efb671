/**
 * Socket handshake authentication with the same `user_token` the REST API takes (models/accounts/auth.ts:
 * unknown or expired tokens are refused). The token itself stays in this process (a WeakMap keyed
 * by the socket), never in `socket.data`, which the Redis adapter sends to other processes.
 */
import type { Actor } from '../models/access';
import { authenticateToken } from '../models/accounts';
import { rooms } from './socketEvents';
import type { QuireSocket } from './types';

/** Not logged in (ShowDoc's code): the refusal sent with `connect_error` and in acks. */
export const NOT_LOGGED_IN = 10102;

const tokens = new WeakMap<QuireSocket, string>();

/**
 * Open sockets one user may hold in this process (several tabs and devices fit easily); more are
 * refused with 10100, so one account cannot tie up the server with connections.
 */
export const MAX_SOCKETS_PER_USER = 20;

function refusal(): Error & { data: { error_code: number } } {
  return Object.assign(new Error('Not logged in'), { data: { error_code: NOT_LOGGED_IN } });
}

/** The token the client sent: `auth.user_token` (preferred) or the `user_token` query parameter. */
function tokenOf(socket: QuireSocket): string {
  const fromAuth = (socket.handshake.auth as Record<string, unknown> | undefined)?.user_token;
  if (typeof fromAuth === 'string') return fromAuth;
  const fromQuery = socket.handshake.query.user_token;
  return typeof fromQuery === 'string' ? fromQuery : '';
}

/** A `uid` the client claims to be; when present it must be the token's user. */
function claimedUid(socket: QuireSocket): number | undefined {
  const claim = (socket.handshake.auth as Record<string, unknown> | undefined)?.uid;
  if (claim === undefined || claim === null || claim === '') return undefined;
  const uid = Number(claim);
  return Number.isSafeInteger(uid) ? uid : -1;
}

/** Socket.IO middleware: refuses the connection unless the token names a live session. */
export async function authenticateSocket(
  socket: QuireSocket,
  next: (error?: Error) => void,
): Promise<void> {
  try {
    const token = tokenOf(socket);
    const auth = await authenticateToken(token);
    const claim = claimedUid(socket);
    if (!auth || (claim !== undefined && claim !== auth.actor.uid)) return next(refusal());
    const open = socket.nsp.adapter.rooms.get(rooms.user(auth.actor.uid))?.size ?? 0;
    if (open >= MAX_SOCKETS_PER_USER)
      return next(
        Object.assign(new Error('Too many connections'), { data: { error_code: 10100 } }),
      );
    tokens.set(socket, token);
    socket.data = {
      uid: auth.actor.uid,
      username: auth.actor.username,
      groupid: auth.actor.groupid,
      present: {},
      pages: {},
    };
    next();
  } catch {
    // Database trouble: refuse without passing internal error text to the client, which retries.
    next(Object.assign(new Error('Temporarily unavailable'), { data: { error_code: 10500 } }));
  }
}

/**
 * The socket's user as of now, or null when its token has expired or been revoked since the
 * handshake (checked again on every watch, so a logged-out socket cannot join new rooms).
 */
export async function currentActor(socket: QuireSocket): Promise<Actor | null> {
  const auth = await authenticateToken(tokens.get(socket) ?? '');
  if (!auth || auth.actor.uid !== socket.data.uid) return null;
  return auth.actor;
}

/** The socket's user as recorded at the handshake (for re-checks the server starts itself). */
export function actorOf(socket: QuireSocket): Actor {
  return { uid: socket.data.uid, username: socket.data.username, groupid: socket.data.groupid };
}
