/**
 * A Socket.IO long-polling request for a session another worker holds can land here: the
 * primary routes each new connection by its first request, and a browser reuses a kept-alive
 * connection (opened for, say, an API call that came to this worker) for its later polls. Such a
 * request is passed on, as it is, to the worker that holds the session over that worker's
 * private unix socket in DATA_DIR, and its answer passed back — so polling works whatever
 * connection the browser picks, without closing kept-alive connections. WebSocket upgrades never
 * need this: a browser opens a new connection for each, and the primary routes it by its `sid`.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { workerOfSession } from '../../realtime/sessionIds';

export function workerSocketPath(dataDir: string, slot: number): string {
  return path.join(dataDir, `quire-worker-${slot}.sock`);
}

/** The slot of the session a Socket.IO request names, when it is not `own`. */
function foreignSlot(request: http.IncomingMessage, own: number): number | undefined {
  const url = request.url ?? '';
  if (!url.startsWith('/socket.io')) return undefined;
  const sid = /[?&]sid=([^&]+)/.exec(url)?.[1];
  const slot = sid ? workerOfSession(decodeURIComponent(sid)) : undefined;
  return slot === own ? undefined : slot;
}

export function passOnForeignSessions(server: http.Server, slot: number, dataDir: string): void {
  // This worker's own door for the others: the same HTTP server, reached over a unix socket.
  fs.mkdirSync(dataDir, { recursive: true });
  const own = workerSocketPath(dataDir, slot);
  fs.rmSync(own, { force: true }); // left by this slot's previous worker if it was killed
  const door = net.createServer((socket) => server.emit('connection', socket));
  door.listen({ path: own, exclusive: true });
  server.once('close', () => door.close());

  // engine.io put its own listener first (it passes other requests on to the app); this one
  // goes in front of it.
  const listeners = server.listeners('request') as http.RequestListener[];
  server.removeAllListeners('request');
  server.on('request', (request, response) => {
    const target = foreignSlot(request, slot);
    if (target === undefined) {
      for (const listener of listeners) listener.call(server, request, response);
      return;
    }
    const forward = http.request(
      {
        socketPath: workerSocketPath(dataDir, target),
        method: request.method,
        path: request.url,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    // The session's worker is gone: the client sees a failed poll and opens a new session.
    forward.on('error', () => {
      if (!response.headersSent) response.writeHead(502);
      response.end();
    });
    request.pipe(forward);
  });
}
