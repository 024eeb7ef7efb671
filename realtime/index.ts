/**
 * The realtime service: Socket.IO at /socket.io on the same HTTP server as the API.
 *
 * This is the seam only. Authentication (user_token), rooms (user:/item:/page:), the domain-event
 * fan-out and Hocuspocus (/collab) belong to the realtime issue, which fills in this function
 * without changing how the process wires it (scripts/quire.ts).
 */
import type { Server as HttpServer } from 'node:http';
import { Server as SocketServer } from 'socket.io';
import type { Config } from '../models/config';
import type { EventBus } from '../models/events';
import type { Logger } from '../models/log';

export interface RealtimeDeps {
  config: Config;
  logger: Logger;
  events: EventBus;
}

export interface RealtimeService {
  io: SocketServer;
  /** Disconnects every client. Does not close the HTTP server (its owner does). */
  close(): Promise<void>;
}

export function attachRealtime(httpServer: HttpServer, deps: RealtimeDeps): RealtimeService {
  const io = new SocketServer(httpServer, { path: '/socket.io', serveClient: false });
  const log = deps.logger.child({ service: 'realtime' });
  io.on('connection', (socket) => {
    log.debug({ socket: socket.id }, 'socket connected');
  });
  return {
    io,
    async close() {
      io.disconnectSockets(true);
      io.engine.close();
    },
  };
}
