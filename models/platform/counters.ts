/**
 * Numeric ids (`uid`, `item_id`, `page_id`, …). ShowDoc's URLs, clients and migrated data use
 * integers, so each kind of id has a counter document `{_id: <name>, seq}` in `counters`, bumped
 * atomically with `$inc` + upsert: concurrent callers (even in several processes) never get the
 * same number.
 */
import { Schema } from 'mongoose';
import { perContext } from './context';
import { defineModel } from './model';
import { UNJOURNALED } from './writeConcerns';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true, default: 0 } },
  { collection: 'counters', versionKey: false },
);

export const Counter = defineModel<CounterDoc>('Counter', counterSchema);

/**
 * The next id of this kind: 1 on a fresh database, then 2, 3, … `journal: false` answers before
 * the counter's step is on disk (writeConcerns.ts): for an id only used by a journaled write the
 * caller makes after it, which then carries the step to disk.
 */
export async function nextId(name: string, options: { journal?: boolean } = {}): Promise<number> {
  const doc = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    // Never part of a caller's transaction: a rolled-back import leaves a gap in the ids, not a
    // write conflict with every concurrent save.
    {
      upsert: true,
      returnDocument: 'after',
      lean: true,
      session: null,
      ...(options.journal === false ? UNJOURNALED : {}),
    },
  );
  if (!doc) throw new Error(`counter ${name} was not returned`);
  return doc.seq;
}

/**
 * `count` consecutive ids of this kind in one `$inc` (a batch of rows: one round trip instead of
 * one per row). Concurrent callers get disjoint ranges. Returns them in order; [] for count 0.
 */
export async function nextIds(name: string, count: number): Promise<number[]> {
  if (!(count > 0)) return [];
  const doc = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: count } },
    { upsert: true, returnDocument: 'after', lean: true },
  );
  if (!doc) throw new Error(`counter ${name} was not returned`);
  const first = doc.seq - count + 1;
  return Array.from({ length: count }, (_, i) => first + i);
}

/**
 * Makes the next id greater than `value`: after importing rows that carry their own ids, and for
 * the id kinds ShowDoc seeds at a random 9-digit start.
 */
export async function raiseCounter(name: string, value: number): Promise<void> {
  await Counter.updateOne({ _id: name }, { $max: { seq: value } }, { upsert: true });
}

/** Ids a process has taken from a counter and not handed out yet, per kind. */
const reserves = perContext((context) => {
  const byName = new Map<string, { next: number; end: number; refill?: Promise<void> }>();
  // A restored dump or a migration may have moved the counters: what was taken is set aside.
  context.bus.subscribe('data.replaced', () => byName.clear(), { synchronous: true });
  return byName;
});

/**
 * An id of this kind from a block this process takes from the counter `block` at a time: most
 * calls need no database round trip, so a write can go out with its id in hand. Only for ids
 * that must be unique but say nothing of order (another process's rows may carry smaller ids
 * written later), and a block left unused when the process stops is a gap.
 */
export async function reservedId(name: string, block: number): Promise<number> {
  const byName = reserves();
  for (;;) {
    let reserve = byName.get(name);
    if (reserve && reserve.next < reserve.end) return reserve.next++;
    if (!reserve?.refill) {
      const refilling = nextIds(name, block).then(
        (ids) => {
          byName.set(name, { next: ids[0], end: ids[0] + ids.length });
        },
        (error: unknown) => {
          byName.delete(name);
          throw error;
        },
      );
      reserve = { next: 0, end: 0, refill: refilling };
      byName.set(name, reserve);
    }
    await reserve.refill;
  }
}
