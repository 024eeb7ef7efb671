/**
 * The client (address) a piece of work is done for. The API transport runs each action inside
 * `runForClient`, so rules that count per client (the visit-password throttle) read it here
 * instead of every model function passing an address through. Work with no request behind it
 * (the CLI, background jobs) has the client ''.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

const scope = new AsyncLocalStorage<string>();

export function runForClient<T>(client: string, work: () => T): T {
  return scope.run(client, work);
}

export function currentClient(): string {
  return scope.getStore() ?? '';
}
