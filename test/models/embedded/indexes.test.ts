/**
 * Conformance: unique indexes as mongoose declares them (single, compound, sparse, partial,
 * multikey) with MongoDB's exact E11000 error, index management (create/list/drop, option
 * conflicts, mongoose syncIndexes) and TTL expiry.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { Schema, type Model } from 'mongoose';
import { MongoServerError } from 'mongodb';
import { caught, engineSuite, eventually, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_indexes';
const suite = engineSuite(DB);

const { collection } = suite;

// Models here are loosely typed on purpose: the tests care about what reaches the server.
type AnyModel = Model<any, any, any, any, any, any, any>;

/** Compiles a model and waits until mongoose has created its collection and indexes. */
async function model(
  name: string,
  schema: Schema<any>,
  collectionName?: string,
): Promise<AnyModel> {
  const M = suite.conn.model(name, schema, collectionName) as unknown as AnyModel;
  await M.init();
  return M;
}

describe('unique indexes declared by mongoose', () => {
  let User: AnyModel;
  beforeAll(async () => {
    User = await model(
      'User',
      new Schema({ email: { type: String, unique: true }, name: String }),
      'users',
    );
  });

  test('a duplicate on create is a MongoServerError 11000 with keyPattern, keyValue and the exact errmsg', async () => {
    await User.create({ email: 'a@x.io', name: 'first' });
    const err = await caught(() => User.create({ email: 'a@x.io', name: 'second' }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.name).toBe('MongoServerError');
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ email: 1 });
    expect(err.keyValue).toEqual({ email: 'a@x.io' });
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${DB}.users index: email_1 dup key: { email: "a@x.io" }`,
    );
    expect(await User.countDocuments({ email: 'a@x.io' })).toBe(1);
  });

  test('an update that would create a duplicate fails the same way and changes nothing', async () => {
    await User.create({ email: 'b@x.io' });
    const c = await User.create({ email: 'c@x.io' });
    const err = await caught(() => User.updateOne({ _id: c._id }, { $set: { email: 'b@x.io' } }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ email: 'b@x.io' });
    expect((await User.findById(c._id).lean())!.email).toBe('c@x.io');
  });

  test('an upsert that would insert a duplicate fails with 11000', async () => {
    await User.create({ email: 'd@x.io', name: 'd' });
    const err = await caught(() =>
      User.updateOne({ name: 'nobody' }, { $set: { email: 'd@x.io' } }, { upsert: true }),
    );
    expect(err.code).toBe(11000);
    expect(await User.countDocuments({ email: 'd@x.io' })).toBe(1);
  });

  test('a second document without the field collides on null (non-sparse unique)', async () => {
    await User.create({ name: 'no email 1' });
    const err = await caught(() => User.create({ name: 'no email 2' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ email: null });
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${DB}.users index: email_1 dup key: { email: null }`,
    );
  });

  test("mongoose's custom unique message relies on the error's keyPattern", async () => {
    const Handle = await model(
      'Handle',
      new Schema({ handle: { type: String, unique: [true, 'That handle is taken'] } }),
    );
    await Handle.create({ handle: 'h' });
    const err = await caught(() => Handle.create({ handle: 'h' }));
    expect(err.message).toBe('That handle is taken');
    expect((err.cause as MongoServerError).code).toBe(11000);
  });

  test('a compound unique index rejects only the same combination', async () => {
    const schema = new Schema({ item_id: Number, uid: Number, role: String });
    schema.index({ item_id: 1, uid: 1 }, { unique: true });
    const Member = await model('Member', schema, 'item_member');
    await Member.create({ item_id: 1, uid: 2 });
    await Member.create({ item_id: 1, uid: 3 });
    await Member.create({ item_id: 2, uid: 2 });
    const err = await caught(() => Member.create({ item_id: 1, uid: 2, role: 'dup' }));
    expect(err.code).toBe(11000);
    expect(err.keyPattern).toEqual({ item_id: 1, uid: 1 });
    expect(err.keyValue).toEqual({ item_id: 1, uid: 2 });
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${DB}.item_member index: item_id_1_uid_1 dup key: { item_id: 1, uid: 2 }`,
    );
  });

  test('a sparse unique index ignores documents missing the field but not explicit nulls', async () => {
    const Sparse = await model(
      'Sparse',
      new Schema({ code: { type: String, unique: true, sparse: true }, n: Number }),
    );
    await Sparse.create({ n: 1 });
    await Sparse.create({ n: 2 });
    await Sparse.create({ code: 'x' });
    expect((await caught(() => Sparse.create({ code: 'x' }))).code).toBe(11000);
    await Sparse.collection.insertOne({ code: null });
    expect((await caught(() => Sparse.collection.insertOne({ code: null }))).code).toBe(11000);
  });

  test('a partial unique index only constrains documents matching its filter', async () => {
    const schema = new Schema({ token: Schema.Types.Mixed, n: Number });
    schema.index(
      { token: 1 },
      { unique: true, partialFilterExpression: { token: { $type: 'string' } } },
    );
    const Partial = await model('Partial', schema);
    await Partial.create({ n: 1 });
    await Partial.create({ n: 2 });
    await Partial.create({ token: null });
    await Partial.create({ token: null });
    await Partial.create({ token: 5 });
    await Partial.create({ token: 5 });
    await Partial.create({ token: 'abc' });
    const err = await caught(() => Partial.create({ token: 'abc' }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ token: 'abc' });
  });

  test('a unique index on an array field compares elements across documents, not within one', async () => {
    await collection('slugs').createIndex({ slugs: 1 }, { unique: true });
    await collection('slugs').insertOne({ slugs: ['same', 'same'] });
    await collection('slugs').insertOne({ slugs: ['a', 'b'] });
    const err = await caught(() => collection('slugs').insertOne({ slugs: ['c', 'b'] }));
    expect(err.code).toBe(11000);
    expect(err.keyValue).toEqual({ slugs: 'b' });
  });

  test('listIndexes reports what mongoose declared', async () => {
    const indexes = await collection('users').indexes();
    expect(indexes.map((i) => i.name).sort()).toEqual(['_id_', 'email_1']);
    expect(indexes.find((i) => i.name === 'email_1')).toMatchObject({
      key: { email: 1 },
      unique: true,
    });
    const partial = await suite.conn.model('Partial').listIndexes();
    expect(partial.find((i: AnyDoc) => i.name === 'token_1')).toMatchObject({
      key: { token: 1 },
      unique: true,
      partialFilterExpression: { token: { $type: 'string' } },
    });
    const sparse = await suite.conn.model('Sparse').listIndexes();
    expect(sparse.find((i: AnyDoc) => i.name === 'code_1')).toMatchObject({
      unique: true,
      sparse: true,
    });
  });
});

describe('index upkeep as documents change', () => {
  test('lookups by an indexed field find exactly the current holders after inserts, updates and deletes', async () => {
    const tags = collection('upkeep_tags');
    await tags.createIndex({ tag: 1 });
    await tags.createIndex({ tag: 1, n: 1 });
    await tags.insertMany([1, 2, 3, 4].map((n) => ({ _id: n, tag: 'a', n })));
    await tags.updateOne({ _id: 2 }, { $set: { tag: 'b' } });
    await tags.updateOne({ _id: 3 }, { $set: { other: 'x' } }); // index fields unchanged
    await tags.deleteOne({ _id: 4 });
    const ids = async (filter: AnyDoc) =>
      (await tags.find(filter).toArray()).map((d) => d._id).sort();
    expect(await ids({ tag: 'a' })).toEqual([1, 3]);
    expect(await ids({ tag: 'b' })).toEqual([2]);
    expect(await ids({ tag: { $in: ['a', 'b'] } })).toEqual([1, 2, 3]);
    await tags.deleteOne({ _id: 1 });
    expect(await ids({ tag: 'a' })).toEqual([3]);
    await tags.deleteOne({ _id: 3 });
    expect(await ids({ tag: 'a' })).toEqual([]);
    expect(await ids({ tag: 'a', n: 3 })).toEqual([]);
  });

  test('an $in over an indexed array field answers each document once, also after it stops holding an array', async () => {
    const labels = collection('upkeep_labels');
    await labels.createIndex({ label: 1 });
    await labels.insertMany([
      { _id: 1, label: 'a' },
      { _id: 2, label: ['a', 'b'] },
      { _id: 3, label: 'b' },
    ]);
    const ids = async (filter: AnyDoc) => (await labels.find(filter).toArray()).map((d) => d._id);
    expect((await ids({ label: { $in: ['a', 'b'] } })).sort()).toEqual([1, 2, 3]);
    await labels.updateOne({ _id: 2 }, { $set: { label: 'b' } });
    expect((await ids({ label: { $in: ['b', 'a'] } })).sort()).toEqual([1, 2, 3]);
    expect(await labels.countDocuments({ label: { $in: ['a', 'b', 'a'] } })).toBe(3);
  });

  test('a query naming every field of a compound unique index finds what a scan finds: $in lists, numbers of any type, arrays, after updates and deletes', async () => {
    const entries = collection('upkeep_entries');
    await entries.createIndex({ item: 1, name: 1, type: 1 }, { unique: true });
    const docs = [
      { _id: 1, item: 1, name: 'id', type: 'int' },
      { _id: 2, item: 1, name: 'id', type: 'string' },
      { _id: 3, item: 1, name: 'page', type: 'int' },
      { _id: 4, item: 2, name: 'id', type: 'int' },
      { _id: 5, item: 1, name: ['tags', 'labels'], type: 'array' },
      { _id: 6, item: 1, name: 'size', type: ['int', 'long'] },
    ];
    await entries.insertMany(docs);
    // The same query on a copy without the index: the answers must agree.
    const plain = collection('upkeep_entries_plain');
    await plain.insertMany(docs);
    const both = async (filter: AnyDoc) => {
      const ids = async (c: typeof plain) => (await c.find(filter).toArray()).map((d) => d._id);
      const indexed = (await ids(entries)).sort();
      expect(indexed).toEqual((await ids(plain)).sort());
      return indexed;
    };
    expect(await both({ item: 1, name: { $in: ['id', 'page'] }, type: { $in: ['int'] } })).toEqual([
      1, 3,
    ]);
    expect(await both({ item: 1.0, name: 'id', type: { $in: ['int', 'string', 'x'] } })).toEqual([
      1, 2,
    ]);
    expect(await both({ item: { $in: [1, 2] }, name: 'id', type: 'int' })).toEqual([1, 4]);
    // Array values: a document is found by any element, once, even when several match.
    expect(
      await both({ item: 1, name: { $in: ['tags', 'labels'] }, type: { $in: ['array'] } }),
    ).toEqual([5]);
    expect(await both({ item: 1, name: 'size', type: { $in: ['int', 'long'] } })).toEqual([6]);
    // Conditions beyond the index still apply; a non-equality condition falls back to a scan.
    expect(await both({ item: 1, name: 'id', type: 'int', _x: { $exists: false } })).toEqual([1]);
    expect(await both({ item: 1, name: { $regex: '^i' }, type: 'int' })).toEqual([1]);
    await entries.updateOne({ _id: 1 }, { $set: { type: 'integer' } });
    await plain.updateOne({ _id: 1 }, { $set: { type: 'integer' } });
    await entries.deleteOne({ _id: 3 });
    await plain.deleteOne({ _id: 3 });
    expect(
      await both({ item: 1, name: { $in: ['id', 'page'] }, type: { $in: ['int', 'integer'] } }),
    ).toEqual([1]);
  });

  test('a unique value given up by one document is free for another; a taken one stays refused', async () => {
    const codes = collection('upkeep_codes');
    await codes.createIndex({ code: 1 }, { unique: true });
    await codes.createIndex({ group: 1, rank: 1 }, { unique: true });
    await codes.insertMany([
      { _id: 1, code: 'x', group: 1, rank: 1 },
      { _id: 2, code: 'y', group: 1, rank: 2 },
    ]);
    expect((await caught(() => codes.updateOne({ _id: 2 }, { $set: { code: 'x' } }))).code).toBe(
      11000,
    );
    expect((await caught(() => codes.updateOne({ _id: 2 }, { $set: { rank: 1 } }))).code).toBe(
      11000,
    );
    // The refused updates changed nothing: both still hold their own values.
    expect(await codes.findOne({ code: 'y' })).toMatchObject({ _id: 2, rank: 2 });
    await codes.updateOne({ _id: 1 }, { $set: { code: 'z', rank: 3 } });
    await codes.insertOne({ _id: 3, code: 'x', group: 1, rank: 1 });
    await codes.updateOne({ _id: 3 }, { $set: { note: 'same keys' } });
    expect((await caught(() => codes.insertOne({ _id: 4, code: 'z' }))).code).toBe(11000);
    expect((await codes.find({ code: { $in: ['x', 'y', 'z'] } }).toArray()).length).toBe(3);
  });
});

describe('index management', () => {
  test('createIndex returns the generated name; repeating an identical spec is a no-op', async () => {
    const coll = collection('mgmt');
    expect(await coll.createIndex({ a: 1, b: -1 })).toBe('a_1_b_-1');
    expect(await coll.createIndex({ a: 1, b: -1 })).toBe('a_1_b_-1');
    expect(await coll.createIndex({ c: 1 }, { name: 'custom' })).toBe('custom');
    expect((await coll.indexes()).map((i) => i.name).sort()).toEqual([
      '_id_',
      'a_1_b_-1',
      'custom',
    ]);
  });

  test('the same name with different options fails with code 85 (IndexOptionsConflict)', async () => {
    const coll = collection('conflict');
    await coll.createIndex({ k: 1 });
    const err = await caught(() => coll.createIndex({ k: 1 }, { unique: true }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(85);
  });

  test('a unique index cannot be built over existing duplicates (11000) and is not created', async () => {
    const coll = collection('prebuilt');
    await coll.insertMany([{ v: 1 }, { v: 1 }]);
    const err = await caught(() => coll.createIndex({ v: 1 }, { unique: true }));
    expect(err.code).toBe(11000);
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });

  test('dropIndex by name or key; afterwards duplicates are allowed', async () => {
    const coll = collection('dropping');
    await coll.createIndex({ u: 1 }, { unique: true });
    await coll.createIndex({ w: 1 });
    await coll.insertOne({ u: 1 });
    await coll.dropIndex('u_1');
    await coll.insertOne({ u: 1 });
    expect(await coll.countDocuments({ u: 1 })).toBe(2);
    await suite.db.command({ dropIndexes: 'dropping', index: { w: 1 } });
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_']);
  });

  test('dropIndexes "*" drops everything except _id_; _id_ itself cannot be dropped', async () => {
    const coll = collection('drop_all');
    await coll.createIndexes([{ key: { a: 1 } }, { key: { b: 1 } }]);
    await coll.dropIndexes();
    expect((await coll.indexes()).map((i) => i.name)).toEqual(['_id_']);
    const err = await caught(() => coll.dropIndex('_id_'));
    expect(err.code).toBe(72);
  });

  test('dropping an index that does not exist fails with code 27 (IndexNotFound)', async () => {
    await collection('drop_missing').insertOne({ a: 1 });
    const err = await caught(() => collection('drop_missing').dropIndex('nope_1'));
    expect(err.code).toBe(27);
  });

  test('listIndexes on a missing collection fails with code 26 (NamespaceNotFound)', async () => {
    const err = await caught(() => collection('no_such_collection').indexes());
    expect(err.code).toBe(26);
  });

  test('mongoose syncIndexes drops indexes the schema no longer declares and creates new ones', async () => {
    await collection('synced').createIndex({ stray: 1 });
    const schema = new Schema({ kept: String, stray: String });
    schema.index({ kept: 1 });
    const Synced = await model('Synced', schema, 'synced');
    const dropped = await Synced.syncIndexes();
    expect(dropped).toEqual(['stray_1']);
    expect((await collection('synced').indexes()).map((i) => i.name).sort()).toEqual([
      '_id_',
      'kept_1',
    ]);
  });
});

describe('TTL indexes', () => {
  test('a document whose date is past expireAfterSeconds is removed within a few seconds; others stay', async () => {
    const coll = collection('ttl_raw');
    await coll.createIndex({ createdAt: 1 }, { expireAfterSeconds: 1 });
    expect((await coll.indexes()).find((i) => i.name === 'createdAt_1')).toMatchObject({
      expireAfterSeconds: 1,
    });
    await coll.insertMany([
      { _id: 'expires', createdAt: new Date() },
      { _id: 'not-a-date', createdAt: 'yesterday' },
      { _id: 'no-field' },
    ]);

    // mongoose's `expires` option declares the same kind of index
    const Session = await model(
      'TtlSession',
      new Schema({ token: String, createdAt: { type: Date, expires: 1 } }),
    );
    await Session.create({ token: 't', createdAt: new Date() });

    await eventually(
      async () => {
        expect(await coll.countDocuments({ _id: 'expires' })).toBe(0);
        expect(await Session.countDocuments({})).toBe(0);
      },
      { timeoutMs: 20_000, intervalMs: 250 },
    );
    expect((await coll.find({}).sort({ _id: 1 }).toArray()).map((d) => d._id)).toEqual([
      'no-field',
      'not-a-date',
    ]);
  });
});
