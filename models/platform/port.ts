/**
 * A read a domain needs from a domain above it. Domains import one another's faces in one order
 * (test/scripts/importCycles.test.ts): access below items, members and catalogs, items below
 * pages, pages below catalogs. When a lower domain needs rows a higher one owns, it declares a
 * port here and the owner fills it from its own index.ts, so the reader names what it needs and
 * the owner alone knows the collection and its field names.
 *
 * Filled once as the owner's face is loaded, not per instance: what is plugged in is code (the
 * owner's functions), which reaches the instance's database through the context like any other
 * model function. The app loads every domain; a reader whose owner was not loaded fails loudly.
 */
export interface Port<T> {
  /** The owner's implementation (the owner calls this from its index.ts). */
  fill(implementation: T): void;
  /** The implementation; throws when the owner's domain was not loaded. */
  use(): T;
}

export function definePort<T>(name: string, owner: string): Port<T> {
  let implementation: T | undefined;
  return {
    fill(value) {
      implementation = value;
    },
    use() {
      if (implementation === undefined)
        throw new Error(`${name}: nothing fills this port (models/${owner} is not loaded)`);
      return implementation;
    },
  };
}
