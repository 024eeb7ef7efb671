/**
 * Conformance: every update operator Quire's models use, positional updates and arrayFilters,
 * and the errors MongoDB returns for updates that do not type-check.
 */
import { describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import {
  MongoServerError,
  Timestamp,
  type Document,
  type UpdateFilter,
  type UpdateOptions,
} from 'mongodb';
import { caught, engineSuite, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_updates';
const suite = engineSuite(DB);

let seq = 0;
/**
 * Stores `doc` (with _id 1) in a collection of its own, applies `update`, returns the stored result.
 * Updates are typed loosely on purpose: several are ones the driver's typings would refuse.
 */
async function applyUpdate(
  doc: AnyDoc,
  update: Document,
  options: UpdateOptions = {},
  filter: AnyDoc = { _id: 1 },
) {
  const coll = suite.db.collection<AnyDoc>(`u${++seq}`);
  await coll.insertOne({ _id: 1, ...doc });
  const res = await coll.updateOne(filter, update as UpdateFilter<AnyDoc>, options);
  expect(res.matchedCount).toBe(1);
  const { _id, ...rest } = (await coll.findOne({ _id: 1 }))!;
  return rest;
}

describe('field operators', () => {
  test('$set replaces values and creates missing subdocuments along a dotted path', async () => {
    expect(await applyUpdate({ a: 1 }, { $set: { a: 2, 'b.c.d': 'deep' } })).toEqual({
      a: 2,
      b: { c: { d: 'deep' } },
    });
  });

  test('$set of top-level fields to the values they hold modifies nothing; a new or changed one does', async () => {
    const coll = suite.db.collection<AnyDoc>(`u${++seq}`);
    await coll.insertOne({ _id: 1, a: 1, b: { c: [1, 2] }, s: 'x' });
    const same = await coll.updateOne({ _id: 1 }, { $set: { a: 1, b: { c: [1, 2] } } });
    expect([same.matchedCount, same.modifiedCount]).toEqual([1, 0]);
    const added = await coll.updateOne({ _id: 1 }, { $set: { a: 1, n: null } });
    expect(added.modifiedCount).toBe(1);
    await coll.updateOne({ _id: 1 }, { $set: { list: [{ k: 1 }] }, $inc: { count: 2 } });
    expect(await coll.findOne({ _id: 1 })).toEqual({
      _id: 1,
      a: 1,
      b: { c: [1, 2] },
      s: 'x',
      n: null,
      list: [{ k: 1 }],
      count: 2,
    });
  });

  test('$set on an array index beyond the end pads with nulls', async () => {
    expect(await applyUpdate({ arr: [1] }, { $set: { 'arr.3': 'x' } })).toEqual({
      arr: [1, null, null, 'x'],
    });
  });

  test('$unset removes a field, and sets an array element to null instead of removing it', async () => {
    expect(
      await applyUpdate({ a: 1, b: 2, arr: [1, 2, 3] }, { $unset: { a: '', 'arr.1': '' } }),
    ).toEqual({ b: 2, arr: [1, null, 3] });
  });

  test('$inc adds to existing numbers and creates missing fields', async () => {
    expect(
      await applyUpdate(
        { n: 5, f: 1.5, sub: { k: 1 } },
        { $inc: { n: -2, f: 1, 'sub.k': 10, fresh: 3 } },
      ),
    ).toEqual({
      n: 3,
      f: 2.5,
      sub: { k: 11 },
      fresh: 3,
    });
  });

  test('$mul multiplies, and a missing field becomes 0', async () => {
    expect(await applyUpdate({ price: 10 }, { $mul: { price: 1.5, missing: 4 } })).toEqual({
      price: 15,
      missing: 0,
    });
  });

  test('$min and $max only move a value in their direction (numbers and dates)', async () => {
    const early = new Date('2020-01-01T00:00:00Z');
    const late = new Date('2030-01-01T00:00:00Z');
    const mid = new Date('2025-01-01T00:00:00Z');
    const res = await applyUpdate(
      { lo: 5, hi: 5, keepLo: 1, keepHi: 9, first: mid, last: mid },
      { $min: { lo: 2, keepLo: 4, first: early }, $max: { hi: 8, keepHi: 3, last: late } },
    );
    expect(res).toEqual({ lo: 2, hi: 8, keepLo: 1, keepHi: 9, first: early, last: late });
  });

  test('$max and $min of plain numbers alone (an item touch) move a value only in their direction', async () => {
    expect(
      await applyUpdate({ t: 5, u: 5, n: 1 }, { $max: { t: 9, u: 2 }, $inc: { n: 1 } }),
    ).toEqual({ t: 9, u: 5, n: 2 });
    expect(await applyUpdate({ t: 5, u: 5 }, { $min: { t: 9, u: 2, v: -1 } })).toEqual({
      t: 5,
      u: 2,
      v: -1,
    });
  });

  test('a $max that changes nothing is reported as matched but not modified', async () => {
    const coll = suite.db.collection<AnyDoc>(`u${++seq}`);
    await coll.insertOne({ _id: 1, t: 10 });
    const res = await coll.updateOne({ _id: 1 }, { $max: { t: 3 } });
    expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, t: 10 });
  });

  test('$min/$max on a missing field sets it', async () => {
    expect(await applyUpdate({}, { $min: { a: 3 }, $max: { b: 4 } })).toEqual({ a: 3, b: 4 });
  });

  test('$rename moves fields, including into and out of subdocuments; a missing source is a no-op', async () => {
    const res = await applyUpdate(
      { old: 1, nested: { inner: 2 }, keep: 3 },
      { $rename: { old: 'renamed', 'nested.inner': 'flat', ghost: 'spirit' } },
    );
    expect(res).toEqual({ renamed: 1, nested: {}, flat: 2, keep: 3 });
  });

  test('$currentDate sets a Date (true or {$type:"date"}) and a Timestamp ({$type:"timestamp"})', async () => {
    const before = Date.now();
    const res = await applyUpdate(
      {},
      { $currentDate: { d1: true, d2: { $type: 'date' }, ts: { $type: 'timestamp' } } },
    );
    const after = Date.now();
    for (const d of [res.d1, res.d2]) {
      expect(d).toBeInstanceOf(Date);
      expect(d.getTime()).toBeGreaterThanOrEqual(before - 1000);
      expect(d.getTime()).toBeLessThanOrEqual(after + 1000);
    }
    expect(res.ts).toBeInstanceOf(Timestamp);
    const seconds = (res.ts as Timestamp).t;
    expect(seconds).toBeGreaterThanOrEqual(Math.floor(before / 1000) - 1);
    expect(seconds).toBeLessThanOrEqual(Math.ceil(after / 1000) + 1);
  });

  test('operators on different paths combine in one update', async () => {
    const res = await applyUpdate(
      { a: 1, b: [1], c: 'x' },
      { $inc: { a: 1 }, $push: { b: 2 }, $unset: { c: '' }, $set: { d: true } },
    );
    expect(res).toEqual({ a: 2, b: [1, 2], d: true });
  });
});

describe('array operators', () => {
  test('$push appends one value, creating the array when missing', async () => {
    expect(await applyUpdate({ a: [1] }, { $push: { a: 2, created: 'x' } })).toEqual({
      a: [1, 2],
      created: ['x'],
    });
  });

  test('$push without $each appends an array as a single element', async () => {
    expect(await applyUpdate({ a: [1] }, { $push: { a: [2, 3] } })).toEqual({ a: [1, [2, 3]] });
  });

  test('$push with $each appends several values', async () => {
    expect(await applyUpdate({ a: [1] }, { $push: { a: { $each: [2, 3] } } })).toEqual({
      a: [1, 2, 3],
    });
  });

  test('$push with $position inserts at an index (negative counts from the end)', async () => {
    expect(
      await applyUpdate(
        { a: ['a', 'b', 'c'] },
        { $push: { a: { $each: ['x', 'y'], $position: 0 } } },
      ),
    ).toEqual({ a: ['x', 'y', 'a', 'b', 'c'] });
    expect(
      await applyUpdate({ a: ['a', 'b', 'c'] }, { $push: { a: { $each: ['x'], $position: -1 } } }),
    ).toEqual({ a: ['a', 'b', 'x', 'c'] });
  });

  test('$push with $slice keeps the first/last N elements ($slice: 0 empties)', async () => {
    expect(
      await applyUpdate({ a: [1, 2, 3] }, { $push: { a: { $each: [4, 5], $slice: -3 } } }),
    ).toEqual({ a: [3, 4, 5] });
    expect(
      await applyUpdate({ a: [1, 2, 3] }, { $push: { a: { $each: [4], $slice: 2 } } }),
    ).toEqual({ a: [1, 2] });
    expect(await applyUpdate({ a: [1, 2, 3] }, { $push: { a: { $each: [], $slice: 0 } } })).toEqual(
      { a: [] },
    );
  });

  test('$push with $sort sorts the whole array, then $slice trims it', async () => {
    expect(
      await applyUpdate({ a: [5, 1] }, { $push: { a: { $each: [3, 9], $sort: -1 } } }),
    ).toEqual({ a: [9, 5, 3, 1] });
    const res = await applyUpdate(
      {
        quizzes: [
          { id: 1, s: 6 },
          { id: 2, s: 9 },
        ],
      },
      {
        $push: {
          quizzes: {
            $each: [
              { id: 3, s: 8 },
              { id: 4, s: 7 },
              { id: 5, s: 5 },
            ],
            $sort: { s: 1 },
            $slice: 3,
          },
        },
      },
    );
    expect(res.quizzes.map((q: { id: number }) => q.id)).toEqual([5, 1, 4]);
  });

  test('$addToSet adds only values not already present; $each also de-duplicates its own list', async () => {
    expect(await applyUpdate({ tags: ['a', 'b'] }, { $addToSet: { tags: 'b' } })).toEqual({
      tags: ['a', 'b'],
    });
    expect(
      await applyUpdate(
        { tags: ['a', 'b'] },
        { $addToSet: { tags: { $each: ['b', 'c', 'c', 'd'] } } },
      ),
    ).toEqual({ tags: ['a', 'b', 'c', 'd'] });
    expect(await applyUpdate({}, { $addToSet: { tags: { $each: ['x'] } } })).toEqual({
      tags: ['x'],
    });
  });

  test('$pull removes values equal to a value or matching a condition', async () => {
    expect(await applyUpdate({ a: [1, 2, 3, 2] }, { $pull: { a: 2 } })).toEqual({ a: [1, 3] });
    expect(await applyUpdate({ a: [1, 6, 3, 8] }, { $pull: { a: { $gte: 6 } } })).toEqual({
      a: [1, 3],
    });
  });

  test('$pull on an array of documents treats the condition as a query on each element', async () => {
    const items = [
      { n: 'a', q: 1 },
      { n: 'b', q: 5 },
      { n: 'c', q: 1 },
    ];
    expect(await applyUpdate({ items }, { $pull: { items: { q: { $lt: 2 } } } })).toEqual({
      items: [{ n: 'b', q: 5 }],
    });
    expect(await applyUpdate({ items }, { $pull: { items: { n: 'b' } } })).toEqual({
      items: [
        { n: 'a', q: 1 },
        { n: 'c', q: 1 },
      ],
    });
  });

  test('$pullAll removes every listed value', async () => {
    expect(await applyUpdate({ a: [0, 2, 5, 5, 1, 0] }, { $pullAll: { a: [0, 5] } })).toEqual({
      a: [2, 1],
    });
  });

  test('$pop removes the last (1) or the first (-1) element', async () => {
    expect(await applyUpdate({ a: [1, 2, 3] }, { $pop: { a: 1 } })).toEqual({ a: [1, 2] });
    expect(await applyUpdate({ a: [1, 2, 3] }, { $pop: { a: -1 } })).toEqual({ a: [2, 3] });
  });
});

describe('positional updates', () => {
  const items = () => [
    { n: 'a', q: 1 },
    { n: 'b', q: 5 },
    { n: 'c', q: 1 },
  ];

  test('positional $ updates the first array element the filter matched (scalars)', async () => {
    expect(
      await applyUpdate(
        { grades: [80, 85, 90, 85] },
        { $set: { 'grades.$': 82 } },
        {},
        { _id: 1, grades: 85 },
      ),
    ).toEqual({ grades: [80, 82, 90, 85] });
  });

  test('positional $ updates a field of the matched subdocument', async () => {
    const res = await applyUpdate(
      { items: items() },
      { $inc: { 'items.$.q': 10 } },
      {},
      { _id: 1, 'items.n': 'b' },
    );
    expect(res.items).toEqual([
      { n: 'a', q: 1 },
      { n: 'b', q: 15 },
      { n: 'c', q: 1 },
    ]);
  });

  test('positional $ follows an $elemMatch filter', async () => {
    const res = await applyUpdate(
      { items: items() },
      { $set: { 'items.$.n': 'C' } },
      {},
      { _id: 1, items: { $elemMatch: { q: 1, n: 'c' } } },
    );
    expect(res.items[2]).toEqual({ n: 'C', q: 1 });
    expect(res.items[0]).toEqual({ n: 'a', q: 1 });
  });

  test('$[] updates every element', async () => {
    expect(await applyUpdate({ grades: [1, 2, 3] }, { $inc: { 'grades.$[]': 10 } })).toEqual({
      grades: [11, 12, 13],
    });
    const res = await applyUpdate({ items: items() }, { $set: { 'items.$[].seen': true } });
    expect(res.items.every((i: { seen?: boolean }) => i.seen === true)).toBe(true);
  });

  test('$[<id>] with arrayFilters updates only the matching elements', async () => {
    const scalars = await applyUpdate(
      { grades: [95, 102, 90, 150] },
      { $set: { 'grades.$[g]': 100 } },
      { arrayFilters: [{ g: { $gte: 100 } }] },
    );
    expect(scalars).toEqual({ grades: [95, 100, 90, 100] });
    const docs = await applyUpdate(
      { items: items() },
      { $set: { 'items.$[it].low': true } },
      { arrayFilters: [{ 'it.q': { $lt: 2 } }] },
    );
    expect(docs.items).toEqual([
      { n: 'a', q: 1, low: true },
      { n: 'b', q: 5 },
      { n: 'c', q: 1, low: true },
    ]);
  });

  test('nested $[<id>] identifiers each filter their own array level', async () => {
    const rows = [
      { k: 'x', cells: [1, 2, 3] },
      { k: 'y', cells: [1, 2, 3] },
    ];
    const res = await applyUpdate(
      { rows },
      { $inc: { 'rows.$[r].cells.$[c]': 100 } },
      { arrayFilters: [{ 'r.k': 'x' }, { c: { $gt: 1 } }] },
    );
    expect(res.rows).toEqual([
      { k: 'x', cells: [1, 102, 103] },
      { k: 'y', cells: [1, 2, 3] },
    ]);
  });

  test('mongoose: positional and arrayFilters updates on a subdocument array', async () => {
    const Catalog =
      suite.conn.models.Catalog ??
      suite.conn.model(
        'Catalog',
        new Schema({
          name: String,
          pages: [new Schema({ page_id: Number, title: String, order: Number }, { _id: false })],
        }),
      );
    const cat = await Catalog.create({
      name: 'c',
      pages: [
        { page_id: 1, title: 'one', order: 1 },
        { page_id: 2, title: 'two', order: 2 },
        { page_id: 3, title: 'three', order: 3 },
      ],
    });
    await Catalog.updateOne(
      { _id: cat._id, 'pages.page_id': 2 },
      { $set: { 'pages.$.title': 'TWO' } },
    );
    await Catalog.updateOne(
      { _id: cat._id },
      { $inc: { 'pages.$[p].order': 10 } },
      { arrayFilters: [{ 'p.page_id': { $gte: 2 } }] },
    );
    const stored = await Catalog.findById(cat._id).lean();
    expect(stored!.pages).toEqual([
      { page_id: 1, title: 'one', order: 1 },
      { page_id: 2, title: 'TWO', order: 12 },
      { page_id: 3, title: 'three', order: 13 },
    ]);
  });
});

describe('update errors', () => {
  /** Runs an update that must fail; returns the error and the (unchanged) stored document. */
  async function failingUpdate(doc: AnyDoc, update: Document) {
    const coll = suite.db.collection<AnyDoc>(`e${++seq}`);
    await coll.insertOne({ _id: 1, ...doc });
    const err = await caught(() => coll.updateOne({ _id: 1 }, update as UpdateFilter<AnyDoc>));
    expect(err).toBeInstanceOf(MongoServerError);
    return { err, stored: await coll.findOne({ _id: 1 }) };
  }

  test('$inc on a string field fails with code 14 (TypeMismatch) and leaves the document alone', async () => {
    const { err, stored } = await failingUpdate({ n: 'five' }, { $inc: { n: 1 } });
    expect(err.code).toBe(14);
    expect(err.message).toMatch(/Cannot apply \$inc to a value of non-numeric type/);
    expect(stored).toEqual({ _id: 1, n: 'five' });
  });

  test('$inc with a non-numeric argument fails with code 14 (TypeMismatch)', async () => {
    const { err, stored } = await failingUpdate({ n: 1 }, { $inc: { n: 'one' } });
    expect(err.code).toBe(14);
    expect(stored).toEqual({ _id: 1, n: 1 });
  });

  test('$push on a non-array field fails with code 2 (BadValue)', async () => {
    const { err, stored } = await failingUpdate({ tags: 'solo' }, { $push: { tags: 'x' } });
    expect(err.code).toBe(2);
    expect(err.message).toMatch(/The field 'tags' must be an array but is of type string/);
    expect(stored).toEqual({ _id: 1, tags: 'solo' });
  });

  test('two operators on the same path fail with code 40 (ConflictingUpdateOperators)', async () => {
    const { err, stored } = await failingUpdate({ a: 1 }, { $set: { a: 5 }, $inc: { a: 1 } });
    expect(err.code).toBe(40);
    expect(stored).toEqual({ _id: 1, a: 1 });
  });
});
