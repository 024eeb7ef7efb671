/**
 * Numeric ids (`uid`, `item_id`, `page_id`, …). ShowDoc's URLs, clients and migrated data use
 * integers, so each kind of id has a counter document `{_id: <name>, seq}` in `counters`, bumped
 * atomically with `$inc` + upsert: concurrent callers (even in several processes) never get the
 * same number.
 */
import { Schema } from 'mongoose';
import { defineModel } from './model';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true, default: 0 } },
  { collection: 'counters', versionKey: false },
);

export const Counter = defineModel<CounterDoc>('Counter', counterSchema);

/** The next id of this kind: 1 on a fresh database, then 2, 3, … */
export async function nextId(name: string): Promise<number> {
  const doc = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    // Never part of a caller's transaction: a rolled-back import leaves a gap in the ids, not a
    // write conflict with every concurrent save.
    { upsert: true, returnDocument: 'after', lean: true, session: null },
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
