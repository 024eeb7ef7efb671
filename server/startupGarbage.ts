/** How long after start-up the collection waits: V8 gives memory back only once allocation calms. */
const SETTLE_MS = 3000;

/**
 * One full garbage collection shortly after the process (all the workers) started serving.
 * Starting leaves garbage and a heap grown for it (the lead worker or single process replays the
 * engine's journal and answers every process's first queries; each compiles its modules) that an
 * idle process would otherwise keep resident until V8 gets round to it. A collection made while
 * start-up still allocates keeps the grown heap; one made after a short quiet gives the pages back
 * (measured: the lead worker at rest 130 → 113 MB RSS). Needs Node's `--expose-gc`, which
 * `npm start` gives the serving processes; without it this does nothing. GC_AFTER_START=false
 * turns it off (the callers ask the configuration).
 */
export function collectStartupGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc) setTimeout(gc, SETTLE_MS).unref();
}
