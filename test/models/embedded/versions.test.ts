/**
 * The engine's per-document versions (what write-conflict checks compare): kept only for changes
 * made while a transaction is open, and forgotten by the minute's sweep once no open transaction
 * started before them, so writes (page-version and log trims run on every save) do not grow
 * memory for good — and a transaction that did start before a change still gets its
 * WriteConflict.
 */
import { afterEach, describe, expect, test } from '@jest/globals';
import { Long, type Document } from 'bson';
import { Engine } from '../../../models/embedded/engine';

let engine: Engine;
afterEach(() => engine?.close());

const run = (command: Document) => engine.run({ ...command, $db: 't' }, 1);
const versions = () => engine.store.collection('t', 'c')!.versions;

describe('versions', () => {
  test('none is kept for changes made while no transaction is open', async () => {
    engine = new Engine(null);
    await run({ insert: 'c', documents: [{ _id: 1 }, { _id: 2 }, { _id: 3 }] });
    await run({ delete: 'c', deletes: [{ q: { _id: { $in: [1, 2] } }, limit: 0 }] });
    await run({ update: 'c', updates: [{ q: { _id: 3 }, u: { $set: { v: 1 } } }] });
    expect(versions().size).toBe(0);
    expect((await run({ find: 'c', filter: {} })).cursor.firstBatch).toEqual([{ _id: 3, v: 1 }]);
  });

  test('a transaction that started before a removal still conflicts on it after a sweep', async () => {
    engine = new Engine(null);
    await run({
      insert: 'c',
      documents: [
        { _id: 1, v: 0 },
        { _id: 2, v: 0 },
      ],
    });
    const txn = { lsid: { id: 'session-a' }, txnNumber: Long.fromNumber(1), autocommit: false };
    const first = await run({ find: 'c', filter: { _id: 2 }, startTransaction: true, ...txn });
    expect(first.ok).toBe(1);
    expect(versions().size).toBe(0); // the inserts came before any transaction
    await run({ delete: 'c', deletes: [{ q: { _id: 1 }, limit: 1 }] }); // outside the transaction
    engine.sweep();
    expect(versions().size).toBe(1); // the removal's entry stays while the transaction is open
    const write = await run({
      update: 'c',
      updates: [{ q: { _id: 1 }, u: { $set: { v: 1 } }, upsert: true }],
      ...txn,
    });
    expect(write.codeName ?? write.writeErrors?.[0]?.codeName).toBe('WriteConflict');
    await run({ abortTransaction: 1, ...txn });
    engine.sweep();
    expect(versions().size).toBe(0); // the transaction is over: the removal's entry goes
  });
});
