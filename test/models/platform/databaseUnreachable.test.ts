/**
 * `isDatabaseUnreachable`: the errors the API turns into 503 / 10505 ("database unavailable, try
 * again") are the driver's own when no server can be reached, and only those — a request the
 * database refused (a duplicate key) stays an ordinary failure. Real driver errors, from a real
 * client against a port nothing listens on and against the embedded engine.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
import net from 'node:net';
import { MongoClient } from 'mongodb';
import { isDatabaseUnreachable } from '../../../models/platform/db';
import { freePort } from '../../helpers/daemon';
import { startTestEngine, type TestEngine } from '../../helpers/embedded';

let engine: TestEngine;
beforeAll(async () => {
  engine = await startTestEngine();
});
afterAll(async () => {
  await engine?.stop();
});

test('no server to reach is "unreachable"; a refused write is not', async () => {
  const port = await freePort();
  const nowhere = new MongoClient(`mongodb://127.0.0.1:${port}/quire?directConnection=true`, {
    serverSelectionTimeoutMS: 300,
  });
  const selection = await nowhere
    .db()
    .collection('x')
    .findOne({})
    .catch((error: unknown) => error);
  await nowhere.close();
  expect((selection as Error).name).toBe('MongoServerSelectionError');
  expect(isDatabaseUnreachable(selection)).toBe(true);

  const client = await MongoClient.connect(engine.uri);
  try {
    const things = client.db('quire').collection<{ _id: number }>('things');
    await things.insertOne({ _id: 1 });
    const duplicate = await things.insertOne({ _id: 1 }).catch((error: unknown) => error);
    expect((duplicate as { code?: number }).code).toBe(11000);
    expect(isDatabaseUnreachable(duplicate)).toBe(false);
  } finally {
    await client.close();
  }
  expect(isDatabaseUnreachable(new Error('anything else'))).toBe(false);
  expect(isDatabaseUnreachable('not an error')).toBe(false);
});

test('the driver\'s raw socket error on a connection the database host ended is "unreachable"', () => {
  // The shape the driver let through in the topology test's database-host kill: Node's own error
  // for a write after the host's FIN, thrown from the driver's connection, not wrapped in one of
  // its network errors (a real one is a race between the FIN and the next command's write).
  const ended = Object.assign(new Error('This socket has been ended by the other party'), {
    code: 'EPIPE',
    stack: [
      'Error: This socket has been ended by the other party',
      '    at Socket.writeAfterFIN [as write] (node:net:566:14)',
      '    at Connection.writeCommand (/srv/quire/node_modules/mongodb/lib/cmap/connection.js:408:29)',
    ].join('\n'),
  });
  expect(isDatabaseUnreachable(ended)).toBe(true);
  const reset = Object.assign(new Error('read ECONNRESET'), {
    code: 'ECONNRESET',
    stack:
      'Error: read ECONNRESET\n    at TCP.onStreamRead (node:internal/stream_base_commons:216:20)\n    at Connection.onData (/app/node_modules/mongodb/lib/cmap/connection.js:1:1)',
  });
  expect(isDatabaseUnreachable(reset)).toBe(true);
  // The same codes from anything but the driver (an outgoing request of an action) are not.
  const elsewhere = Object.assign(new Error('write EPIPE'), {
    code: 'EPIPE',
    stack:
      'Error: write EPIPE\n    at afterWriteDispatched (node:internal/stream_base_commons:161:15)',
  });
  expect(isDatabaseUnreachable(elsewhere)).toBe(false);
});

test('a bulk write (insertMany) whose connection the database host closed is "unreachable"', async () => {
  // As in the topology test's database-host kill: the driver wraps the network error that stopped
  // an insertMany in a MongoBulkWriteError (a server error's class), keeping it as errorResponse.
  // A proxy in front of the engine closes the client's connection at its next command.
  const engineAddress = new URL(engine.uri);
  let cut = false;
  const proxy = net.createServer((client) => {
    const upstream = net.connect(Number(engineAddress.port), engineAddress.hostname);
    client.on('data', (chunk) => {
      if (cut) client.destroy();
      else upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => {});
    upstream.on('error', () => {});
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as net.AddressInfo;
  const client = new MongoClient(`mongodb://127.0.0.1:${port}/quire?directConnection=true`, {
    retryWrites: false,
    maxPoolSize: 1,
  });
  try {
    const rows = client.db('quire').collection('bulk_rows');
    await rows.insertMany([{ n: 1 }, { n: 2 }]);
    cut = true;
    const failed = await rows.insertMany([{ n: 3 }, { n: 4 }]).catch((error: unknown) => error);
    expect((failed as Error).name).toBe('MongoBulkWriteError');
    expect(isDatabaseUnreachable(failed)).toBe(true);
  } finally {
    await client.close().catch(() => {});
    await new Promise((resolve) => proxy.close(resolve));
  }
});
