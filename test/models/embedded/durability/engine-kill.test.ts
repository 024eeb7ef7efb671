/**
 * The whole embedded engine under kill -9: a child writes through the official driver (single
 * inserts, two-document transactions, a two-field update), is killed at random moments, and every
 * acknowledged write must be there after a restart, with no document or transaction half written.
 * Also: a second engine on the same data directory is refused, naming the holder's pid.
 */
import { describe, expect, it } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { EngineLockedError, startEmbeddedMongo } from '../../../../models/embedded';
import { docFor, type StoredDoc } from './fixtures/engineDocs';
import {
  exited,
  killFixture,
  LineReader,
  sleep,
  spawnFixture,
  spawnReady,
  tempDirsRemovedAfterAll,
} from './helpers';

const ROUNDS = 12;
const tempDir = tempDirsRemovedAfterAll();

const partsOf = (seq: number): string[] => (seq % 3 === 0 ? ['-1', '-2'] : ['']);

/** Starts the engine in this process on `dataDir`, reads everything back, and checks it. */
async function restartAndCheck(dataDir: string, acknowledged: Set<number>) {
  const mongo = await startEmbeddedMongo({ dataDir, port: 0 });
  const client = new MongoClient(mongo.uri);
  try {
    const db = client.db('killtest');
    const docs = await db.collection<StoredDoc>('docs').find().toArray();
    const shared = await db
      .collection<{ _id: string; left: number; right: number }>('shared')
      .findOne({ _id: 'pair' });
    const problems: string[] = [];
    const bySeq = new Map<number, string[]>();
    for (const doc of docs) {
      if (JSON.stringify(doc) !== JSON.stringify(docFor(doc.seq, doc.part))) {
        problems.push(
          `document ${doc._id} is not as written: ${JSON.stringify(doc).slice(0, 200)}`,
        );
      }
      bySeq.set(doc.seq, [...(bySeq.get(doc.seq) ?? []), doc.part]);
    }
    for (const [seq, parts] of bySeq) {
      if (parts.sort().join(',') !== partsOf(seq).join(','))
        problems.push(`write ${seq} half applied: parts ${parts.join(',')}`);
    }
    for (const seq of acknowledged)
      if (!bySeq.has(seq)) problems.push(`acknowledged write ${seq} lost`);
    if (shared && shared.left !== shared.right)
      problems.push(`update half applied: ${JSON.stringify(shared)}`);
    return { problems: problems.slice(0, 10), writes: bySeq.size };
  } finally {
    await client.close();
    await mongo.stop();
  }
}

describe('embedded engine under kill -9', () => {
  it(`keeps every acknowledged driver write, whole, across ${ROUNDS} SIGKILLs`, async () => {
    const dataDir = tempDir('engine-kill');
    const acknowledged = new Set<number>();
    let recoveredWrites = 0;
    for (let round = 0; round < ROUNDS; round++) {
      const writer = await spawnReady('engine-writer.ts', [dataDir]);
      await sleep(100 + Math.random() * 700);
      expect(await killFixture(writer)).toEqual({ signal: 'SIGKILL', stderr: '' });
      for (const line of writer.reader.lines)
        if (line.startsWith('ack ')) acknowledged.add(Number(line.slice(4)));

      const check = await restartAndCheck(dataDir, acknowledged);
      expect(check.problems).toEqual([]);
      recoveredWrites = check.writes;
    }
    console.log(
      `engine kill -9 test: ${ROUNDS} rounds, ${acknowledged.size} acknowledged writes, ${recoveredWrites} recovered`,
    );
    expect(acknowledged.size).toBeGreaterThan(0);
  });

  it('refuses a second engine on the same data directory, naming the holder pid', async () => {
    const dataDir = tempDir('engine-lock');
    const child = spawnFixture('engine-writer.ts', [dataDir]);
    try {
      await new LineReader(child.stdout).waitFor((line) => line.startsWith('ready '));
      const second = startEmbeddedMongo({ dataDir, port: 0 });
      await expect(second).rejects.toBeInstanceOf(EngineLockedError);
      await expect(second).rejects.toMatchObject({
        holderPid: child.pid,
        message: `data directory ${dataDir} is in use by process ${child.pid}`,
      });
    } finally {
      child.kill('SIGKILL');
      await exited(child);
    }
    // Within one process too.
    const first = await startEmbeddedMongo({ dataDir, port: 0 });
    try {
      await expect(startEmbeddedMongo({ dataDir, port: 0 })).rejects.toMatchObject({
        name: 'EngineLockedError',
        holderPid: process.pid,
      });
    } finally {
      await first.stop();
    }
  });
});
