/**
 * Conformance: query operators (arrays especially), sort order across BSON types, skip/limit,
 * projections, regular expressions, cursors over 10,000 documents, counts and distinct.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import {
  Binary,
  BSONRegExp,
  Decimal128,
  Double,
  Long,
  MongoClient,
  MongoServerError,
  ObjectId,
  type CommandStartedEvent,
  type CommandSucceededEvent,
  type Filter,
} from 'mongodb';
import { caught, engineSuite, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_queries';
const suite = engineSuite(DB);

const { collection } = suite;

/** _ids of the documents matching `filter`, ascending. */
async function ids(coll: string, filter: Filter<AnyDoc>): Promise<unknown[]> {
  return (
    await collection(coll)
      .find(filter, { projection: { _id: 1 } })
      .sort({ _id: 1 })
      .toArray()
  ).map((d) => d._id);
}

describe('array query operators', () => {
  beforeAll(async () => {
    await collection('arr').insertMany([
      {
        _id: 1,
        tags: ['a', 'b'],
        scores: [82, 95],
        items: [
          { n: 'a', q: 1 },
          { n: 'b', q: 5 },
        ],
      },
      { _id: 2, tags: ['b', 'a'], scores: [75, 88], items: [{ n: 'a', q: 7 }] },
      { _id: 3, tags: ['c'], scores: [84], items: [{ n: 'b', q: 1 }] },
      { _id: 4, tags: 'a', scores: 90 },
      { _id: 5, tags: ['a', 'b', 'c'], scores: [] },
      { _id: 6 },
    ]);
  });

  test('equality on an array field matches an element, or the whole array exactly (order matters)', async () => {
    expect(await ids('arr', { tags: 'a' })).toEqual([1, 2, 4, 5]);
    expect(await ids('arr', { tags: ['a', 'b'] })).toEqual([1]);
  });

  test('$in matches when any element is in the list; $nin excludes those (and keeps missing fields)', async () => {
    expect(await ids('arr', { tags: { $in: ['c', 'zzz'] } })).toEqual([3, 5]);
    expect(await ids('arr', { tags: { $nin: ['a'] } })).toEqual([3, 6]);
  });

  test('$ne on an array excludes documents whose array contains the value', async () => {
    expect(await ids('arr', { tags: { $ne: 'b' } })).toEqual([3, 4, 6]);
  });

  test('$all requires every value regardless of order', async () => {
    expect(await ids('arr', { tags: { $all: ['b', 'a'] } })).toEqual([1, 2, 5]);
  });

  test('$size matches the array length exactly', async () => {
    expect(await ids('arr', { tags: { $size: 2 } })).toEqual([1, 2]);
    expect(await ids('arr', { scores: { $size: 0 } })).toEqual([5]);
  });

  test('$elemMatch needs one element to satisfy every condition; bare range conditions may use different elements', async () => {
    expect(await ids('arr', { scores: { $elemMatch: { $gte: 80, $lt: 85 } } })).toEqual([1, 3]);
    expect(await ids('arr', { scores: { $gte: 80, $lt: 85 } })).toEqual([1, 2, 3]);
  });

  test('$elemMatch on subdocuments vs dotted conditions that may match across elements', async () => {
    expect(await ids('arr', { items: { $elemMatch: { n: 'a', q: { $gt: 3 } } } })).toEqual([2]);
    expect(await ids('arr', { 'items.n': 'a', 'items.q': { $gt: 3 } })).toEqual([1, 2]);
  });

  test('a numeric path component addresses an array index', async () => {
    expect(await ids('arr', { 'tags.0': 'b' })).toEqual([2]);
    expect(await ids('arr', { 'items.1.q': 5 })).toEqual([1]);
  });
});

describe('null, existence, type and logical operators', () => {
  beforeAll(async () => {
    await collection('misc').insertMany([
      { _id: 1, v: null, a: 1, b: 1 },
      { _id: 2, a: 2, b: 1 },
      { _id: 3, v: 5, a: 3, b: 4 },
      { _id: 4, v: '5', a: 4, b: 4 },
      { _id: 5, v: 10, a: 5, b: 9 },
    ]);
  });

  test('{v: null} matches null and missing; $exists:false only missing; $type "null" only null', async () => {
    expect(await ids('misc', { v: null })).toEqual([1, 2]);
    expect(await ids('misc', { v: { $exists: false } })).toEqual([2]);
    expect(await ids('misc', { v: { $type: 'null' } })).toEqual([1]);
    expect(await ids('misc', { v: { $exists: true } })).toEqual([1, 3, 4, 5]);
  });

  test('comparison operators only match values of the same type bracket', async () => {
    expect(await ids('misc', { v: { $gt: 1 } })).toEqual([3, 5]);
    expect(await ids('misc', { v: { $gte: '0' } })).toEqual([4]);
  });

  test('an equality with numeric bounds: every numeric type, each bound by any array element, never NaN, null or missing', async () => {
    await collection('ranges').insertMany([
      { _id: 1, k: 1, n: 5 },
      { _id: 2, k: 1, n: Long.fromNumber(7) },
      { _id: 3, k: 1, n: new Double(9.5) },
      { _id: 4, k: 1, n: Number.NaN },
      { _id: 5, k: 1, n: null },
      { _id: 6, k: 1 },
      { _id: 7, k: 2, n: 6 },
      { _id: 8, k: 1, n: [1, 20] },
    ]);
    expect(await ids('ranges', { k: 1, n: { $gt: 4, $lte: 9.5 } })).toEqual([1, 2, 3, 8]);
    expect(await ids('ranges', { k: 1, n: { $lt: 6 } })).toEqual([1, 8]);
    expect(await ids('ranges', { k: { $in: [1, 2] }, n: { $gte: 6, $lt: 8 } })).toEqual([2, 7, 8]);
    expect(await ids('ranges', { k: 1, n: { $gt: 10, $lt: 2 } })).toEqual([8]);
  });

  test('$or, $and, $nor and $not combine conditions', async () => {
    expect(await ids('misc', { $or: [{ a: 1 }, { v: 10 }] })).toEqual([1, 5]);
    expect(await ids('misc', { $and: [{ b: 4 }, { a: { $gt: 3 } }] })).toEqual([4]);
    expect(await ids('misc', { $nor: [{ b: 1 }, { v: '5' }] })).toEqual([3, 5]);
    expect(await ids('misc', { a: { $not: { $gt: 2 } } })).toEqual([1, 2]);
  });

  test('$expr compares two fields of the same document', async () => {
    expect(await ids('misc', { $expr: { $gt: ['$b', '$a'] } })).toEqual([3, 5]);
  });

  describe('numbers compare by value across int, double, long and decimal', () => {
    beforeAll(async () => {
      await collection('nums').insertMany([
        { _id: 'int', v: 3 },
        { _id: 'double', v: 2.5 },
        { _id: 'long', v: Long.fromNumber(4) },
        { _id: 'decimal', v: Decimal128.fromString('3.5') },
      ]);
    });

    test('equality matches across numeric types', async () => {
      expect(await ids('nums', { v: 4 })).toEqual(['long']);
      expect(await ids('nums', { v: Decimal128.fromString('3') })).toEqual(['int']);
    });

    test('equality and $in never match a number with a string, and match every numeric type', async () => {
      await collection('mixed').insertMany([
        { _id: 1, v: 5 },
        { _id: 2, v: '5' },
        { _id: 3, v: -0 },
        { _id: 4, v: Long.fromNumber(5) },
        { _id: 5, v: [7, '8'] },
        { _id: 6, v: Number.NaN },
        { _id: 7 },
      ]);
      expect(await ids('mixed', { v: 5 })).toEqual([1, 4]);
      expect(await ids('mixed', { v: '5' })).toEqual([2]);
      expect(await ids('mixed', { v: { $in: [5, '8'] } })).toEqual([1, 4, 5]);
      expect(await ids('mixed', { v: { $in: ['5', 7] } })).toEqual([2, 5]);
      expect(await ids('mixed', { v: 0 })).toEqual([3]);
      expect(await ids('mixed', { v: Number.NaN })).toEqual([6]);
      expect(await ids('mixed', { v: { $in: [Long.fromNumber(7), 'x'] } })).toEqual([5]);
      expect(await ids('mixed', { v: { $in: [Decimal128.fromString('5'), 9] } })).toEqual([1, 4]);
    });

    test('sort orders across numeric types by value', async () => {
      const sorted = await collection('nums').find({}).sort({ v: 1 }).toArray();
      expect(sorted.map((d) => d._id)).toEqual(['double', 'int', 'decimal', 'long']);
    });
  });
});

describe('sort, skip, limit', () => {
  test('missing and null sort as equal (ties broken by the next key)', async () => {
    await collection('sort_null').insertMany([
      { _id: 3, x: 1 },
      { _id: 2 },
      { _id: 1, x: null },
      { _id: 0 },
      { _id: 4, x: 0 },
    ]);
    const asc = await collection('sort_null').find({}).sort({ x: 1, _id: 1 }).toArray();
    expect(asc.map((d) => d._id)).toEqual([0, 1, 2, 4, 3]);
    const desc = await collection('sort_null').find({}).sort({ x: -1, _id: 1 }).toArray();
    expect(desc.map((d) => d._id)).toEqual([3, 4, 0, 1, 2]);
  });

  test('values of different types sort in BSON order', async () => {
    const oid = new ObjectId();
    await collection('sort_types').insertMany([
      { _id: 'regex', v: new BSONRegExp('x', '') },
      { _id: 'date', v: new Date(0) },
      { _id: 'bool', v: false },
      { _id: 'oid', v: oid },
      { _id: 'bin', v: new Binary(Buffer.from([1, 2])) },
      { _id: 'obj', v: { a: 1 } },
      { _id: 'str', v: 'a' },
      { _id: 'num', v: 1 },
      { _id: 'null', v: null },
    ]);
    const expected = ['null', 'num', 'str', 'obj', 'bin', 'oid', 'bool', 'date', 'regex'];
    const asc = await collection('sort_types').find({}).sort({ v: 1 }).toArray();
    expect(asc.map((d) => d._id)).toEqual(expected);
    const desc = await collection('sort_types').find({}).sort({ v: -1 }).toArray();
    expect(desc.map((d) => d._id)).toEqual([...expected].reverse());
  });

  test('arrays sort by their smallest element ascending and their largest element descending', async () => {
    await collection('sort_arrays').insertMany([
      { _id: 1, a: [1, 5] },
      { _id: 2, a: [3, 4] },
      { _id: 3, a: 2 },
    ]);
    const asc = await collection('sort_arrays').find({}).sort({ a: 1 }).toArray();
    expect(asc.map((d) => d._id)).toEqual([1, 3, 2]);
    const desc = await collection('sort_arrays').find({}).sort({ a: -1 }).toArray();
    expect(desc.map((d) => d._id)).toEqual([1, 2, 3]);
  });

  test('an empty array sorts before null and missing ascending', async () => {
    await collection('sort_empty').insertMany([
      { _id: 1, a: null },
      { _id: 2, a: [] },
      { _id: 3 },
      { _id: 4, a: 0 },
    ]);
    const asc = await collection('sort_empty').find({}).sort({ a: 1, _id: 1 }).toArray();
    expect(asc.map((d) => d._id)).toEqual([2, 1, 3, 4]);
  });

  test('sorting on several keys and on a nested path', async () => {
    await collection('sort_multi').insertMany([
      { _id: 1, g: 'b', meta: { rank: 2 } },
      { _id: 2, g: 'a', meta: { rank: 1 } },
      { _id: 3, g: 'b', meta: { rank: 1 } },
      { _id: 4, g: 'a', meta: { rank: 3 } },
    ]);
    const byGroupThenRankDesc = await collection('sort_multi')
      .find({})
      .sort({ g: 1, 'meta.rank': -1 })
      .toArray();
    expect(byGroupThenRankDesc.map((d) => d._id)).toEqual([4, 2, 1, 3]);
  });

  test('skip and limit page through a sorted result without overlap', async () => {
    await collection('paging').insertMany(
      Array.from({ length: 25 }, (_, i) => ({ _id: i, n: 24 - i })),
    );
    const pages: number[][] = [];
    for (let page = 0; page < 3; page++) {
      const docs = await collection('paging')
        .find({})
        .sort({ n: 1 })
        .skip(page * 10)
        .limit(10)
        .toArray();
      pages.push(docs.map((d) => d.n));
    }
    expect(pages[0]).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(pages[2]).toEqual([20, 21, 22, 23, 24]);
    expect(pages.flat()).toHaveLength(25);
    expect(await collection('paging').find({}).skip(100).toArray()).toEqual([]);
  });
});

describe('projection', () => {
  beforeAll(async () => {
    await collection('proj').insertOne({
      _id: 1,
      name: 'p',
      secret: 's',
      meta: { rank: 1, hidden: true },
      tags: ['a', 'b', 'c', 'd'],
      items: [
        { n: 'a', q: 1 },
        { n: 'b', q: 5 },
        { n: 'c', q: 9 },
      ],
    });
  });
  const one = (projection: AnyDoc, filter: AnyDoc = { _id: 1 }) =>
    collection('proj').findOne(filter, { projection });

  test('inclusion keeps _id unless excluded; exclusion drops only the named fields', async () => {
    expect(await one({ name: 1 })).toEqual({ _id: 1, name: 'p' });
    expect(await one({ name: 1, _id: 0 })).toEqual({ name: 'p' });
    const excluded = await one({ secret: 0, items: 0, tags: 0 });
    expect(excluded).toEqual({ _id: 1, name: 'p', meta: { rank: 1, hidden: true } });
  });

  test("fields come back in the document's order, not the projection's; a missing field is left out", async () => {
    expect(Object.keys((await one({ meta: 1, nothing: 1, name: 1 }))!)).toEqual([
      '_id',
      'name',
      'meta',
    ]);
    expect(Object.keys((await one({ name: false, _id: false }))!)).toEqual([
      'secret',
      'meta',
      'tags',
      'items',
    ]);
  });

  test('dotted paths project into subdocuments and arrays of subdocuments', async () => {
    expect(await one({ 'meta.rank': 1, _id: 0 })).toEqual({ meta: { rank: 1 } });
    expect(await one({ 'items.n': 1, _id: 0 })).toEqual({
      items: [{ n: 'a' }, { n: 'b' }, { n: 'c' }],
    });
  });

  test('$slice returns part of an array', async () => {
    expect((await one({ tags: { $slice: 2 } }))!.tags).toEqual(['a', 'b']);
    expect((await one({ tags: { $slice: -1 } }))!.tags).toEqual(['d']);
    expect((await one({ tags: { $slice: [1, 2] } }))!.tags).toEqual(['b', 'c']);
  });

  test('$elemMatch projection returns only the first matching element', async () => {
    expect(await one({ items: { $elemMatch: { q: { $gt: 2 } } } })).toEqual({
      _id: 1,
      items: [{ n: 'b', q: 5 }],
    });
  });

  test('mixing inclusion and exclusion is rejected by the server', async () => {
    const err = await caught(() => one({ name: 1, secret: 0 }));
    expect(err).toBeInstanceOf(MongoServerError);
  });
});

describe('regular expressions', () => {
  beforeAll(async () => {
    await collection('rx').insertMany([
      { _id: 1, s: 'Alice' },
      { _id: 2, s: 'alicia' },
      { _id: 3, s: 'one\ntwo\nthree' },
      { _id: 4, s: 'a\nb' },
      { _id: 5, s: ['xyz', 'Bob'] },
      { _id: 6, s: 12345 },
      { _id: 7, s: 'alice' },
    ]);
  });

  test('a plain regex is case-sensitive; flag i ignores case', async () => {
    expect(await ids('rx', { s: /^ali/ })).toEqual([2, 7]);
    expect(await ids('rx', { s: /^ali/i })).toEqual([1, 2, 7]);
    expect(await ids('rx', { s: { $regex: '^ALICE$', $options: 'i' } })).toEqual([1, 7]);
  });

  test('flag m makes ^ and $ match at line breaks', async () => {
    expect(await ids('rx', { s: /^two$/ })).toEqual([]);
    expect(await ids('rx', { s: /^two$/m })).toEqual([3]);
  });

  test('flag s lets . match a newline', async () => {
    expect(await ids('rx', { s: /^a.b$/ })).toEqual([]);
    expect(await ids('rx', { s: { $regex: '^a.b$', $options: 's' } })).toEqual([4]);
  });

  test('flag x ignores whitespace and # comments in the pattern', async () => {
    expect(await ids('rx', { s: { $regex: '^al ice$  # the name', $options: 'x' } })).toEqual([7]);
    expect(await ids('rx', { s: new BSONRegExp('^ali ce$', 'ix') })).toEqual([1, 7]);
  });

  test('a regex matches array elements and never matches non-strings', async () => {
    expect(await ids('rx', { s: /^bob$/i })).toEqual([5]);
    expect(await ids('rx', { s: /123/ })).toEqual([]);
  });

  test('$in accepts regexes next to plain values; $not negates a regex', async () => {
    expect(await ids('rx', { s: { $in: [/^ALI/i, 12345] } })).toEqual([1, 2, 6, 7]);
    expect(await ids('rx', { s: { $not: /^ali/i } })).toEqual([3, 4, 5, 6]);
  });

  test('mongoose passes regex queries through', async () => {
    const Rx =
      suite.conn.models.Rx ??
      suite.conn.model('Rx', new Schema({ _id: Number, s: Schema.Types.Mixed }), 'rx');
    const found = await Rx.find({ s: /^alic/i }).sort({ _id: 1 }).lean();
    expect(found.map((d) => d._id)).toEqual([1, 2, 7]);
  });
});

describe('cursors over 10,000 documents', () => {
  const TOTAL = 10_000;
  let monitored: MongoClient;
  const started: CommandStartedEvent[] = [];
  const succeeded: CommandSucceededEvent[] = [];

  beforeAll(async () => {
    await collection('big').insertMany(
      Array.from({ length: TOTAL }, (_, i) => ({ _id: i, i, pad: 'x'.repeat(20) })),
    );
    monitored = await MongoClient.connect(suite.engine.uri, { monitorCommands: true });
    monitored.on('commandStarted', (e) => started.push(e));
    monitored.on('commandSucceeded', (e) => succeeded.push(e));
  });
  afterAll(async () => {
    await monitored?.close();
  });
  const reset = () => {
    started.length = 0;
    succeeded.length = 0;
  };
  const big = () => monitored.db(DB).collection<AnyDoc>('big');

  test('a default find returns a first batch of 101 and the rest through getMore', async () => {
    reset();
    const docs = await big().find({}).toArray();
    expect(docs).toHaveLength(TOTAL);
    expect(new Set(docs.map((d) => d._id)).size).toBe(TOTAL);
    const findReply = succeeded.find((e) => e.commandName === 'find')!.reply as AnyDoc;
    expect(findReply.cursor.firstBatch).toHaveLength(101);
    expect(started.filter((e) => e.commandName === 'getMore').length).toBeGreaterThanOrEqual(1);
  });

  test('batchSize is honoured on every getMore and the cursor ends with id 0', async () => {
    reset();
    let count = 0;
    for await (const doc of big().find({}, { batchSize: 1000 }).sort({ i: -1 })) {
      expect(doc.i).toBe(TOTAL - 1 - count);
      count++;
    }
    expect(count).toBe(TOTAL);
    const batches = succeeded
      .filter((e) => e.commandName === 'getMore')
      .map((e) => (e.reply as AnyDoc).cursor);
    expect(batches.length).toBeGreaterThanOrEqual(9);
    for (const c of batches) expect(c.nextBatch.length).toBeLessThanOrEqual(1000);
    expect(Long.fromValue(batches[batches.length - 1].id).isZero()).toBe(true);
  });

  test('limit is exact across batches', async () => {
    const docs = await big().find({}).sort({ i: 1 }).limit(250).batchSize(100).toArray();
    expect(docs).toHaveLength(250);
    expect(docs[249].i).toBe(249);
  });

  test('closing a cursor early sends killCursors, and the killed cursor is gone (code 43)', async () => {
    reset();
    const cursor = big().find({}, { batchSize: 100 });
    expect(await cursor.next()).not.toBeNull();
    const id = cursor.id!;
    expect(id.isZero()).toBe(false);
    await cursor.close();
    const kill = succeeded.find((e) => e.commandName === 'killCursors');
    expect(kill).toBeDefined();
    expect(
      (kill!.reply as AnyDoc).cursorsKilled.map((c: Long) => Long.fromValue(c).toString()),
    ).toEqual([id.toString()]);
    const err = await caught(() => monitored.db(DB).command({ getMore: id, collection: 'big' }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(43);
  });

  test('a mongoose query cursor streams every document', async () => {
    const Big =
      suite.conn.models.Big ??
      suite.conn.model('Big', new Schema({ _id: Number, i: Number, pad: String }), 'big');
    let n = 0;
    for await (const doc of Big.find({ i: { $gte: 5000 } })
      .lean()
      .cursor({ batchSize: 500 })) {
      expect(doc.i).toBeGreaterThanOrEqual(5000);
      n++;
    }
    expect(n).toBe(5000);
  });
});

describe('lookups through indexes', () => {
  beforeAll(async () => {
    const coll = collection('idx');
    await coll.createIndex({ item: 1 });
    await coll.createIndex({ page: 1 });
    await coll.createIndex({ tags: 1 });
    await coll.insertMany([
      { _id: 1, item: 1, page: 10, tags: ['a', 'b'] },
      { _id: 2, item: 1, page: 11, tags: ['b'] },
      { _id: 3, item: 1, page: 12, tags: [] },
      { _id: 4, item: 2, page: 13, tags: ['a', 'c'] },
      { _id: 5, item: 2, page: 14 },
    ]);
  });

  test('equalities on two indexed fields find exactly the documents matching both', async () => {
    expect(await ids('idx', { item: 1, page: 11 })).toEqual([2]);
    expect(await ids('idx', { page: { $in: [10, 13, 99] }, item: 2 })).toEqual([4]);
    expect(await ids('idx', { item: 2, page: 10 })).toEqual([]);
  });

  test('$in over a multikey index returns each document once, whatever elements match', async () => {
    const docs = await collection('idx')
      .find({ tags: { $in: ['a', 'b', 'c', 'a'] } })
      .toArray();
    expect(docs.map((d) => d._id).sort()).toEqual([1, 2, 4]);
  });

  test('an indexed lookup sees documents written since, and not those removed', async () => {
    const coll = collection('idx');
    await coll.insertOne({ _id: 6, item: 1, page: 15 });
    await coll.deleteOne({ _id: 2 });
    expect(await ids('idx', { item: 1 })).toEqual([1, 3, 6]);
  });
});

describe('counting and distinct', () => {
  beforeAll(async () => {
    await collection('cnt').insertMany([
      { k: 'a', tags: ['x', 'y'], meta: { rank: 1 } },
      { k: 'a', tags: ['y', 'z'], meta: { rank: 2 } },
      { k: 'b', tags: 'x', meta: { rank: 2 } },
      { k: 'c', tags: [], meta: {} },
    ]);
  });

  test('countDocuments counts matches and honours skip/limit; estimatedDocumentCount counts all', async () => {
    expect(await collection('cnt').countDocuments({})).toBe(4);
    expect(await collection('cnt').countDocuments({ k: 'a' })).toBe(2);
    expect(await collection('cnt').countDocuments({}, { skip: 1, limit: 2 })).toBe(2);
    expect(await collection('cnt').countDocuments({ k: 'zzz' })).toBe(0);
    expect(await collection('cnt').estimatedDocumentCount()).toBe(4);
    expect(await collection('never_created').estimatedDocumentCount()).toBe(0);
  });

  test('distinct flattens arrays, honours a filter and reads nested paths', async () => {
    expect((await collection('cnt').distinct('k')).sort()).toEqual(['a', 'b', 'c']);
    expect((await collection('cnt').distinct('tags')).sort()).toEqual(['x', 'y', 'z']);
    expect((await collection('cnt').distinct('tags', { k: 'a' })).sort()).toEqual(['x', 'y', 'z']);
    expect((await collection('cnt').distinct('meta.rank')).sort()).toEqual([1, 2]);
  });

  test('mongoose countDocuments and distinct', async () => {
    const Cnt =
      suite.conn.models.Cnt ??
      suite.conn.model('Cnt', new Schema({ k: String, tags: [String] }), 'cnt');
    expect(await Cnt.countDocuments({ k: { $in: ['a', 'b'] } })).toBe(3);
    expect(await Cnt.estimatedDocumentCount()).toBe(4);
    expect((await Cnt.distinct('k', { tags: 'x' })).sort()).toEqual(['a', 'b']);
  });
});
