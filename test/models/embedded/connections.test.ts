/**
 * Conformance: the engine is reachable over TCP and a unix socket (raw driver and mongoose),
 * handles many concurrent connections, keeps its data across a clean stop + restart on the same
 * data directory, refuses a second opener of that directory, and really closes on stop.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import mongoose, { Schema } from 'mongoose';
import { MongoClient, MongoServerError } from 'mongodb';
import { startEmbeddedMongo } from '../../../models/embedded';
import { caught, startTestEngine, type TestEngine, type AnyDoc } from '../../helpers/embedded';

const DB = 'conf_connections';
let engine: TestEngine;

beforeAll(async () => {
  engine = await startTestEngine({ socket: true });
});

afterAll(async () => {
  await engine?.stop();
});

/** Opens a client, runs `fn`, always closes it. */
async function withClient<T>(uri: string, fn: (client: MongoClient) => Promise<T>): Promise<T> {
  const client = await MongoClient.connect(uri, { serverSelectionTimeoutMS: 5000 });
  try {
    return await fn(client);
  } finally {
    await client.close();
  }
}

describe('transports', () => {
  test('the URI is a loopback TCP address and the raw driver can use it', async () => {
    expect(new URL(engine.uri).hostname).toBe('127.0.0.1');
    await withClient(engine.uri, async (client) => {
      expect(await client.db(DB).command({ ping: 1 })).toMatchObject({ ok: 1 });
      await client.db(DB).collection<AnyDoc>('shared').insertOne({ _id: 'tcp' });
    });
  });

  test('the unix socket serves the same data as TCP', async () => {
    await withClient(engine.socketUri!, async (client) => {
      const coll = client.db(DB).collection<AnyDoc>('shared');
      expect(await coll.findOne({ _id: 'tcp' })).toEqual({ _id: 'tcp' });
      await coll.insertOne({ _id: 'socket' });
    });
    await withClient(engine.uri, async (client) => {
      expect(await client.db(DB).collection('shared').countDocuments({})).toBe(2);
    });
  });

  test('mongoose connects over the unix socket and over TCP', async () => {
    for (const uri of [engine.socketUri!, engine.uri]) {
      const conn = await mongoose.createConnection(uri, { dbName: DB }).asPromise();
      try {
        const Note = conn.model('Note', new Schema({ text: String, via: String }));
        await Note.create({ text: 'hi', via: uri });
        expect(await Note.countDocuments({ via: uri })).toBe(1);
      } finally {
        await conn.close();
      }
    }
  });

  test('many concurrent operations over a large connection pool all succeed', async () => {
    await withClient(engine.uri, async (client) => {
      const coll = client.db(DB).collection<AnyDoc>('concurrent');
      await Promise.all(Array.from({ length: 200 }, (_, i) => coll.insertOne({ _id: i })));
      const counts = await Promise.all(Array.from({ length: 50 }, () => coll.countDocuments({})));
      expect(new Set(counts)).toEqual(new Set([200]));
    });
  });

  test('several clients see each other’s writes immediately', async () => {
    const clients = await Promise.all([1, 2, 3].map(() => MongoClient.connect(engine.uri)));
    try {
      for (const [i, c] of clients.entries())
        await c.db(DB).collection<AnyDoc>('visible').insertOne({ _id: i });
      for (const c of clients)
        expect(await c.db(DB).collection('visible').countDocuments({})).toBe(3);
    } finally {
      await Promise.all(clients.map((c) => c.close()));
    }
  });
});

describe('lifecycle', () => {
  test('a second engine cannot open a data directory that is in use', async () => {
    let second: { stop(): Promise<void> } | undefined;
    try {
      second = await startEmbeddedMongo({ dataDir: engine.dataDir, host: '127.0.0.1', port: 0 });
    } catch (err) {
      expect(err).toBeInstanceOf(Error);
    } finally {
      await second?.stop();
    }
    expect(second).toBeUndefined();
  });

  test('data, indexes, transactions, drops and renames survive a clean stop and restart', async () => {
    await withClient(engine.uri, async (client) => {
      const db = client.db('conf_restart');
      await db
        .collection<AnyDoc>('kept')
        .insertMany(Array.from({ length: 500 }, (_, i) => ({ _id: i, v: `value-${i}` })));
      await db.collection('kept').createIndex({ v: 1 }, { unique: true });
      await db.collection<AnyDoc>('kept').updateOne({ _id: 7 }, { $set: { touched: true } });
      await db.collection<AnyDoc>('kept').deleteOne({ _id: 8 });
      await db.collection<AnyDoc>('dropped').insertOne({ gone: true });
      await db.collection('dropped').drop();
      await db.collection<AnyDoc>('old_name').insertOne({ _id: 'r' });
      await db.collection('old_name').rename('new_name');
      const session = client.startSession();
      try {
        await session.withTransaction(async () => {
          await db.collection<AnyDoc>('txn').insertOne({ _id: 'committed' }, { session });
        });
        session.startTransaction();
        await db.collection<AnyDoc>('txn').insertOne({ _id: 'aborted' }, { session });
        await session.abortTransaction();
      } finally {
        await session.endSession();
      }
    });

    await engine.restart();

    await withClient(engine.uri, async (client) => {
      const db = client.db('conf_restart');
      const kept = db.collection<AnyDoc>('kept');
      expect(await kept.countDocuments({})).toBe(499);
      expect(await kept.findOne({ _id: 7 })).toEqual({ _id: 7, v: 'value-7', touched: true });
      expect(await kept.findOne({ _id: 8 })).toBeNull();
      expect((await kept.indexes()).find((i) => i.name === 'v_1')).toMatchObject({
        key: { v: 1 },
        unique: true,
      });
      const dup = await caught(() => kept.insertOne({ v: 'value-1' }));
      expect(dup).toBeInstanceOf(MongoServerError);
      expect(dup.code).toBe(11000);
      const names = (await db.listCollections({}, { nameOnly: true }).toArray())
        .map((c) => c.name)
        .sort();
      expect(names).toEqual(['kept', 'new_name', 'txn']);
      expect(await db.collection('txn').find({}).toArray()).toEqual([{ _id: 'committed' }]);
      // data written by the earlier tests, over TCP and the unix socket, is there too
      expect(await client.db(DB).collection('shared').countDocuments({})).toBe(2);
    });
  });

  test('after stop the engine no longer accepts connections', async () => {
    const scratch = await startTestEngine();
    const uri = scratch.uri;
    await scratch.stop();
    const err = await caught(() =>
      MongoClient.connect(uri, { serverSelectionTimeoutMS: 500, connectTimeoutMS: 500 }),
    );
    expect(err.name).toBe('MongoServerSelectionError');
  });
});
