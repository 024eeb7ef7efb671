/**
 * Conformance: administrative commands the driver, mongoose and Quire's scripts rely on —
 * ping, hello, buildInfo, listDatabases, dbStats/collStats, listCollections, renameCollection,
 * drop/dropDatabase — and the error for an unknown command.
 */
import { describe, expect, test } from '@jest/globals';
import { MongoServerError } from 'mongodb';
import { caught, engineSuite, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_admin';
const suite = engineSuite(DB);

const collection = (name: string, dbName = DB) => suite.client.db(dbName).collection<AnyDoc>(name);
const collectionNames = async (dbName = DB) =>
  (await suite.client.db(dbName).listCollections({}, { nameOnly: true }).toArray())
    .map((c) => c.name)
    .sort();
const databaseNames = async () =>
  (await suite.client.db('admin').admin().listDatabases()).databases.map((d) => d.name);

describe('server information', () => {
  test('ping answers ok: 1', async () => {
    expect(await suite.db.command({ ping: 1 })).toMatchObject({ ok: 1 });
    expect(await suite.client.db('admin').command({ ping: 1 })).toMatchObject({ ok: 1 });
  });

  test('hello describes a writable replica-set primary with the usual limits', async () => {
    const hello = await suite.db.command({ hello: 1 });
    expect(hello).toMatchObject({
      ok: 1,
      isWritablePrimary: true,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
    });
    expect(typeof hello.setName).toBe('string');
    expect(typeof hello.logicalSessionTimeoutMinutes).toBe('number');
    expect(hello.maxWireVersion).toBeGreaterThanOrEqual(hello.minWireVersion);
    expect(hello.localTime).toBeInstanceOf(Date);
  });

  test('buildInfo reports a version string and a matching versionArray', async () => {
    const info = await suite.client.db('admin').command({ buildInfo: 1 });
    expect(info.ok).toBe(1);
    expect(info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(info.versionArray).toHaveLength(4);
    expect(info.versionArray.slice(0, 3).join('.')).toBe(info.version.match(/^\d+\.\d+\.\d+/)[0]);
  });

  test('an unknown command fails with code 59 (CommandNotFound)', async () => {
    const err = await caught(() => suite.db.command({ definitelyNotACommand: 1 }));
    expect(err).toBeInstanceOf(MongoServerError);
    expect(err.code).toBe(59);
    expect(err.codeName).toBe('CommandNotFound');
    expect(err.message).toBe("no such command: 'definitelyNotACommand'");
  });
});

describe('databases and collections', () => {
  test('listDatabases lists databases that hold data, with sizes', async () => {
    await collection('c', 'conf_admin_listed').insertOne({ a: 1 });
    const res = await suite.client.db('admin').admin().listDatabases();
    const listed = res.databases.find((d) => d.name === 'conf_admin_listed');
    expect(listed).toBeDefined();
    expect(typeof listed!.sizeOnDisk).toBe('number');
    expect(listed!.empty).toBe(false);
    expect(typeof res.totalSize).toBe('number');
    const namesOnly = await suite.client.db('admin').command({ listDatabases: 1, nameOnly: true });
    expect(namesOnly.databases.map((d: AnyDoc) => d.name)).toContain('conf_admin_listed');
  });

  test('dbStats counts collections and objects of the database', async () => {
    await collection('a', 'conf_admin_stats').insertMany([{ x: 1 }, { x: 2 }]);
    await collection('b', 'conf_admin_stats').insertOne({ y: 'z' });
    const stats = await suite.client.db('conf_admin_stats').stats();
    expect(stats).toMatchObject({ ok: 1, db: 'conf_admin_stats', collections: 2, objects: 3 });
    expect(typeof stats.dataSize).toBe('number');
    expect(stats.dataSize).toBeGreaterThan(0);
  });

  test('collStats reports namespace, count, size and index count', async () => {
    await collection('measured').insertMany([{ v: 'abc' }, { v: 'def' }, { v: 'ghi' }]);
    await collection('measured').createIndex({ v: 1 });
    const stats = await suite.db.command({ collStats: 'measured' });
    expect(stats).toMatchObject({ ok: 1, ns: `${DB}.measured`, count: 3, nindexes: 2 });
    expect(stats.size).toBeGreaterThan(0);
  });

  test('listCollections reports created collections; filter by name; type is "collection"', async () => {
    await suite.db.createCollection('explicit');
    await collection('implicit').insertOne({});
    const names = await collectionNames();
    expect(names).toEqual(expect.arrayContaining(['explicit', 'implicit']));
    const [info] = await suite.db.listCollections({ name: 'explicit' }).toArray();
    expect(info).toMatchObject({ name: 'explicit', type: 'collection' });
    expect(await suite.db.listCollections({ name: 'absent' }).toArray()).toEqual([]);
  });

  test('renameCollection moves documents and indexes; the old name disappears', async () => {
    await collection('before').insertMany([{ k: 1 }, { k: 2 }]);
    await collection('before').createIndex({ k: 1 }, { unique: true });
    await collection('before').rename('after');
    expect(await collectionNames()).not.toContain('before');
    expect(await collection('after').countDocuments({})).toBe(2);
    expect((await collection('after').indexes()).map((i) => i.name).sort()).toEqual([
      '_id_',
      'k_1',
    ]);
    expect((await caught(() => collection('after').insertOne({ k: 1 }))).code).toBe(11000);
  });

  test('renameCollection onto an existing collection fails (48) unless dropTarget', async () => {
    await collection('src').insertOne({ from: 'src' });
    await collection('dst').insertOne({ from: 'dst' });
    const err = await caught(() => collection('src').rename('dst'));
    expect(err.code).toBe(48);
    await collection('src').rename('dst', { dropTarget: true });
    expect(
      await collection('dst')
        .find({}, { projection: { _id: 0 } })
        .toArray(),
    ).toEqual([{ from: 'src' }]);
  });

  test('renameCollection of a missing collection fails with code 26 (NamespaceNotFound)', async () => {
    const err = await caught(() =>
      suite.client.db('admin').command({ renameCollection: `${DB}.ghost`, to: `${DB}.ghost2` }),
    );
    expect(err.code).toBe(26);
  });

  test('renameCollection can move a collection to another database', async () => {
    await collection('traveller').insertOne({ t: 1 });
    await suite.client
      .db('admin')
      .command({ renameCollection: `${DB}.traveller`, to: 'conf_admin_other.arrived' });
    expect(await collection('arrived', 'conf_admin_other').countDocuments({})).toBe(1);
    expect(await collectionNames()).not.toContain('traveller');
  });

  test('drop removes a collection with its documents and indexes; dropping a missing one is harmless', async () => {
    await collection('doomed').insertOne({ a: 1 });
    await collection('doomed').createIndex({ a: 1 });
    expect(await collection('doomed').drop()).toBe(true);
    expect(await collectionNames()).not.toContain('doomed');
    expect(await collection('doomed').countDocuments({})).toBe(0);
    await collection('doomed').insertOne({ a: 2 });
    expect((await collection('doomed').indexes()).map((i) => i.name)).toEqual(['_id_']);
    await expect(collection('never_existed').drop()).resolves.toBeDefined();
  });

  test('dropDatabase removes every collection and the database from listDatabases', async () => {
    const name = 'conf_admin_dropme';
    await collection('one', name).insertOne({});
    await collection('two', name).insertOne({});
    expect(await databaseNames()).toContain(name);
    await suite.client.db(name).dropDatabase();
    expect(await collectionNames(name)).toEqual([]);
    expect(await databaseNames()).not.toContain(name);
  });

  test('mongoose connection helpers: listCollections, dropCollection, dropDatabase', async () => {
    const scratch = suite.conn.useDb('conf_admin_mongoose');
    await scratch.collection('m1').insertOne({ a: 1 });
    await scratch.collection('m2').insertOne({ a: 1 });
    expect((await scratch.listCollections()).map((c) => c.name).sort()).toEqual(['m1', 'm2']);
    await scratch.dropCollection('m1');
    expect((await scratch.listCollections()).map((c) => c.name)).toEqual(['m2']);
    await scratch.dropDatabase();
    expect(await scratch.listCollections()).toEqual([]);
  });
});
