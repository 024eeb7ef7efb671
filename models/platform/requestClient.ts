/**
 * The client (address) a piece of work is done for. The API transport runs each action inside
 * `runForClient`, so rules that count per client (the visit-password throttle) read it here
 * instead of every model function passing an address through. Work with no request behind it
 * (the CLI, background jobs) has the client ''.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

interface ClientWork {
  client: string;
  /** Event hand-overs to other processes this piece of work started (see `bus.track`). */
  deliveries: Set<Promise<unknown>>;
}

const scope = new AsyncLocalStorage<ClientWork>();

export function runForClient<T>(client: string, work: () => T): T {
  return scope.run({ client, deliveries: new Set() }, work);
}

export function currentClient(): string {
  return scope.getStore()?.client ?? '';
}

/**
 * The event hand-overs started by the current request (undefined outside one): a request waits
 * for its own events to reach the other processes, not for every other request's.
 */
export function requestDeliveries(): Set<Promise<unknown>> | undefined {
  return scope.getStore()?.deliveries;
}
