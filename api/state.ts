/**
 * The process lifecycle as the HTTP layer sees it. The server listens before the database is
 * open, so health checks can tell "starting" (503) from "ready" (200); on shutdown it flips to
 * "stopping" so load balancers drain it while in-flight requests finish.
 */
import type { Database } from '../models/platform';

export interface AppState {
  phase: 'starting' | 'ready' | 'stopping';
  database?: Pick<Database, 'mode' | 'ping' | 'reachable'>;
}

export function createAppState(): AppState {
  return { phase: 'starting' };
}
