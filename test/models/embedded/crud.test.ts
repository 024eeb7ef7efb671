/**
 * Conformance: create/read/update/delete, upserts and bulk writes, as seen through the raw
 * `mongodb` driver and mongoose 9 talking to the embedded engine over the wire.
 * Expected values are MongoDB's answers, not whatever the engine happens to return.
 */
import { describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import {
  MongoBulkWriteError,
  MongoClientBulkWriteError,
  MongoServerError,
  ObjectId,
} from 'mongodb';
import { caught, engineSuite, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_crud';
const suite = engineSuite(DB);

const { collection } = suite;

describe('raw driver CRUD', () => {
  test('insertOne returns the id and findOne returns the same document', async () => {
    const coll = collection('basic');
    const doc = { _id: new ObjectId(), name: 'alpha', n: 1, nested: { a: [1, 2, { b: 'c' }] } };
    const res = await coll.insertOne(doc);
    expect(res.acknowledged).toBe(true);
    expect(res.insertedId).toEqual(doc._id);
    expect(await coll.findOne({ _id: doc._id })).toEqual(doc);
  });

  test('insertMany reports every inserted id and all documents can be read back', async () => {
    const coll = collection('many');
    const res = await coll.insertMany([{ i: 1 }, { i: 2 }, { i: 3 }]);
    expect(res.insertedCount).toBe(3);
    expect(Object.keys(res.insertedIds)).toEqual(['0', '1', '2']);
    const docs = await coll
      .find({}, { projection: { _id: 0 } })
      .sort({ i: 1 })
      .toArray();
    expect(docs).toEqual([{ i: 1 }, { i: 2 }, { i: 3 }]);
  });

  test('updateOne reports matched/modified, and modifiedCount is 0 when the value is unchanged', async () => {
    const coll = collection('upd_counts');
    await coll.insertOne({ _id: 1, v: 'x' });
    const changed = await coll.updateOne({ _id: 1 }, { $set: { v: 'y' } });
    expect(changed).toMatchObject({
      matchedCount: 1,
      modifiedCount: 1,
      upsertedCount: 0,
      upsertedId: null,
    });
    const same = await coll.updateOne({ _id: 1 }, { $set: { v: 'y' } });
    expect(same).toMatchObject({ matchedCount: 1, modifiedCount: 0 });
    const none = await coll.updateOne({ _id: 2 }, { $set: { v: 'z' } });
    expect(none).toMatchObject({ matchedCount: 0, modifiedCount: 0 });
  });

  test('updateMany updates every matching document', async () => {
    const coll = collection('upd_many');
    await coll.insertMany([
      { k: 'a', n: 1 },
      { k: 'a', n: 2 },
      { k: 'b', n: 3 },
    ]);
    const res = await coll.updateMany({ k: 'a' }, { $inc: { n: 10 } });
    expect(res).toMatchObject({ matchedCount: 2, modifiedCount: 2 });
    const ns = (await coll.find({}).sort({ n: 1 }).toArray()).map((d) => d.n);
    expect(ns).toEqual([3, 11, 12]);
  });

  test('replaceOne replaces the whole document but keeps its _id', async () => {
    const coll = collection('replace');
    const { insertedId } = await coll.insertOne({ a: 1, b: 2 });
    const res = await coll.replaceOne({ _id: insertedId }, { c: 3 });
    expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await coll.findOne({ _id: insertedId })).toEqual({ _id: insertedId, c: 3 });
  });

  test('deleteOne deletes one match, deleteMany deletes all matches', async () => {
    const coll = collection('delete');
    await coll.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    expect((await coll.deleteOne({ k: 1 })).deletedCount).toBe(1);
    expect((await coll.deleteMany({ k: 1 })).deletedCount).toBe(2);
    expect((await coll.deleteMany({ k: 99 })).deletedCount).toBe(0);
    expect(await coll.countDocuments({})).toBe(1);
  });

  test('findOneAndUpdate returns the document before by default and after on request', async () => {
    const coll = collection('fam');
    await coll.insertOne({ _id: 'f1', n: 1 });
    const before = await coll.findOneAndUpdate({ _id: 'f1' }, { $inc: { n: 1 } });
    expect(before).toEqual({ _id: 'f1', n: 1 });
    const after = await coll.findOneAndUpdate(
      { _id: 'f1' },
      { $inc: { n: 1 } },
      { returnDocument: 'after' },
    );
    expect(after).toEqual({ _id: 'f1', n: 3 });
    const missing = await coll.findOneAndUpdate({ _id: 'nope' }, { $inc: { n: 1 } });
    expect(missing).toBeNull();
  });

  test('findOneAndUpdate honours sort to pick which document it modifies', async () => {
    const coll = collection('fam_sort');
    await coll.insertMany([
      { q: 'job', p: 2 },
      { q: 'job', p: 9 },
      { q: 'job', p: 5 },
    ]);
    const taken = await coll.findOneAndUpdate(
      { q: 'job' },
      { $set: { taken: true } },
      { sort: { p: -1 }, returnDocument: 'after' },
    );
    expect(taken).toMatchObject({ p: 9, taken: true });
    expect(await coll.countDocuments({ taken: true })).toBe(1);
  });

  test('findOneAndDelete and findOneAndReplace return the affected document', async () => {
    const coll = collection('fad');
    await coll.insertMany([
      { _id: 1, v: 'a' },
      { _id: 2, v: 'b' },
    ]);
    expect(await coll.findOneAndDelete({ _id: 1 })).toEqual({ _id: 1, v: 'a' });
    expect(await coll.findOne({ _id: 1 })).toBeNull();
    const replaced = await coll.findOneAndReplace(
      { _id: 2 },
      { w: 'c' },
      { returnDocument: 'after' },
    );
    expect(replaced).toEqual({ _id: 2, w: 'c' });
  });

  test('inserting a duplicate _id fails with E11000 on the _id_ index', async () => {
    const coll = collection('dup_id');
    await coll.insertOne({ _id: 7 });
    const err = await caught(() => coll.insertOne({ _id: 7 }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(11000);
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${DB}.dup_id index: _id_ dup key: { _id: 7 }`,
    );
    expect(err.keyPattern).toEqual({ _id: 1 });
    expect(err.keyValue).toEqual({ _id: 7 });
  });

  test("a duplicate ObjectId _id is reported as ObjectId('<hex>') in errmsg and as an ObjectId in keyValue", async () => {
    const coll = collection('dup_oid');
    const id = new ObjectId('65a1b2c3d4e5f60718293a4b');
    await coll.insertOne({ _id: id });
    const err = await caught(() => coll.insertOne({ _id: id }));
    expect(err.code).toBe(11000);
    expect(err.message).toBe(
      `E11000 duplicate key error collection: ${DB}.dup_oid index: _id_ dup key: { _id: ObjectId('65a1b2c3d4e5f60718293a4b') }`,
    );
    expect(err.keyValue._id).toBeInstanceOf(ObjectId);
    expect(err.keyValue._id.equals(id)).toBe(true);
  });

  test('an update may not change _id (code 66 ImmutableField)', async () => {
    const coll = collection('immutable');
    await coll.insertOne({ _id: 1, v: 1 });
    const err = await caught(() => coll.updateOne({ _id: 1 }, { $set: { _id: 2 } }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(66);
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, v: 1 });
  });

  test('an update that would grow a document past 16 MB fails with code 10334 and changes nothing', async () => {
    const coll = collection('too_large');
    const nineMb = 'x'.repeat(9 * 1024 * 1024);
    await coll.insertMany([{ _id: 1, a: nineMb }, { _id: 2 }]);
    const err = await caught(() => coll.updateOne({ _id: 1 }, { $set: { b: nineMb } }));
    expect(err.code).toBe(10334);
    const stored = await coll.findOne({ _id: 1 });
    expect([stored?.a.length, stored?.b]).toEqual([nineMb.length, undefined]);
    expect(await coll.findOne({ _id: 2 })).toEqual({ _id: 2 });
  });

  test('ordered insertMany stops at the first duplicate; unordered keeps going', async () => {
    const coll = collection('ordered');
    await coll.insertOne({ _id: 2 });
    const ordered = await caught(() => coll.insertMany([{ _id: 1 }, { _id: 2 }, { _id: 3 }]));
    expect(ordered).toBeInstanceOf(MongoBulkWriteError);
    expect(ordered.insertedCount).toBe(1);
    expect(ordered.writeErrors.map((e: { index: number }) => e.index)).toEqual([1]);
    expect(ordered.code).toBe(11000);
    expect(await coll.countDocuments({ _id: 3 })).toBe(0);

    const unordered = await caught(() =>
      coll.insertMany([{ _id: 4 }, { _id: 2 }, { _id: 5 }], { ordered: false }),
    );
    expect(unordered).toBeInstanceOf(MongoBulkWriteError);
    expect(unordered.insertedCount).toBe(2);
    expect(await coll.countDocuments({ _id: { $in: [4, 5] } })).toBe(2);
  });
});

describe('upserts', () => {
  test('an upsert that matches nothing inserts the equality fields of the filter plus the update', async () => {
    const coll = collection('ups_new');
    const res = await coll.updateOne(
      { sku: 'u1', qty: { $gt: 5 } },
      { $set: { price: 3 } },
      { upsert: true },
    );
    expect(res).toMatchObject({ matchedCount: 0, modifiedCount: 0, upsertedCount: 1 });
    expect(res.upsertedId).toBeInstanceOf(ObjectId);
    const doc = await coll.findOne({ _id: res.upsertedId! });
    expect(doc).toEqual({ _id: res.upsertedId, sku: 'u1', price: 3 });
  });

  test('an upsert that matches updates the document and reports no upsertedId', async () => {
    const coll = collection('ups_match');
    await coll.insertOne({ sku: 'm1', price: 1 });
    const res = await coll.updateOne({ sku: 'm1' }, { $set: { price: 2 } }, { upsert: true });
    expect(res).toMatchObject({
      matchedCount: 1,
      modifiedCount: 1,
      upsertedCount: 0,
      upsertedId: null,
    });
    expect(await coll.countDocuments({ sku: 'm1' })).toBe(1);
  });

  test('$setOnInsert applies only when the upsert inserts', async () => {
    const coll = collection('ups_soi');
    const update = {
      $set: { seen: true },
      $setOnInsert: { createdBy: 'first' },
      $inc: { hits: 1 },
    };
    await coll.updateOne({ key: 'k' }, update, { upsert: true });
    await coll.updateOne(
      { key: 'k' },
      { ...update, $setOnInsert: { createdBy: 'second' } },
      { upsert: true },
    );
    expect(await coll.findOne({ key: 'k' }, { projection: { _id: 0 } })).toEqual({
      key: 'k',
      seen: true,
      createdBy: 'first',
      hits: 2,
    });
  });

  test('an upsert keeps the _id of the filter and expands dotted equality into subdocuments', async () => {
    const coll = collection('ups_shape');
    await coll.updateOne({ _id: 'given', 'meta.kind': 'x' }, { $set: { v: 1 } }, { upsert: true });
    expect(await coll.findOne({ _id: 'given' })).toEqual({
      _id: 'given',
      meta: { kind: 'x' },
      v: 1,
    });
  });

  test('replaceOne with upsert inserts the replacement (with the filter _id)', async () => {
    const coll = collection('ups_replace');
    const res = await coll.replaceOne({ _id: 42 }, { name: 'r' }, { upsert: true });
    expect(res.upsertedCount).toBe(1);
    expect(res.upsertedId).toBe(42);
    expect(await coll.findOne({ _id: 42 })).toEqual({ _id: 42, name: 'r' });
  });

  test('findOneAndUpdate with upsert and returnDocument after returns the inserted document', async () => {
    const coll = collection('ups_fam');
    const doc = await coll.findOneAndUpdate(
      { name: 'counter' },
      { $inc: { seq: 1 } },
      { upsert: true, returnDocument: 'after' },
    );
    expect(doc).toMatchObject({ name: 'counter', seq: 1 });
    const before = await coll.findOneAndUpdate(
      { name: 'fresh' },
      { $inc: { seq: 1 } },
      { upsert: true },
    );
    expect(before).toBeNull();
  });
});

describe('mongoose CRUD', () => {
  const articleSchema = new Schema(
    {
      title: { type: String, required: true },
      body: { type: String, default: '' },
      views: { type: Number, default: 0 },
      tags: [String],
      author: { name: String, uid: Number },
    },
    { timestamps: true },
  );
  const Article = () => suite.conn.models.Article ?? suite.conn.model('Article', articleSchema);

  test('create, findById and lean return the stored fields, defaults and timestamps', async () => {
    const created = await Article().create({
      title: 'Hello',
      tags: ['a'],
      author: { name: 'Ann', uid: 3 },
    });
    const found = await Article().findById(created._id).lean();
    expect(found).toMatchObject({
      title: 'Hello',
      body: '',
      views: 0,
      tags: ['a'],
      author: { name: 'Ann', uid: 3 },
    });
    expect(found!._id).toEqual(created._id);
    expect(found!.createdAt).toBeInstanceOf(Date);
    expect(found!.updatedAt).toBeInstanceOf(Date);
  });

  test('save() on a loaded document writes only the change, deleteOne() removes it', async () => {
    const a = await Article().create({ title: 'Edit me' });
    const loaded = (await Article().findById(a._id))!;
    loaded.views = 5;
    loaded.tags.push('x');
    await loaded.save();
    expect(await Article().findById(a._id).lean()).toMatchObject({
      title: 'Edit me',
      views: 5,
      tags: ['x'],
    });
    await loaded.deleteOne();
    expect(await Article().findById(a._id)).toBeNull();
  });

  test('updateOne and findOneAndUpdate report and return what MongoDB does', async () => {
    const a = await Article().create({ title: 'Counter' });
    const res = await Article().updateOne({ _id: a._id }, { $inc: { views: 2 } });
    expect(res).toMatchObject({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    const after = await Article()
      .findOneAndUpdate({ _id: a._id }, { $inc: { views: 1 } }, { returnDocument: 'after' })
      .lean();
    expect(after!.views).toBe(3);
  });

  test('timestamps on upsert: createdAt is set once ($setOnInsert), updatedAt moves', async () => {
    const first = await Article()
      .findOneAndUpdate(
        { title: 'Upserted' },
        { $set: { body: 'v1' } },
        { upsert: true, returnDocument: 'after' },
      )
      .lean();
    expect(first!.createdAt).toBeInstanceOf(Date);
    await new Promise((r) => setTimeout(r, 5)); // guarantees a later updatedAt millisecond
    const second = await Article()
      .findOneAndUpdate(
        { title: 'Upserted' },
        { $set: { body: 'v2' } },
        { upsert: true, returnDocument: 'after' },
      )
      .lean();
    expect(second!._id).toEqual(first!._id);
    expect(second!.createdAt).toEqual(first!.createdAt);
    expect(second!.updatedAt.getTime()).toBeGreaterThan(first!.updatedAt.getTime());
    expect(await Article().countDocuments({ title: 'Upserted' })).toBe(1);
  });

  test('insertMany and deleteMany work on a model', async () => {
    await Article().insertMany([
      { title: 'bulk', views: 1 },
      { title: 'bulk', views: 2 },
    ]);
    expect(await Article().countDocuments({ title: 'bulk' })).toBe(2);
    const res = await Article().deleteMany({ title: 'bulk' });
    expect(res.deletedCount).toBe(2);
  });
});

describe('bulk writes', () => {
  const Entry = () =>
    suite.conn.models.Entry ?? suite.conn.model('Entry', new Schema({ key: String, n: Number }));
  const Label = () =>
    suite.conn.models.Label ?? suite.conn.model('Label', new Schema({ name: String }));

  test('Model.bulkWrite applies mixed operations and reports their counts', async () => {
    await Entry().insertMany([
      { key: 'a', n: 1 },
      { key: 'b', n: 1 },
      { key: 'c', n: 1 },
    ]);
    const res = await Entry().bulkWrite([
      { insertOne: { document: { key: 'd', n: 1 } } },
      { updateOne: { filter: { key: 'a' }, update: { $inc: { n: 1 } } } },
      { updateMany: { filter: { key: { $in: ['b', 'c'] } }, update: { $set: { n: 5 } } } },
      { deleteOne: { filter: { key: 'd' } } },
      { replaceOne: { filter: { key: 'c' }, replacement: { key: 'c2', n: 9 } } },
      { updateOne: { filter: { key: 'z' }, update: { $set: { n: 0 } }, upsert: true } },
    ]);
    expect(res.insertedCount).toBe(1);
    expect(res.matchedCount).toBe(4);
    expect(res.modifiedCount).toBe(4);
    expect(res.deletedCount).toBe(1);
    expect(res.upsertedCount).toBe(1);
    const rows = await Entry().find({}, { _id: 0, key: 1, n: 1 }).sort({ key: 1 }).lean();
    expect(rows).toEqual([
      { key: 'a', n: 2 },
      { key: 'b', n: 5 },
      { key: 'c2', n: 9 },
      { key: 'z', n: 0 },
    ]);
  });

  test('connection.bulkWrite (MongoDB 8 bulkWrite command) writes across collections', async () => {
    const res = await suite.conn.bulkWrite([
      { model: Entry(), name: 'insertOne', document: { key: 'x1', n: 1 } },
      { model: Label(), name: 'insertOne', document: { name: 'green' } },
      { model: Entry(), name: 'updateOne', filter: { key: 'x1' }, update: { $inc: { n: 41 } } },
      { model: Label(), name: 'deleteMany', filter: { name: 'nothing-here' } },
    ] as any);
    expect(res.insertedCount).toBe(2);
    expect(res.matchedCount).toBe(1);
    expect(res.modifiedCount).toBe(1);
    expect(res.deletedCount).toBe(0);
    expect(await Entry().findOne({ key: 'x1' }).lean()).toMatchObject({ n: 42 });
    expect(await Label().countDocuments({ name: 'green' })).toBe(1);
  });

  test('MongoClient.bulkWrite reports per-operation results with verboseResults', async () => {
    const ns = `${DB}.client_bulk`;
    const res = await suite.client.bulkWrite<Record<string, AnyDoc>>(
      [
        { namespace: ns, name: 'insertOne', document: { _id: 1, v: 'a' } },
        { namespace: ns, name: 'insertOne', document: { _id: 2, v: 'b' } },
        { namespace: ns, name: 'updateMany', filter: {}, update: { $set: { seen: true } } },
        {
          namespace: ns,
          name: 'replaceOne',
          filter: { _id: 3 },
          replacement: { v: 'c' },
          upsert: true,
        },
        { namespace: ns, name: 'deleteOne', filter: { _id: 1 } },
      ],
      { verboseResults: true },
    );
    expect(res).toMatchObject({
      insertedCount: 2,
      matchedCount: 2,
      modifiedCount: 2,
      upsertedCount: 1,
      deletedCount: 1,
    });
    expect(res.insertResults?.get(1)?.insertedId).toBe(2);
    expect(res.updateResults?.get(3)?.upsertedId).toBe(3);
    expect(res.deleteResults?.get(4)?.deletedCount).toBe(1);
    const docs = await collection('client_bulk').find({}).sort({ _id: 1 }).toArray();
    expect(docs).toEqual([
      { _id: 2, v: 'b', seen: true },
      { _id: 3, v: 'c' },
    ]);
  });

  test('an ordered client bulkWrite stops at a duplicate key and reports it by operation index', async () => {
    const ns = `${DB}.client_bulk_dup`;
    const err = await caught(() =>
      suite.client.bulkWrite<Record<string, AnyDoc>>([
        { namespace: ns, name: 'insertOne', document: { _id: 1 } },
        { namespace: ns, name: 'insertOne', document: { _id: 1 } },
        { namespace: ns, name: 'insertOne', document: { _id: 2 } },
      ]),
    );
    expect(err).toBeInstanceOf(MongoClientBulkWriteError);
    const writeError = (err as MongoClientBulkWriteError).writeErrors.get(1);
    expect(writeError?.code).toBe(11000);
    expect((err as MongoClientBulkWriteError).partialResult?.insertedCount).toBe(1);
    expect(await collection('client_bulk_dup').countDocuments({})).toBe(1);
  });
});
