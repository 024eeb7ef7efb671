/**
 * The Socket.IO protocol: authenticated connections, the user's own room, and the client's
 * `watch` / `unwatch` / `presence` requests (realtime/socketEvents.ts), each answered with an ack.
 * Access decisions are models/ (through realtime/watching.ts); this file validates input, keeps
 * acks well-formed, and tells presence and the lock grace about arrivals and departures.
 *
 * Nothing here is per socket beyond the socket itself: no timers, no closures held elsewhere.
 */
import { liveLockOf } from '../models/pages';
import { isApiError, type Logger, runForClient, tryConsume } from '../models/platform';
import { authenticateSocket, currentActor, NOT_LOGGED_IN } from './auth';
import type { LockExpiry } from './lockExpiry';
import type { LockGrace } from './lockGrace';
import type { Presence } from './presence';
import {
  rooms,
  type Ack,
  type LockPayload,
  type PresenceMode,
  type WatchAck,
} from './socketEvents';
import { type QuireServer, type QuireSocket, hasLocalSockets } from './types';
import { unwatchItem, unwatchPage, watchItem, watchPage } from './watching';

const MODES: readonly PresenceMode[] = ['viewing', 'editing'];
const BAD_INPUT = { error_code: 10101, error_message: 'Parameter error' } as const;

interface Input {
  item_id?: unknown;
  page_id?: unknown;
  mode?: unknown;
  item_password?: unknown;
}

function positiveId(value: unknown): number | undefined {
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

/** Exactly one of item_id / page_id, as a positive integer. */
function target(input: unknown): { itemId?: number; pageId?: number } | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const { item_id, page_id } = input as Input;
  const itemId = item_id === undefined ? undefined : positiveId(item_id);
  const pageId = page_id === undefined ? undefined : positiveId(page_id);
  if ((itemId === undefined) === (pageId === undefined)) return undefined;
  if (
    (item_id !== undefined && itemId === undefined) ||
    (page_id !== undefined && pageId === undefined)
  )
    return undefined;
  return { itemId, pageId };
}

function modeOf(value: unknown): PresenceMode | null | undefined {
  if (value === undefined || value === null) return null;
  return MODES.includes(value as PresenceMode) ? (value as PresenceMode) : undefined;
}

/** The page's current lock, as pushed by `lock` events. */
async function lockOf(itemId: number, pageId: number): Promise<LockPayload> {
  const lock = await liveLockOf(pageId);
  return lock
    ? {
        item_id: itemId,
        page_id: pageId,
        locked: true,
        lock_uid: lock.uid,
        lock_username: lock.username,
        lock_to: lock.lockTo,
      }
    : { item_id: itemId, page_id: pageId, locked: false };
}

/** Calls the ack if the client asked for one (a client may emit without). */
function replier<T>(ack: unknown): (reply: T) => void {
  return typeof ack === 'function' ? (reply: T) => (ack as (r: T) => void)(reply) : () => {};
}

export interface SocketDeps {
  logger: Logger;
  presence: Presence;
  lockGrace: LockGrace;
  lockExpiry: LockExpiry;
}

export function setupSockets(io: QuireServer, deps: SocketDeps): void {
  const { logger, presence, lockGrace, lockExpiry } = deps;

  /** Turns a refusal into an ack; anything else is logged and answered with a generic failure. */
  function failure(
    error: unknown,
    socket: QuireSocket,
  ): { error_code: number; error_message?: string } {
    if (isApiError(error)) return { error_code: error.code, error_message: error.message };
    logger.error({ err: error, uid: socket.data.uid }, 'socket request failed');
    return { error_code: 10101, error_message: 'Operation failed' };
  }

  async function onWatch(socket: QuireSocket, input: unknown, reply: (r: WatchAck) => void) {
    const which = target(input);
    const mode = modeOf((input as Input | null)?.mode);
    const rawPassword = (input as Input | null)?.item_password;
    if (
      !which ||
      mode === undefined ||
      (rawPassword !== undefined && typeof rawPassword !== 'string')
    )
      return reply(BAD_INPUT);
    const password = (rawPassword as string | undefined) || undefined;
    try {
      // Each watch costs access checks: a client may not ask for them without end.
      if (!(await tryConsume('watch', String(socket.data.uid))))
        return reply({ error_code: 10100, error_message: 'Too many requests, slow down' });
      const actor = await currentActor(socket);
      if (!actor) {
        reply({ error_code: NOT_LOGGED_IN });
        socket.disconnect(true);
        return;
      }
      // Visit-password misses are counted per client address, as over HTTP.
      const client = socket.handshake.address;
      if (which.itemId !== undefined) {
        await runForClient(client, () => watchItem(socket, actor, which.itemId!, password));
        return reply({ ok: true });
      }
      const pageId = which.pageId!;
      const itemId = await runForClient(client, () => watchPage(socket, actor, pageId, password));
      if (!socket.connected) return;
      if (mode || socket.data.present[pageId]) setMode(socket, pageId, mode);
      const [lock, users] = await Promise.all([lockOf(itemId, pageId), presence.list(pageId)]);
      if (lock.locked) lockExpiry.track(itemId, pageId, lock.lock_to);
      reply({ ok: true, lock, presence: users });
    } catch (error) {
      reply(failure(error, socket));
    }
  }

  function setMode(socket: QuireSocket, pageId: number, mode: PresenceMode | null): void {
    const before = socket.data.present[pageId];
    if (mode) {
      socket.data.present[pageId] = mode;
      socket.join(rooms.presence(pageId));
    } else {
      delete socket.data.present[pageId];
      socket.leave(rooms.presence(pageId));
    }
    if ((before ?? null) !== mode) presence.changed(pageId);
  }

  function onUnwatch(socket: QuireSocket, input: unknown, reply: (r: Ack) => void) {
    const which = target(input);
    if (!which) return reply(BAD_INPUT);
    if (which.itemId !== undefined) unwatchItem(socket, which.itemId);
    else if (unwatchPage(socket, which.pageId!)) presence.changed(which.pageId!);
    reply({ ok: true });
  }

  function onPresence(socket: QuireSocket, input: unknown, reply: (r: Ack) => void) {
    const pageId = positiveId((input as Input | null)?.page_id);
    const mode = modeOf((input as Input | null)?.mode);
    if (pageId === undefined || mode === undefined) return reply(BAD_INPUT);
    // Presence needs the access the watch checked: only on a page this socket watches.
    if (!socket.rooms.has(rooms.page(pageId)))
      return reply({ error_code: 10101, error_message: 'Watch the page first' });
    setMode(socket, pageId, mode);
    reply({ ok: true });
  }

  io.use((socket, next) => void authenticateSocket(socket, next));

  io.on('connection', (socket) => {
    const uid = socket.data.uid;
    socket.join(rooms.user(uid));
    logger.debug({ uid }, 'socket connected');

    socket.on('watch', (input, ack) => void onWatch(socket, input, replier<WatchAck>(ack)));
    socket.on('unwatch', (input, ack) => onUnwatch(socket, input, replier<Ack>(ack)));
    socket.on('presence', (input, ack) => onPresence(socket, input, replier<Ack>(ack)));

    socket.on('disconnect', (reason) => {
      // Rooms are already left; the socket's own record says where it was.
      for (const pageId of Object.keys(socket.data.present)) presence.changed(Number(pageId));
      const pageIds = Object.keys(socket.data.pages).map(Number);
      lockGrace.disconnected(uid, pageIds, !hasLocalSockets(io, rooms.user(uid)));
      logger.debug({ uid, reason }, 'socket disconnected');
    });
  });
}
