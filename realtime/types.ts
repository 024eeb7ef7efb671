/** The Socket.IO server and socket types of Quire's realtime service, typed by the event catalogue. */
import type { Server, Socket } from 'socket.io';
import type {
  ClientToServerEvents,
  InterServerEvents,
  ServerToClientEvents,
  SocketData,
} from './socketEvents';

export type QuireServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;
export type QuireSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  InterServerEvents,
  SocketData
>;

/** The sockets of this process in a room (no adapter round trip: local work only). */
export function localSocketsIn(io: QuireServer, room: string): QuireSocket[] {
  const ids = io.sockets.adapter.rooms.get(room);
  if (!ids) return [];
  const sockets: QuireSocket[] = [];
  for (const id of ids) {
    const socket = io.sockets.sockets.get(id);
    if (socket) sockets.push(socket);
  }
  return sockets;
}

/** Whether any socket of this process is in the room (lets listeners skip work for nobody). */
export function hasLocalSockets(io: QuireServer, room: string): boolean {
  return (io.sockets.adapter.rooms.get(room)?.size ?? 0) > 0;
}
