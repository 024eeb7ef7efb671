/**
 * The lead worker's engine thread (server/cluster/engineThread.ts), started as the lead starts it:
 * it serves the data directory on its unix socket, a stop writes everything acknowledged and frees
 * the directory, the next engine finds the data, and a directory another process holds is refused
 * with the in-process engine's own error.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, expect, test } from '@jest/globals';
import { MongoClient } from 'mongodb';
import { EngineLockedError, engineSocketPath, socketUriFor } from '../../models/embedded';
import { LOCK_FILE } from '../../models/embedded/persistence/layout';
import { startEngineThread } from '../../server/cluster/engineThread';
import { makeTempDir } from '../helpers/server';

const clients: MongoClient[] = [];
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
});

async function connect(uri: string): Promise<MongoClient> {
  const client = await MongoClient.connect(uri);
  clients.push(client);
  return client;
}

test('serves the directory on its socket, stops clean and keeps the data', async () => {
  const dataDir = await makeTempDir('quire-engine-thread-');
  const socketPath = engineSocketPath(dataDir);
  const options = { dataDir, host: '127.0.0.1', port: 0, socketPath };

  const engine = await startEngineThread(options);
  expect(engine.socketUri).toBe(socketUriFor(socketPath));
  expect(engine.repairs).toEqual([]);
  const client = await connect(engine.socketUri!);
  const rows = client.db('quire').collection<{ _id: number; text: string }>('notes');
  await rows.insertMany([
    { _id: 1, text: 'first' },
    { _id: 2, text: 'second' },
  ]);
  expect(await rows.find({}, { sort: { _id: 1 } }).toArray()).toEqual([
    { _id: 1, text: 'first' },
    { _id: 2, text: 'second' },
  ]);

  await client.close();
  await engine.stop();
  expect(fs.existsSync(socketPath)).toBe(false);

  const again = await startEngineThread(options);
  const reopened = await connect(again.socketUri!);
  expect(await reopened.db('quire').collection('notes').countDocuments()).toBe(2);
  await reopened.close();
  await again.stop();
});

test("a directory another live process holds is refused with the in-process engine's own error", async () => {
  const dataDir = await makeTempDir('quire-engine-thread-');
  // The lock as a live process (this test's parent) left it.
  fs.writeFileSync(
    path.join(dataDir, LOCK_FILE),
    JSON.stringify({ pid: process.ppid, startTime: null, nonce: 'held' }),
  );
  const refused = await startEngineThread({ dataDir, tcp: false }).then(
    () => null,
    (error: unknown) => error,
  );
  expect(refused).toBeInstanceOf(EngineLockedError);
  expect((refused as EngineLockedError).holderPid).toBe(process.ppid);
});
