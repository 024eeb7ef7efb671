/**
 * Conformance: the aggregation stages and expressions Quire uses ($match, $group, $sort, $lookup,
 * $unwind, $project, $facet, $count, $limit, $skip, $addFields) and ObjectId conversions.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import { Binary, Decimal128, Long, MongoServerError, ObjectId, type Document } from 'mongodb';
import { caught, engineSuite } from '../../helpers/embedded';

const DB = 'conf_aggregation';
const suite = engineSuite(DB);

const { collection } = suite;
const aggregate = (name: string, pipeline: Document[]) =>
  collection(name).aggregate(pipeline).toArray();

const day = (n: number) => new Date(Date.UTC(2024, 0, n, 12));

beforeAll(async () => {
  await collection('users').insertMany([
    { _id: 1, name: 'ann', team: 'red' },
    { _id: 2, name: 'bob', team: 'blue' },
    { _id: 3, name: 'cid', team: 'red' },
  ]);
  await collection('pages').insertMany([
    {
      _id: 10,
      item_id: 1,
      author_uid: 1,
      title: 'intro',
      tags: ['a', 'b'],
      views: 5,
      created: day(1),
    },
    { _id: 11, item_id: 1, author_uid: 2, title: 'setup', tags: ['b'], views: 15, created: day(2) },
    { _id: 12, item_id: 2, author_uid: 1, title: 'api', tags: [], views: 30, created: day(3) },
    { _id: 13, item_id: 2, author_uid: 3, title: 'faq', views: 0, created: day(4) },
    {
      _id: 14,
      item_id: 1,
      author_uid: 9,
      title: 'orphan',
      tags: ['c'],
      views: 50,
      created: day(5),
    },
  ]);
});

describe('$match, $group, $sort', () => {
  test('$group accumulators: $sum, $avg, $min, $max, $push, $addToSet', async () => {
    const rows = await aggregate('pages', [
      { $match: { views: { $gt: 0 } } },
      {
        $group: {
          _id: '$item_id',
          count: { $sum: 1 },
          views: { $sum: '$views' },
          avg: { $avg: '$views' },
          min: { $min: '$views' },
          max: { $max: '$views' },
          titles: { $push: '$title' },
          authors: { $addToSet: '$author_uid' },
        },
      },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]).toMatchObject({ _id: 1, count: 3, views: 70, min: 5, max: 50 });
    expect(rows[0].avg).toBeCloseTo(70 / 3);
    expect(rows[0].titles.sort()).toEqual(['intro', 'orphan', 'setup']);
    expect(rows[0].authors.sort()).toEqual([1, 2, 9]);
    expect(rows[1]).toMatchObject({
      _id: 2,
      count: 1,
      views: 30,
      avg: 30,
      titles: ['api'],
      authors: [1],
    });
  });

  test('$first/$last follow a preceding $sort; grouping by null totals everything', async () => {
    const rows = await aggregate('pages', [
      { $sort: { created: 1 } },
      {
        $group: {
          _id: null,
          first: { $first: '$title' },
          last: { $last: '$title' },
          total: { $sum: '$views' },
          none: { $sum: '$missing' },
        },
      },
    ]);
    expect(rows).toEqual([{ _id: null, first: 'intro', last: 'orphan', total: 100, none: 0 }]);
  });

  test('$group by a compound key, then $sort on the computed fields', async () => {
    const rows = await aggregate('pages', [
      { $group: { _id: { item: '$item_id', author: '$author_uid' }, views: { $sum: '$views' } } },
      { $sort: { views: -1 } },
      { $limit: 2 },
    ]);
    expect(rows).toEqual([
      { _id: { item: 1, author: 9 }, views: 50 },
      { _id: { item: 2, author: 1 }, views: 30 },
    ]);
  });

  test('$skip and $limit after $sort select a page', async () => {
    const rows = await aggregate('pages', [
      { $sort: { views: 1 } },
      { $skip: 1 },
      { $limit: 2 },
      { $project: { _id: 1 } },
    ]);
    expect(rows).toEqual([{ _id: 10 }, { _id: 11 }]);
  });
});

describe('$group by a field with $sum (counts per key)', () => {
  beforeAll(async () => {
    await collection('tally').insertMany([
      { _id: 1, who: 7, n: 2 },
      { _id: 2, who: 7, n: 'three' },
      { _id: 3, who: 8, n: Long.fromNumber(4) },
      { _id: 4, n: 5 },
      { _id: 5, who: null, n: 6 },
      { _id: 6, who: 8.0, n: 1.5 },
    ]);
  });

  test('a missing key groups with null; non-numbers are left out of the sum; BSON numbers add up', async () => {
    const rows = await aggregate('tally', [
      { $group: { _id: '$who', count: { $sum: 1 }, total: { $sum: '$n' } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: null, count: 2, total: 11 },
      { _id: 7, count: 2, total: 2 },
      { _id: 8, count: 2, total: 5.5 },
    ]);
  });

  test('a constant key totals everything; an empty input gives no group', async () => {
    expect(await aggregate('tally', [{ $group: { _id: 1, n: { $sum: 2 } } }])).toEqual([
      { _id: 1, n: 12 },
    ]);
    expect(
      await aggregate('tally', [
        { $match: { who: 99 } },
        { $group: { _id: null, n: { $sum: 1 } } },
      ]),
    ).toEqual([]);
    expect(await collection('tally').countDocuments({ who: { $in: [7, 8] } })).toBe(4);
  });

  test('stages that write to their input ($addFields, $unset) leave the stored documents as they were', async () => {
    const changed = await aggregate('tally', [
      { $match: { who: 7 } },
      { $addFields: { who: 'changed' } },
      { $unset: 'n' },
    ]);
    expect(changed.map((d) => d.who)).toEqual(['changed', 'changed']);
    expect(
      await collection('tally')
        .find({ who: 7 }, { sort: { _id: 1 } })
        .toArray(),
    ).toEqual([
      { _id: 1, who: 7, n: 2 },
      { _id: 2, who: 7, n: 'three' },
    ]);
  });
});

describe('$lookup and $unwind', () => {
  test('$lookup joins by localField/foreignField and gives [] when nothing matches', async () => {
    const rows = await aggregate('pages', [
      { $match: { _id: { $in: [10, 14] } } },
      { $lookup: { from: 'users', localField: 'author_uid', foreignField: '_id', as: 'author' } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows[0].author).toEqual([{ _id: 1, name: 'ann', team: 'red' }]);
    expect(rows[1].author).toEqual([]);
  });

  test('$lookup with an array localField matches any of its elements', async () => {
    await collection('teams').insertOne({ _id: 't', members: [1, 3] });
    const [team] = await aggregate('teams', [
      { $lookup: { from: 'users', localField: 'members', foreignField: '_id', as: 'users' } },
      { $project: { names: '$users.name' } },
    ]);
    expect(team.names.sort()).toEqual(['ann', 'cid']);
  });

  test('$lookup with let and a pipeline', async () => {
    const rows = await aggregate('users', [
      { $match: { _id: 1 } },
      {
        $lookup: {
          from: 'pages',
          let: { uid: '$_id' },
          pipeline: [
            { $match: { $expr: { $eq: ['$author_uid', '$$uid'] } } },
            { $sort: { views: -1 } },
            { $project: { _id: 0, title: 1 } },
          ],
          as: 'pages',
        },
      },
    ]);
    expect(rows[0].pages).toEqual([{ title: 'api' }, { title: 'intro' }]);
  });

  test('$lookup then $unwind yields one document per joined row (inner join)', async () => {
    const rows = await aggregate('pages', [
      { $lookup: { from: 'users', localField: 'author_uid', foreignField: '_id', as: 'author' } },
      { $unwind: '$author' },
      { $group: { _id: '$author.team', pages: { $sum: 1 } } },
      { $sort: { _id: 1 } },
    ]);
    expect(rows).toEqual([
      { _id: 'blue', pages: 1 },
      { _id: 'red', pages: 3 },
    ]);
  });

  test('$unwind drops missing/empty arrays unless preserveNullAndEmptyArrays, and can report the index', async () => {
    const plain = await aggregate('pages', [
      { $unwind: '$tags' },
      { $project: { tags: 1 } },
      { $sort: { _id: 1, tags: 1 } },
    ]);
    expect(plain.map((r) => `${r._id}:${r.tags}`)).toEqual(['10:a', '10:b', '11:b', '14:c']);
    const kept = await aggregate('pages', [
      { $unwind: { path: '$tags', preserveNullAndEmptyArrays: true, includeArrayIndex: 'idx' } },
      { $project: { tags: 1, idx: 1 } },
      { $sort: { _id: 1, idx: 1 } },
    ]);
    expect(kept.filter((r) => r._id === 12)).toEqual([{ _id: 12, idx: null }]);
    expect(kept.filter((r) => r._id === 13)).toEqual([{ _id: 13, idx: null }]);
    expect(kept.filter((r) => r._id === 10)).toEqual([
      { _id: 10, tags: 'a', idx: 0 },
      { _id: 10, tags: 'b', idx: 1 },
    ]);
  });
});

describe('$project, $addFields, $facet, $count', () => {
  test('$project includes, excludes and computes fields', async () => {
    const rows = await aggregate('pages', [
      { $match: { _id: { $in: [10, 13] } } },
      {
        $project: {
          _id: 0,
          title: 1,
          label: { $concat: ['#', { $toString: '$item_id' }, ' ', '$title'] },
          tagCount: { $size: { $ifNull: ['$tags', []] } },
          popular: { $cond: [{ $gte: ['$views', 5] }, 'yes', 'no'] },
          day: { $dateToString: { format: '%Y-%m-%d', date: '$created' } },
        },
      },
      { $sort: { title: 1 } },
    ]);
    expect(rows).toEqual([
      { title: 'faq', label: '#2 faq', tagCount: 0, popular: 'no', day: '2024-01-04' },
      { title: 'intro', label: '#1 intro', tagCount: 2, popular: 'yes', day: '2024-01-01' },
    ]);
    const excluded = await aggregate('users', [{ $match: { _id: 2 } }, { $project: { team: 0 } }]);
    expect(excluded).toEqual([{ _id: 2, name: 'bob' }]);
  });

  test('$addFields adds computed fields and keeps the rest', async () => {
    const rows = await aggregate('users', [
      { $match: { _id: 3 } },
      { $addFields: { upper: { $toUpper: '$name' }, team: 'green' } },
    ]);
    expect(rows).toEqual([{ _id: 3, name: 'cid', team: 'green', upper: 'CID' }]);
  });

  test('$facet runs several sub-pipelines over the same input (total + page)', async () => {
    const [facets] = await aggregate('pages', [
      { $match: { item_id: 1 } },
      {
        $facet: {
          total: [{ $count: 'n' }],
          page: [{ $sort: { views: -1 } }, { $skip: 1 }, { $limit: 1 }, { $project: { title: 1 } }],
          byAuthor: [{ $group: { _id: '$author_uid' } }, { $sort: { _id: 1 } }],
        },
      },
    ]);
    expect(facets).toEqual({
      total: [{ n: 3 }],
      page: [{ _id: 11, title: 'setup' }],
      byAuthor: [{ _id: 1 }, { _id: 2 }, { _id: 9 }],
    });
  });

  test('$count returns one document, or none at all when the input is empty', async () => {
    expect(
      await aggregate('pages', [{ $match: { views: { $gte: 15 } } }, { $count: 'total' }]),
    ).toEqual([{ total: 3 }]);
    expect(await aggregate('pages', [{ $match: { views: -1 } }, { $count: 'total' }])).toEqual([]);
  });

  test('an aggregation over a missing collection returns no documents', async () => {
    expect(await aggregate('does_not_exist', [{ $match: {} }])).toEqual([]);
  });

  test('an aggregate cursor returns large results through getMore', async () => {
    await collection('agg_big').insertMany(
      Array.from({ length: 3000 }, (_, i) => ({ _id: i, g: i % 3 })),
    );
    const rows = await collection('agg_big')
      .aggregate([{ $match: { g: { $lt: 2 } } }, { $sort: { _id: -1 } }], { batchSize: 250 })
      .toArray();
    expect(rows).toHaveLength(2000);
    expect(rows[0]._id).toBe(2998);
  });
});

describe('type conversion expressions', () => {
  test('$toString on an ObjectId gives its hex string', async () => {
    const oid = new ObjectId();
    await collection('oids').insertOne({ _id: oid });
    const [row] = await aggregate('oids', [{ $project: { _id: 0, s: { $toString: '$_id' } } }]);
    expect(row).toEqual({ s: oid.toHexString() });
  });

  test('$type names an ObjectId "objectId"', async () => {
    const oid = new ObjectId();
    await collection('oid_type').insertOne({ _id: 1, ref: oid });
    const [row] = await aggregate('oid_type', [{ $project: { _id: 0, t: { $type: '$ref' } } }]);
    expect(row).toEqual({ t: 'objectId' });
  });

  test('$toObjectId turns a 24-hex string into an ObjectId (usable in a join)', async () => {
    const oid = new ObjectId();
    await collection('by_oid').insertOne({ _id: oid, label: 'target' });
    await collection('by_hex').insertOne({ _id: 'h', ref: oid.toHexString() });
    const [row] = await aggregate('by_hex', [
      { $addFields: { refId: { $toObjectId: '$ref' } } },
      { $lookup: { from: 'by_oid', localField: 'refId', foreignField: '_id', as: 'target' } },
    ]);
    expect(row.refId).toBeInstanceOf(ObjectId);
    expect(row.refId.equals(oid)).toBe(true);
    expect(row.target).toEqual([{ _id: oid, label: 'target' }]);
  });

  test('$toObjectId on a malformed string fails with code 241 (ConversionFailure)', async () => {
    await collection('bad_hex').insertOne({ _id: 1, ref: 'not-an-object-id' });
    const err = await caught(() =>
      aggregate('bad_hex', [{ $project: { o: { $toObjectId: '$ref' } } }]),
    );
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(241);
  });

  test('$type names every BSON type Quire stores', async () => {
    await collection('types').insertOne({
      _id: 1,
      str: 's',
      int: 1,
      dbl: 1.5,
      long: Long.fromString('9007199254740993'),
      dec: Decimal128.fromString('1.1'),
      date: new Date(),
      bool: true,
      nul: null,
      arr: [1],
      obj: { a: 1 },
      bin: new Binary(Buffer.from('x')),
      oid: new ObjectId(),
    });
    const fields = [
      'str',
      'int',
      'dbl',
      'long',
      'dec',
      'date',
      'bool',
      'nul',
      'arr',
      'obj',
      'bin',
      'oid',
      'absent',
    ];
    const [row] = await aggregate('types', [
      { $project: Object.fromEntries([['_id', 0], ...fields.map((f) => [f, { $type: `$${f}` }])]) },
    ]);
    expect(row).toEqual({
      str: 'string',
      int: 'int',
      dbl: 'double',
      long: 'long',
      dec: 'decimal',
      date: 'date',
      bool: 'bool',
      nul: 'null',
      arr: 'array',
      obj: 'object',
      bin: 'binData',
      oid: 'objectId',
      absent: 'missing',
    });
  });
});

describe('mongoose aggregate', () => {
  test('Model.aggregate with an ObjectId $match, $group and $sort', async () => {
    const Visit = suite.conn.model(
      'Visit',
      new Schema({ page: Schema.Types.ObjectId, ms: Number }),
    );
    const [p1, p2] = [new ObjectId(), new ObjectId()];
    await Visit.insertMany([
      { page: p1, ms: 10 },
      { page: p1, ms: 30 },
      { page: p2, ms: 5 },
    ]);
    const rows = await Visit.aggregate<{ _id: ObjectId; total: number; n: number }>([
      { $match: { page: { $in: [p1, p2] } } },
      { $group: { _id: '$page', total: { $sum: '$ms' }, n: { $sum: 1 } } },
      { $sort: { total: -1 } },
    ]);
    expect(rows).toHaveLength(2);
    expect(rows[0]._id.equals(p1)).toBe(true);
    expect(rows[0]).toMatchObject({ total: 40, n: 2 });
    expect(rows[1]).toMatchObject({ total: 5, n: 1 });
  });
});
