/**
 * Socket.IO session ids of a worker process (WORKERS > 1) start with its slot, `w<slot>-…`, so
 * the primary (server/cluster/route.ts) and the other workers can tell where a session lives
 * from its id alone. Imports nothing: the primary reads it without loading the realtime service.
 */
import { randomBytes } from 'node:crypto';

export function sessionIdFor(slot: number): string {
  return `w${slot}-${randomBytes(15).toString('base64url')}`;
}

/** The worker slot a session id names, undefined when it names none. */
export function workerOfSession(sid: string): number | undefined {
  const match = /^w(\d+)-/.exec(sid);
  return match ? Number(match[1]) : undefined;
}
