/**
 * models/platform/dump.ts through the official driver: a dump round-trips documents with their exact BSON
 * types (int32/int64/double/decimal/date/binary/regex), the collection's indexes, and empty
 * collections; an import replaces what it restores and leaves other collections alone.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import { BSON, Binary, Decimal128, Double, Int32, Long } from 'bson';
import fs from 'node:fs';
import mongoose from 'mongoose';
import { exportDatabase, importDatabase } from '../../models/platform/dump';
import { makeTempDir, startTestServer, type TestServer } from '../helpers/server';

/** Numeric _id documents (the driver's default typing assumes ObjectId). */
type AnyDoc = { _id: number } & Record<string, unknown>;

let server: TestServer;
let dumpDir: string;
beforeAll(async () => {
  server = await startTestServer({ env: { LOG_LEVEL: 'silent' } });
  dumpDir = await makeTempDir('quire-dump-');
});
afterAll(async () => {
  await server.stop();
  fs.rmSync(dumpDir, { recursive: true, force: true });
});

const sample = {
  _id: 1,
  int: new Int32(7),
  long: Long.fromString('9007199254740993'),
  double: new Double(2),
  decimal: Decimal128.fromString('0.1'),
  date: new Date('2024-01-02T03:04:05Z'),
  bin: new Binary(Buffer.from([1, 2, 3])),
  re: new BSON.BSONRegExp('^a.c$', 'im'),
  nested: { list: [1, 'two', null] },
};

test('export then import reproduces documents byte for byte, with indexes and empty collections', async () => {
  const source = mongoose.connection.db!;
  await source.collection<AnyDoc>('typed').insertOne(sample);
  await source.collection<AnyDoc>('typed').createIndex({ 'nested.list': 1 }, { name: 'by_list' });
  await source.createCollection('empty_one');

  const exported = await exportDatabase(source, dumpDir);
  expect(exported.find((c) => c.name === 'typed')).toEqual({
    name: 'typed',
    documents: 1,
    indexes: 2,
  });
  expect(exported.find((c) => c.name === 'empty_one')).toMatchObject({ documents: 0 });

  const copy = mongoose.connection.getClient().db('quire_copy');
  await copy.collection<AnyDoc>('untouched').insertOne({ _id: 1 });
  await copy.collection<AnyDoc>('typed').insertOne({ _id: 99, stale: true });
  // The dump's folder is named after the source db ("quire"): it is found as the only one.
  const imported = await importDatabase(copy, dumpDir);
  expect(imported.map((c) => c.name)).toEqual(
    expect.arrayContaining(['typed', 'empty_one', 'user']),
  );

  const raw = { promoteValues: false, bsonRegExp: true } as const;
  const original = await source.collection<AnyDoc>('typed').findOne({ _id: 1 }, { raw: true });
  const restored = await copy.collection<AnyDoc>('typed').findOne({ _id: 1 }, { raw: true });
  expect(Buffer.from(restored as unknown as Uint8Array)).toEqual(
    Buffer.from(original as unknown as Uint8Array),
  );
  expect(BSON.deserialize(restored as unknown as Uint8Array, raw).long).toBeInstanceOf(Long);

  expect(await copy.collection<AnyDoc>('typed').countDocuments()).toBe(1); // the stale document is gone
  expect(await copy.collection<AnyDoc>('untouched').countDocuments()).toBe(1);
  const indexNames = (await copy.collection<AnyDoc>('typed').listIndexes().toArray()).map(
    (i) => i.name,
  );
  expect(indexNames.sort()).toEqual(['_id_', 'by_list']);
  const collections = (await copy.listCollections().toArray()).map((c) => c.name);
  expect(collections).toContain('empty_one');
  await copy.dropDatabase();
});
