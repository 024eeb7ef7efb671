/**
 * `isDatabaseUnreachable`: the errors the API turns into 503 / 10505 ("database unavailable, try
 * again") are the driver's own when no server can be reached, and only those — a request the
 * database refused (a duplicate key) stays an ordinary failure. Real driver errors, from a real
 * client against a port nothing listens on and against the embedded engine.
 */
import { afterAll, beforeAll, expect, test } from '@jest/globals';
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
