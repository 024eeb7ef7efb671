/**
 * Each instance keeps the read documents it has loaded (per context, see platform/context.ts),
 * so item/info costs a logged-in reader no extra query: the markers change only through
 * markRead/markAllRead, which drop the entry and publish `reads.changed` (relayed to the other
 * processes with REDIS_URL, whose listeners drop theirs). Absent documents are kept too (most
 * users never marked anything in most items). Bounded: least recently used first past
 * MAX_ENTRIES, and an entry is reloaded after MAX_AGE_MS whatever happens.
 */
import { events, NOT_KEPT, noteRead, perContext, type TracedSource } from '../platform';
import { PageRead, type PageReadDoc } from './schemas';

const MAX_ENTRIES = 20_000;
/** A safety net only: the event drops an entry at once. */
const MAX_AGE_MS = 10 * 60_000;

interface Entry {
  doc: Promise<PageReadDoc | null>;
  loadedAt: number;
}

const keyOf = (uid: number, itemId: number) => `${uid}:${itemId}`;

/** For read traces (models/platform/requestClient.ts): the entry kept for a key now. */
class KeptMarkers implements TracedSource {
  constructor(readonly entries: Map<string, Entry>) {}
  currentValue(key: unknown): unknown {
    return this.entries.get(key as string) ?? NOT_KEPT;
  }
}

const cacheOf = perContext(() => {
  const entries = new Map<string, Entry>();
  const kept = new KeptMarkers(entries);
  events.subscribe('reads.changed', ({ uid, itemId }) => {
    entries.delete(keyOf(uid, itemId));
  });
  return kept;
});

/** The user's read document for an item (null: they never marked anything in it). */
export function readDoc(uid: number, itemId: number): Promise<PageReadDoc | null> {
  if (!(uid > 0)) return Promise.resolve(null);
  const kept = cacheOf();
  const { entries } = kept;
  const key = keyOf(uid, itemId);
  const entry = entries.get(key);
  if (entry && Date.now() - entry.loadedAt < MAX_AGE_MS) {
    entries.delete(key); // re-insert: Map order is the LRU order
    entries.set(key, entry);
    noteRead(kept, key, entry);
    return entry.doc;
  }
  const fresh: Entry = {
    doc: PageRead.findOne({ uid, item_id: itemId }, { _id: 0 }).lean<PageReadDoc>().exec(),
    loadedAt: Date.now(),
  };
  entries.set(key, fresh);
  // A failed load must not stick.
  fresh.doc.catch(() => {
    if (entries.get(key) === fresh) entries.delete(key);
  });
  while (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value as string);
  return fresh.doc;
}

/** After a write of the user's markers: drop the local copy, and tell the other processes. */
export function readDocChanged(uid: number, itemId: number): void {
  cacheOf().entries.delete(keyOf(uid, itemId));
  events.publish('reads.changed', { uid, itemId });
}
