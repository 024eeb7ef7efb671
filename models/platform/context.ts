/**
 * One Quire's context: everything a running Quire holds that is not in the database — its event
 * bus, logger, clock zone, database connection, file storage, live documents, and each domain's
 * caches (per-context slots). `server/quire.ts` builds one per instance and runs the instance's
 * servers inside it, so two Quires on different data directories can live in one process (the
 * test in test/server/twoInstances.test.ts does).
 *
 * How a domain function reaches its context: the instance's HTTP server, sockets, timers and
 * listeners are created inside `runInContext(ctx, …)`, and Node's AsyncLocalStorage carries the
 * context through every callback and promise that follows. Code outside any instance (the admin
 * CLI, a test calling a model function directly) gets the process's default context, which the
 * first Quire started in the process adopts, so such tests see that Quire's data.
 *
 * Rule for domains: no module-level mutable state. Per-instance state is declared with
 * `perContext(() => initial)` and read through the accessor it returns.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createEventBus, type EventBus, type EventName } from './events';

export interface QuireContext {
  /** For logs and errors: 'default' or the name the instance was given. */
  readonly name: string;
  /** The instance's domain-event bus (relayed to other processes by the Redis relay). */
  readonly bus: EventBus;
  /** Where listener failures go; the instance points it at its logger. */
  reportEventError: (error: unknown, name: EventName) => void;
  /** Per-context state of the domains, created on first use (see `perContext`). */
  readonly slots: Map<symbol, unknown>;
}

const scope = new AsyncLocalStorage<QuireContext>();

export function createContext(name: string): QuireContext {
  const context: QuireContext = {
    name,
    bus: busIn(() => context),
    reportEventError: () => {},
    slots: new Map(),
  };
  return context;
}

/**
 * A bus whose handlers always run in its context, whoever publishes (a Redis relay's socket
 * callback runs outside any instance).
 */
function busIn(contextOf: () => QuireContext): EventBus {
  const inner = createEventBus((error, event) => contextOf().reportEventError(error, event));
  return {
    publish: (name, payload, options) =>
      scope.run(contextOf(), () => inner.publish(name, payload, options)),
    subscribe: inner.subscribe,
    track: inner.track,
    delivered: inner.delivered,
  };
}
const processDefault = createContext('default');
let defaultAdopted = false;

/** The context the calling code runs in: its instance's, or the process's default. */
export function currentContext(): QuireContext {
  return scope.getStore() ?? processDefault;
}

/** True for the process's default context (it uses mongoose's default connection). */
export function isDefaultContext(context: QuireContext): boolean {
  return context === processDefault;
}

/** Runs `work` (and everything it schedules) inside `context`. */
export function runInContext<T>(context: QuireContext, work: () => T): T {
  return scope.run(context, work);
}

/**
 * The context for a new Quire instance: the process default for the first one (so code outside
 * any instance — tests, the CLI — sees its data), a fresh one after that.
 */
export function contextForNewInstance(name: string): QuireContext {
  if (!defaultAdopted) {
    defaultAdopted = true;
    return processDefault;
  }
  return createContext(name);
}

/** Gives the default context back when its instance stops (the next instance may adopt it). */
export function releaseContext(context: QuireContext): void {
  if (context === processDefault) {
    defaultAdopted = false;
    // Caches of the stopped instance must not leak into the next one (its listeners
    // unsubscribed as it stopped).
    processDefault.slots.clear();
    processDefault.reportEventError = () => {};
  }
}

/**
 * Makes every event `emitter` emits run in `context`. Node does not carry the async context into
 * an HTTP server's `upgrade` events nor into a socket's `data` events, so a second instance's
 * WebSocket traffic would otherwise run in the default context. The process default needs none
 * of this (code outside any context already sees it).
 */
export function emitInContext<
  E extends { emit(event: string | symbol, ...args: unknown[]): boolean },
>(emitter: E, context: QuireContext): E {
  if (context === processDefault) return emitter;
  const emit = emitter.emit.bind(emitter);
  emitter.emit = (event, ...args) => scope.run(context, () => emit(event, ...args));
  return emitter;
}

/**
 * Declares per-instance state: the accessor returns the current context's value, created by
 * `create` (run inside that context) on first use.
 */
export function perContext<T>(create: (context: QuireContext) => T): () => T {
  const key = Symbol(create.name || 'slot');
  return () => {
    const context = currentContext();
    if (context.slots.has(key)) return context.slots.get(key) as T;
    const value = create(context);
    context.slots.set(key, value);
    return value;
  };
}

/**
 * The bus of the context the caller runs in. Models publish on `events`; the instance's
 * listeners subscribe on it from inside the instance's context.
 */
export const events: EventBus = {
  publish: (name, payload, options) => currentContext().bus.publish(name, payload, options),
  subscribe: (name, handler, options) => currentContext().bus.subscribe(name, handler, options),
  track: (delivery) => currentContext().bus.track(delivery),
  delivered: () => currentContext().bus.delivered(),
};
