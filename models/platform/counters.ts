/**
 * Numeric ids (`uid`, `item_id`, `page_id`, …). ShowDoc's URLs, clients and migrated data use
 * integers, so each kind of id has a counter document `{_id: <name>, seq}` in `counters`, bumped
 * atomically with `$inc` + upsert: concurrent callers (even in several processes) never get the
 * same number.
 */
import mongoose, { Schema } from 'mongoose';

interface CounterDoc {
  _id: string;
  seq: number;
}

const counterSchema = new Schema<CounterDoc>(
  { _id: { type: String, required: true }, seq: { type: Number, required: true, default: 0 } },
  { collection: 'counters', versionKey: false },
);

export const Counter = mongoose.model<CounterDoc>('Counter', counterSchema);

/** The next id of this kind: 1 on a fresh database, then 2, 3, … */
export async function nextId(name: string): Promise<number> {
  const doc = await Counter.findOneAndUpdate(
    { _id: name },
    { $inc: { seq: 1 } },
    { upsert: true, returnDocument: 'after', lean: true },
  );
  if (!doc) throw new Error(`counter ${name} was not returned`);
  return doc.seq;
}

/**
 * Makes the next id greater than `value`: after importing rows that carry their own ids, and for
 * the id kinds ShowDoc seeds at a random 9-digit start.
 */
export async function raiseCounter(name: string, value: number): Promise<void> {
  await Counter.updateOne({ _id: name }, { $max: { seq: value } }, { upsert: true });
}
