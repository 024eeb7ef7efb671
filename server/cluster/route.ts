/**
 * Where the primary sends a new connection, read from its first bytes (the HTTP request line):
 *
 * - `/collab` (Hocuspocus) → the lead worker, so each page's Yjs document has one owner;
 * - `/socket.io/…?sid=w<slot>-…` (a Socket.IO session's later requests, and its upgrade to a
 *   WebSocket) → the worker that holds the session (realtime/index.ts names it in the id);
 * - anything else → the next worker in turn.
 *
 * A kept-alive connection stays with its worker for every later request on it; the worker passes
 * on a session request that reached it this way (server/cluster/sessionProxy.ts).
 */
import { workerOfSession } from '../../realtime/sessionIds';

export type Route = { to: 'lead' } | { to: 'slot'; slot: number } | { to: 'any' };

/** Reads a request line's target path and query (undefined when the bytes hold none). */
function requestTarget(head: Buffer): string | undefined {
  const end = head.indexOf('\r\n');
  const line = head.toString('latin1', 0, end === -1 ? Math.min(head.length, 8192) : end);
  const match = /^[A-Z]+ (\S+) HTTP\/1\.[01]$/.exec(line);
  return match?.[1];
}

export function routeOf(head: Buffer): Route {
  const target = requestTarget(head);
  if (!target) return { to: 'any' };
  const queryAt = target.indexOf('?');
  const path = queryAt === -1 ? target : target.slice(0, queryAt);
  if (path === '/collab' || path === '/collab/') return { to: 'lead' };
  if (path === '/socket.io/' || path === '/socket.io') {
    const sid = new URLSearchParams(queryAt === -1 ? '' : target.slice(queryAt + 1)).get('sid');
    const slot = sid ? workerOfSession(sid) : undefined;
    if (slot !== undefined) return { to: 'slot', slot };
  }
  return { to: 'any' };
}
