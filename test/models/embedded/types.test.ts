/**
 * Conformance: BSON values survive the round trip through the engine unchanged (ObjectId, Date,
 * Decimal128, Long, Binary, Timestamp, regex, nested documents and arrays, field order), are
 * queryable by type, and keep MongoDB's numeric semantics in updates.
 */
import { describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import { Binary, BSONRegExp, Decimal128, Int32, Long, ObjectId, Timestamp, UUID } from 'mongodb';
import { engineSuite } from '../../helpers/embedded';

const DB = 'conf_types';
const suite = engineSuite(DB);

const { collection } = suite;

describe('round trips', () => {
  test('ObjectIds come back as equal ObjectIds and can be queried directly and with $in', async () => {
    const [a, b, ref] = [new ObjectId(), new ObjectId(), new ObjectId()];
    await collection('oid').insertMany([
      { _id: a, ref, refs: [ref, b] },
      { _id: b, ref: a },
    ]);
    const doc = await collection('oid').findOne({ _id: new ObjectId(a.toHexString()) });
    expect(doc!._id).toBeInstanceOf(ObjectId);
    expect((doc!._id as ObjectId).equals(a)).toBe(true);
    expect(doc!.ref.equals(ref)).toBe(true);
    expect(await collection('oid').countDocuments({ refs: ref })).toBe(1);
    expect(await collection('oid').countDocuments({ _id: { $in: [a, b] } })).toBe(2);
  });

  test('ObjectIds sort by their creation time', async () => {
    const early = ObjectId.createFromTime(1_000_000);
    const late = ObjectId.createFromTime(2_000_000);
    await collection('oid_sort').insertMany([{ _id: late }, { _id: early }]);
    const sorted = await collection('oid_sort').find({}).sort({ _id: 1 }).toArray();
    expect(sorted.map((d) => (d._id as ObjectId).toHexString())).toEqual([
      early.toHexString(),
      late.toHexString(),
    ]);
  });

  test('Dates keep millisecond precision, including before 1970 and far in the future', async () => {
    const dates = [
      new Date('2024-02-29T23:59:59.999Z'),
      new Date('1969-07-20T20:17:40.001Z'),
      new Date('1000-01-01T00:00:00Z'),
      new Date('9999-12-31T23:59:59.999Z'),
    ];
    await collection('dates').insertMany(dates.map((d, i) => ({ _id: i, d })));
    const back = await collection('dates').find({}).sort({ _id: 1 }).toArray();
    expect(back.map((r) => r.d.toISOString())).toEqual(dates.map((d) => d.toISOString()));
    const after1970 = await collection('dates')
      .find({ d: { $gte: new Date(0) } })
      .sort({ d: 1 })
      .toArray();
    expect(after1970.map((r) => r._id)).toEqual([0, 3]);
  });

  test('Decimal128 keeps its exact digits', async () => {
    await collection('dec').insertOne({
      _id: 1,
      price: Decimal128.fromString('0.1'),
      big: Decimal128.fromString('12345678901234567890.123456789'),
    });
    const doc = await collection('dec').findOne({ _id: 1 });
    expect(doc!.price).toBeInstanceOf(Decimal128);
    expect(doc!.price.toString()).toBe('0.1');
    expect(doc!.big.toString()).toBe('12345678901234567890.123456789');
  });

  test('$inc with a Decimal128 adds exactly in decimal', async () => {
    await collection('dec_inc').insertOne({ _id: 1, price: Decimal128.fromString('0.1') });
    await collection('dec_inc').updateOne(
      { _id: 1 },
      { $inc: { price: Decimal128.fromString('0.2') } },
    );
    const doc = await collection('dec_inc').findOne({ _id: 1 });
    expect(doc!.price).toBeInstanceOf(Decimal128);
    expect(doc!.price.toString()).toBe('0.3');
  });

  test('Long keeps all 64 bits', async () => {
    await collection('long').insertOne({ _id: 1, n: Long.fromString('9007199254740993') });
    const doc = await collection('long').findOne({ _id: 1 }, { promoteLongs: false });
    expect(doc!.n).toBeInstanceOf(Long);
    expect(doc!.n.toString()).toBe('9007199254740993');
  });

  test('$inc on a Long is exact 64-bit arithmetic', async () => {
    await collection('long_inc').insertOne({ _id: 1, n: Long.fromString('9007199254740993') });
    await collection('long_inc').updateOne({ _id: 1 }, { $inc: { n: 1 } });
    const after = await collection('long_inc').findOne({ _id: 1 }, { promoteLongs: false });
    expect(after!.n).toBeInstanceOf(Long);
    expect(after!.n.toString()).toBe('9007199254740994');
  });

  test('$inc past the int32 range keeps the exact value', async () => {
    await collection('overflow').insertOne({ _id: 1, n: new Int32(2147483647) });
    await collection('overflow').updateOne({ _id: 1 }, { $inc: { n: 1 } });
    const doc = await collection('overflow').findOne({ _id: 1 });
    expect(doc!.n).toBe(2147483648);
  });

  test('Binary data and UUIDs come back byte for byte with their subtype', async () => {
    const bytes = Buffer.from([0, 1, 2, 250, 255]);
    const uuid = new UUID();
    await collection('bin').insertOne({
      _id: 1,
      raw: new Binary(bytes),
      uuid,
      buf: Buffer.from('héllo'),
    });
    const doc = await collection('bin').findOne({ _id: 1 });
    expect(doc!.raw).toBeInstanceOf(Binary);
    expect(Buffer.from(doc!.raw.buffer)).toEqual(bytes);
    expect(doc!.uuid.sub_type).toBe(Binary.SUBTYPE_UUID);
    expect(doc!.uuid.toUUID().toHexString()).toBe(uuid.toHexString());
    expect(Buffer.from(doc!.buf.buffer).toString()).toBe('héllo');
    expect(await collection('bin').countDocuments({ raw: new Binary(bytes) })).toBe(1);
  });

  test('Timestamp, regex, booleans, null and unicode strings round-trip', async () => {
    const ts = new Timestamp({ t: 1_700_000_000, i: 7 });
    const doc = {
      _id: 1,
      ts,
      rx: new BSONRegExp('^a.c$', 'im'),
      yes: true,
      no: false,
      nothing: null,
      text: 'héllo 世界 🚀 \u0000 end',
    };
    await collection('misc').insertOne(doc);
    const back = await collection('misc').findOne({ _id: 1 }, { bsonRegExp: true });
    expect(back!.ts).toBeInstanceOf(Timestamp);
    expect(back!.ts.equals(ts)).toBe(true);
    expect(back!.rx).toEqual(new BSONRegExp('^a.c$', 'im'));
    expect(back).toMatchObject({ yes: true, no: false, nothing: null, text: doc.text });
  });

  test('nested documents and arrays come back identical, field order included', async () => {
    const doc = {
      _id: 1,
      z: 1,
      a: { y: [1, [2, [3, { deep: true }]]], b: { c: { d: { e: 'x' } } } },
      m: [{ k: 2, j: 1 }, [], {}],
    };
    await collection('nested').insertOne(doc);
    const back = await collection('nested').findOne({ _id: 1 });
    expect(back).toEqual(doc);
    expect(Object.keys(back!)).toEqual(['_id', 'z', 'a', 'm']);
    expect(Object.keys(back!.a)).toEqual(['y', 'b']);
    expect(Object.keys(back!.m[0])).toEqual(['k', 'j']);
    expect(await collection('nested').countDocuments({ 'a.b.c.d.e': 'x' })).toBe(1);
    expect(await collection('nested').countDocuments({ 'm.k': 2 })).toBe(1);
  });

  test('a document of about 1 MB round-trips', async () => {
    const body = 'q'.repeat(1024 * 1024);
    await collection('large').insertOne({ _id: 1, body });
    expect((await collection('large').findOne({ _id: 1 }))!.body).toBe(body);
  });
});

describe('$type queries', () => {});

describe('mongoose schema types', () => {
  test('ObjectId, Date, Decimal128, BigInt, Buffer, Map, arrays and subdocuments round-trip', async () => {
    const Rich = suite.conn.model(
      'Rich',
      new Schema({
        owner: Schema.Types.ObjectId,
        when: Date,
        price: Schema.Types.Decimal128,
        counter: Schema.Types.BigInt,
        blob: Buffer,
        labels: { type: Map, of: String },
        scores: [Number],
        history: [{ at: Date, note: String }],
        profile: { name: String, address: { city: String } },
      }),
    );
    const owner = new ObjectId();
    const when = new Date('2024-05-06T07:08:09.010Z');
    const created = await Rich.create({
      owner,
      when,
      price: '19.99',
      counter: 9007199254740993n,
      blob: Buffer.from([9, 8, 7]),
      labels: { en: 'hello', fr: 'bonjour' },
      scores: [1, 2.5],
      history: [{ at: when, note: 'n' }],
      profile: { name: 'p', address: { city: 'c' } },
    });
    const doc = (await Rich.findById(created._id))!;
    expect(doc.owner!.equals(owner)).toBe(true);
    expect(doc.when!.toISOString()).toBe(when.toISOString());
    expect(doc.price!.toString()).toBe('19.99');
    expect(doc.counter).toBe(9007199254740993n);
    expect(Buffer.from(doc.blob as Buffer)).toEqual(Buffer.from([9, 8, 7]));
    expect(doc.labels!.get('fr')).toBe('bonjour');
    expect([...doc.scores]).toEqual([1, 2.5]);
    expect(doc.history[0]!.note).toBe('n');
    expect(doc.profile!.address!.city).toBe('c');
    expect(
      await Rich.countDocuments({ 'labels.en': 'hello', price: { $gt: 19 } } as Record<
        string,
        unknown
      >),
    ).toBe(1);
  });
});
