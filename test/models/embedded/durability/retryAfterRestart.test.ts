/**
 * A write whose reply was lost, retried by the driver after the engine restarted (its host killed
 * and started again, as the topology test does): the retry gets the first answer and the write
 * lands once — the engine keeps each session's last outcome with the write itself, as MongoDB
 * keeps `config.transactions`. Before, a retried insert failed with a duplicate key (an API
 * answered 500 where it should have answered the save), and an `$inc` landed twice.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { MongoClient, type Collection } from 'mongodb';
import { startEmbeddedMongo, type EmbeddedMongo } from '../../../../models/embedded';
import {
  startReplyDroppingProxy,
  type ReplyDroppingProxy,
} from '../../../helpers/replyDroppingProxy';
import { tempDirsRemovedAfterAll } from './helpers';

const tempDir = tempDirsRemovedAfterAll();

interface Row {
  _id: string;
  n?: number;
}

describe('a write retried after the engine restarted', () => {
  let dataDir: string;
  let mongo: EmbeddedMongo;
  let proxy: ReplyDroppingProxy;
  let client: MongoClient;
  let rows: Collection<Row>;
  let restarts = 0;

  /** Stops the engine and starts a new one on the same data; new connections go to it. */
  async function restartEngine(): Promise<void> {
    await mongo.stop();
    mongo = await startEmbeddedMongo({ dataDir, port: 0 });
    proxy.retarget(Number(new URL(mongo.uri).port));
    restarts++;
  }

  beforeAll(async () => {
    dataDir = tempDir('retry-restart');
    mongo = await startEmbeddedMongo({ dataDir, port: 0 });
    proxy = await startReplyDroppingProxy(Number(new URL(mongo.uri).port));
    client = await MongoClient.connect(`mongodb://127.0.0.1:${proxy.port}/?directConnection=true`, {
      retryWrites: true,
      serverSelectionTimeoutMS: 15_000,
      heartbeatFrequencyMS: 500,
    });
    rows = client.db('retry').collection<Row>('rows');
    await rows.insertOne({ _id: 'counter', n: 0 });
  });
  afterAll(async () => {
    await client?.close();
    await proxy?.close();
    await mongo?.stop();
  });

  test('a retried insert inserts once and answers as the first did, not with a duplicate key', async () => {
    proxy.dropReplyTo('insert', restartEngine);
    const res = await rows.insertOne({ _id: 'inserted-once' });
    expect({ dropped: proxy.dropped, restarts }).toEqual({ dropped: 1, restarts: 1 });
    expect(res).toMatchObject({ acknowledged: true, insertedId: 'inserted-once' });
    expect(await rows.countDocuments({ _id: 'inserted-once' })).toBe(1);
  });

  test('a retried update is applied once', async () => {
    proxy.dropReplyTo('update', restartEngine);
    const res = await rows.updateOne({ _id: 'counter' }, { $inc: { n: 1 } });
    expect({ dropped: proxy.dropped, restarts }).toEqual({ dropped: 2, restarts: 2 });
    expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
    expect(await rows.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', n: 1 });
  });

  test('a retried findOneAndUpdate returns the first result and increments once', async () => {
    proxy.dropReplyTo('findAndModify', restartEngine);
    const doc = await rows.findOneAndUpdate(
      { _id: 'counter' },
      { $inc: { n: 1 } },
      { returnDocument: 'after' },
    );
    expect({ dropped: proxy.dropped, restarts }).toEqual({ dropped: 3, restarts: 3 });
    expect(doc).toEqual({ _id: 'counter', n: 2 });
    expect(await rows.findOne({ _id: 'counter' })).toEqual({ _id: 'counter', n: 2 });
  });

  test('a retried commit of a transaction that committed answers ok, and its writes landed once', async () => {
    const session = client.startSession();
    try {
      session.startTransaction();
      await rows.insertOne({ _id: 'in-transaction' }, { session });
      await rows.updateOne({ _id: 'counter' }, { $inc: { n: 10 } }, { session });
      proxy.dropReplyTo('commitTransaction', restartEngine);
      await session.commitTransaction();
    } finally {
      await session.endSession();
    }
    expect({ dropped: proxy.dropped, restarts }).toEqual({ dropped: 4, restarts: 4 });
    expect(await rows.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
      { _id: 'counter', n: 12 },
      { _id: 'in-transaction' },
      { _id: 'inserted-once' },
    ]);
  });
});

describe('retry records', () => {
  test('one per session, kept across a restart, dropped once the session has been idle 30 minutes', async () => {
    const dataDir = tempDir('retry-records');
    let mongo = await startEmbeddedMongo({ dataDir, port: 0 });
    const records = async () => {
      const client = await MongoClient.connect(mongo.uri);
      try {
        return await client.db('config').collection('transactions').countDocuments({});
      } finally {
        await client.close();
      }
    };
    try {
      const client = await MongoClient.connect(mongo.uri, { retryWrites: true });
      const rows = client.db('retry').collection<Row>('rows');
      const [a, b] = [client.startSession(), client.startSession()];
      await rows.insertOne({ _id: 'a1' }, { session: a });
      await rows.insertOne({ _id: 'a2' }, { session: a });
      await rows.insertOne({ _id: 'b1' }, { session: b });
      await Promise.all([a.endSession(), b.endSession()]);
      await client.close();
      expect(await records()).toBe(2);

      await mongo.stop();
      mongo = await startEmbeddedMongo({ dataDir, port: 0 });
      expect(await records()).toBe(2);

      await mongo.engine.sweep(Date.now() + 10 * 60 * 1000);
      expect(await records()).toBe(2);
      await mongo.engine.sweep(Date.now() + 31 * 60 * 1000);
      expect(await records()).toBe(0);
      // The deletions were journaled: a restart does not bring the records back.
      await mongo.stop();
      mongo = await startEmbeddedMongo({ dataDir, port: 0 });
      expect(await records()).toBe(0);
    } finally {
      await mongo.stop();
    }
  });
});
