/**
 * Conformance: sessions, multi-document transactions (commit, abort, snapshot reads, write
 * conflicts and withTransaction retries) and retryable writes — including a real lost-reply
 * network failure, produced by a TCP proxy that cuts the connection after the engine has
 * applied a write but before the driver gets the answer.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { Schema } from 'mongoose';
import { Long, MongoClient, MongoServerError, type ClientSession } from 'mongodb';
import { caught, engineSuite, type AnyDoc } from '../../helpers/embedded';
import { startReplyDroppingProxy, type ReplyDroppingProxy } from '../../helpers/replyDroppingProxy';

const DB = 'conf_transactions';
const suite = engineSuite(DB);

const { collection } = suite;

/** Runs `fn` with fresh sessions and always ends them (aborting any open transaction). */
async function withSessions(count: number, fn: (...sessions: ClientSession[]) => Promise<void>) {
  const sessions = Array.from({ length: count }, () => suite.client.startSession());
  try {
    await fn(...sessions);
  } finally {
    for (const s of sessions) {
      if (s.inTransaction()) await s.abortTransaction().catch(() => undefined);
      await s.endSession();
    }
  }
}

describe('transactions (raw driver)', () => {
  test('writes in a transaction are visible inside it, invisible outside until commit, then visible', async () => {
    const coll = collection('commit');
    await withSessions(1, async (s) => {
      s.startTransaction();
      await coll.insertOne({ _id: 'a', v: 1 }, { session: s });
      await coll.insertOne({ _id: 'b', v: 2 }, { session: s });
      expect(await coll.countDocuments({}, { session: s })).toBe(2);
      expect(await coll.findOne({ _id: 'a' })).toBeNull();
      await s.commitTransaction();
    });
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 'a', v: 1 },
      { _id: 'b', v: 2 },
    ]);
  });

  test('abort rolls back inserts, updates and deletes made in the transaction', async () => {
    const coll = collection('abort');
    await coll.insertMany([
      { _id: 1, v: 'keep' },
      { _id: 2, v: 'keep' },
    ]);
    await withSessions(1, async (s) => {
      s.startTransaction();
      await coll.insertOne({ _id: 3, v: 'new' }, { session: s });
      await coll.updateOne({ _id: 1 }, { $set: { v: 'changed' } }, { session: s });
      await coll.deleteOne({ _id: 2 }, { session: s });
      await s.abortTransaction();
    });
    expect(await coll.find({}).sort({ _id: 1 }).toArray()).toEqual([
      { _id: 1, v: 'keep' },
      { _id: 2, v: 'keep' },
    ]);
  });

  test('commitTransaction may be retried after it succeeded', async () => {
    const coll = collection('commit_twice');
    await withSessions(1, async (s) => {
      s.startTransaction();
      await coll.insertOne({ _id: 1 }, { session: s });
      await s.commitTransaction();
      await s.commitTransaction();
    });
    expect(await coll.countDocuments({})).toBe(1);
  });

  test('a transaction reads from one snapshot: later outside commits are not seen', async () => {
    const coll = collection('snapshot');
    await coll.insertOne({ _id: 1, v: 1 });
    await withSessions(1, async (s) => {
      s.startTransaction();
      expect((await coll.findOne({ _id: 1 }, { session: s }))!.v).toBe(1);
      await coll.updateOne({ _id: 1 }, { $set: { v: 2 } });
      expect((await coll.findOne({ _id: 1 }, { session: s }))!.v).toBe(1);
      await s.commitTransaction();
    });
    expect((await coll.findOne({ _id: 1 }))!.v).toBe(2);
  });

  test('snapshot read concern fixes every collection at the first read, even ones read later (backups)', async () => {
    const pages = collection('snap_pages');
    const history = collection('snap_history');
    await pages.insertOne({ _id: 1, v: 1 });
    await history.insertOne({ _id: 1, page: 1, v: 1 });
    await withSessions(1, async (s) => {
      s.startTransaction({ readConcern: { level: 'snapshot' } });
      expect(await pages.countDocuments({}, { session: s })).toBe(1);
      // A save lands in both collections after the snapshot, before the second is first read.
      await pages.insertOne({ _id: 2, v: 1 });
      await history.insertOne({ _id: 2, page: 2, v: 1 });
      expect(await history.find({}, { session: s }).toArray()).toEqual([{ _id: 1, page: 1, v: 1 }]);
      await s.abortTransaction();
    });
    // Without it a collection is copied when first touched, so it shows the later write.
    await withSessions(1, async (s) => {
      s.startTransaction();
      expect(await pages.countDocuments({}, { session: s })).toBe(2);
      await history.insertOne({ _id: 3, page: 3, v: 1 });
      expect(await history.countDocuments({}, { session: s })).toBe(3);
      await s.abortTransaction();
    });
  });

  test('two transactions writing the same document: the second gets code 112 with TransientTransactionError', async () => {
    const coll = collection('conflict');
    await coll.insertOne({ _id: 1, by: 'nobody' });
    await withSessions(2, async (a, b) => {
      a.startTransaction();
      b.startTransaction();
      await coll.updateOne({ _id: 1 }, { $set: { by: 'A' } }, { session: a });
      const err = await caught(() =>
        coll.updateOne({ _id: 1 }, { $set: { by: 'B' } }, { session: b }),
      );
      expect(err).toBeInstanceOf(MongoServerError);
      expect(err.code).toBe(112);
      expect(err.codeName).toBe('WriteConflict');
      expect((err as MongoServerError).hasErrorLabel('TransientTransactionError')).toBe(true);
      await b.abortTransaction();
      await a.commitTransaction();
    });
    expect(await coll.findOne({ _id: 1 })).toEqual({ _id: 1, by: 'A' });
  });

  test('withTransaction retries the callback after a transient write conflict', async () => {
    const coll = collection('retry_txn');
    await coll.insertOne({ _id: 1, n: 0 });
    await withSessions(2, async (a, b) => {
      a.startTransaction();
      await coll.updateOne({ _id: 1 }, { $inc: { n: 1 } }, { session: a });
      let attempts = 0;
      await b.withTransaction(async () => {
        attempts++;
        try {
          await coll.updateOne({ _id: 1 }, { $inc: { n: 10 } }, { session: b });
        } catch (err) {
          // let the blocking transaction finish so that the retry can succeed
          if (attempts === 1) await a.commitTransaction();
          throw err;
        }
      });
      expect(attempts).toBe(2);
    });
    expect((await coll.findOne({ _id: 1 }))!.n).toBe(11);
  });

  test('a causally consistent session reads its own writes', async () => {
    const coll = collection('causal');
    const s = suite.client.startSession({ causalConsistency: true });
    try {
      await coll.insertOne({ _id: 1, v: 'written' }, { session: s });
      expect(await coll.findOne({ _id: 1 }, { session: s })).toEqual({ _id: 1, v: 'written' });
      await coll.updateOne({ _id: 1 }, { $set: { v: 'again' } }, { session: s });
      expect((await coll.findOne({ _id: 1 }, { session: s }))!.v).toBe('again');
    } finally {
      await s.endSession();
    }
  });
});

describe('transactions (mongoose)', () => {
  const Account = () =>
    suite.conn.models.Account ??
    suite.conn.model(
      'Account',
      new Schema({ name: { type: String, unique: true }, balance: Number }),
    );

  test('connection.transaction commits every write together', async () => {
    await Account().init();
    await Account().create({ name: 'alice', balance: 100 });
    await suite.conn.transaction(async (session) => {
      await Account().updateOne({ name: 'alice' }, { $inc: { balance: -30 } }, { session });
      await Account().create([{ name: 'bob', balance: 30 }], { session });
    });
    const rows = await Account().find({}, { _id: 0, name: 1, balance: 1 }).sort({ name: 1 }).lean();
    expect(rows).toEqual([
      { name: 'alice', balance: 70 },
      { name: 'bob', balance: 30 },
    ]);
  });

  test('an error thrown inside connection.transaction rolls everything back and is rethrown', async () => {
    await expect(
      suite.conn.transaction(async (session) => {
        await Account().updateOne({ name: 'alice' }, { $inc: { balance: -70 } }, { session });
        await Account().create([{ name: 'carol', balance: 70 }], { session });
        throw new Error('business rule failed');
      }),
    ).rejects.toThrow('business rule failed');
    expect(await Account().findOne({ name: 'alice' }).lean()).toMatchObject({ balance: 70 });
    expect(await Account().findOne({ name: 'carol' })).toBeNull();
  });

  test('a duplicate key inside a transaction aborts it with 11000', async () => {
    const err = await caught(() =>
      suite.conn.transaction(async (session) => {
        await Account().create([{ name: 'dave', balance: 1 }], { session });
        await Account().create([{ name: 'alice', balance: 1 }], { session });
      }),
    );
    expect(err.code).toBe(11000);
    expect(await Account().findOne({ name: 'dave' })).toBeNull();
  });
});

describe('retryable writes', () => {
  test('the same lsid + txnNumber sent twice is applied once and answered with the first result', async () => {
    const coll = collection('retry_raw');
    await coll.insertOne({ _id: 'counter', n: 0 });
    const s = suite.client.startSession();
    try {
      const txnNumber = Long.fromNumber(7);
      const insert = { insert: 'retry_raw', documents: [{ tag: 'once' }], txnNumber };
      const first = await suite.db.command(insert, { session: s });
      const second = await suite.db.command(insert, { session: s });
      expect(first).toMatchObject({ ok: 1, n: 1 });
      expect(second).toMatchObject({ ok: 1, n: 1 });
      expect(second.writeErrors).toBeUndefined();
      expect(await coll.countDocuments({ tag: 'once' })).toBe(1);

      const update = {
        update: 'retry_raw',
        updates: [{ q: { _id: 'counter' }, u: { $inc: { n: 1 } } }],
        txnNumber: Long.fromNumber(8),
      };
      await suite.db.command(update, { session: s });
      const again = await suite.db.command(update, { session: s });
      expect(again).toMatchObject({ ok: 1, n: 1, nModified: 1 });
      expect((await coll.findOne({ _id: 'counter' }))!.n).toBe(1);
    } finally {
      await s.endSession();
    }
  });

  describe('after a lost reply (connection cut once the engine applied the write)', () => {
    let proxy: ReplyDroppingProxy;
    let viaProxy: MongoClient;
    let coll: ReturnType<typeof collection>;

    beforeAll(async () => {
      const { port } = new URL(suite.engine.uri);
      proxy = await startReplyDroppingProxy(Number(port));
      viaProxy = await MongoClient.connect(
        `mongodb://127.0.0.1:${proxy.port}/?directConnection=true`,
        {
          retryWrites: true,
          serverSelectionTimeoutMS: 10_000,
        },
      );
      coll = viaProxy.db(DB).collection<AnyDoc>('retry_net');
      await coll.insertOne({ _id: 'counter', n: 0 });
    });
    afterAll(async () => {
      await viaProxy?.close();
      await proxy?.close();
    });

    test('a retried update is not applied twice', async () => {
      proxy.dropReplyTo('update');
      const res = await coll.updateOne({ _id: 'counter' }, { $inc: { n: 1 } });
      expect(proxy.dropped).toBe(1);
      expect(res).toMatchObject({ matchedCount: 1, modifiedCount: 1 });
      expect((await coll.findOne({ _id: 'counter' }))!.n).toBe(1);
    });

    test('a retried insert does not fail with a duplicate key and inserts once', async () => {
      proxy.dropReplyTo('insert');
      const res = await coll.insertOne({ _id: 'inserted-once' });
      expect(proxy.dropped).toBe(2);
      expect(res.insertedId).toBe('inserted-once');
      expect(await coll.countDocuments({ _id: 'inserted-once' })).toBe(1);
    });

    test('a retried findOneAndUpdate returns the original result and increments once', async () => {
      proxy.dropReplyTo('findAndModify');
      const doc = await coll.findOneAndUpdate(
        { _id: 'counter' },
        { $inc: { n: 1 } },
        { returnDocument: 'after' },
      );
      expect(proxy.dropped).toBe(3);
      expect(doc).toEqual({ _id: 'counter', n: 2 });
      expect((await coll.findOne({ _id: 'counter' }))!.n).toBe(2);
    });
  });
});
