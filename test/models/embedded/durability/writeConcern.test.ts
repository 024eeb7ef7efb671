/**
 * Write concerns without the journal (`j: false`, `w: 0`), as the kanban board lease uses them:
 * the engine answers them once applied, yet their writes still go to the journal in the order
 * they came — so a journaled write acknowledged after them implies them on disk (a copy of the
 * data directory taken at that moment, as a crash would leave it, holds them), and a clean stop
 * keeps every one.
 */
import { describe, expect, test } from '@jest/globals';
import { cpSync } from 'node:fs';
import { MongoClient } from 'mongodb';
import { startEmbeddedMongo } from '../../../../models/embedded';
import { tempDirsRemovedAfterAll } from './helpers';

const tempDir = tempDirsRemovedAfterAll();

interface Row {
  _id: number;
  how: string;
  n?: number;
}

async function readBack(dataDir: string): Promise<Row[]> {
  const mongo = await startEmbeddedMongo({ dataDir, port: 0 });
  const client = new MongoClient(mongo.uri);
  try {
    return await client
      .db('wc')
      .collection<Row>('rows')
      .find({}, { sort: { _id: 1 } })
      .toArray();
  } finally {
    await client.close();
    await mongo.stop();
  }
}

describe('write concerns without the journal', () => {
  test('j:false and w:0 writes are answered, read back, and journaled in order before a later journaled write', async () => {
    const dataDir = tempDir('wc-live');
    const mongo = await startEmbeddedMongo({ dataDir, port: 0 });
    const client = new MongoClient(mongo.uri);
    const rows = client.db('wc').collection<Row>('rows');
    const crashImage = tempDir('wc-crash');
    try {
      const unjournaled = { writeConcern: { w: 1, j: false } } as const;
      for (let i = 1; i <= 20; i++) await rows.insertOne({ _id: i, how: 'j:false' }, unjournaled);
      await rows.updateOne({ _id: 3 }, { $set: { n: 33 } }, unjournaled);
      await rows.deleteOne({ _id: 4 }, unjournaled);
      await rows.insertOne({ _id: 21, how: 'w:0' }, { writeConcern: { w: 0 } });
      // Read on the same client: the unacknowledged insert was applied before this read ran.
      expect(await rows.countDocuments({})).toBe(20);
      expect(await rows.findOne({ _id: 3 })).toEqual({ _id: 3, how: 'j:false', n: 33 });
      await rows.insertOne({ _id: 22, how: 'journaled' });
      // The journaled insert is acknowledged: what a crash now would leave on disk.
      cpSync(dataDir, crashImage, { recursive: true });
    } finally {
      await client.close();
      await mongo.stop();
    }
    const expected = [
      ...Array.from({ length: 20 }, (_, i) => i + 1)
        .filter((id) => id !== 4)
        .map((id) => (id === 3 ? { _id: 3, how: 'j:false', n: 33 } : { _id: id, how: 'j:false' })),
      { _id: 21, how: 'w:0' },
      { _id: 22, how: 'journaled' },
    ];
    // The copy's lock file names this process, which has no engine open on that directory: it is
    // taken over as a stale lock, as after a crash.
    expect(await readBack(crashImage)).toEqual(expected);
    expect(await readBack(dataDir)).toEqual(expected);
  });
});
