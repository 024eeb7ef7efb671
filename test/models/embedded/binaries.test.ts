/**
 * A stored Binary owns its bytes. bson decodes a Binary as a view into the buffer it read, so
 * without a copy a draft's few hundred bytes of Yjs state (or a compressed page version) would
 * keep a whole wire message chunk, or a whole journal record, alive for as long as it is stored.
 */
import { describe, expect, test } from '@jest/globals';
import { Binary, BSON, type Document } from 'bson';
import { decodeMessage, OP_MSG } from '../../../models/embedded/wire';
import { decodeDocumentRun, decodeOptions } from '../../../models/embedded/persistence/codec';

/** An OP_MSG as a driver sends it: a body section, and optionally one document sequence. */
function opMsg(body: Document, sequence?: { name: string; docs: Document[] }): Buffer {
  const parts: Buffer[] = [Buffer.from([0]), Buffer.from(BSON.serialize(body))];
  if (sequence) {
    const docs = sequence.docs.map((d) => Buffer.from(BSON.serialize(d)));
    const name = Buffer.from(`${sequence.name}\0`);
    const size = Buffer.alloc(4);
    size.writeInt32LE(4 + name.length + docs.reduce((n, d) => n + d.length, 0));
    parts.push(Buffer.from([1]), size, name, ...docs);
  }
  const head = Buffer.alloc(20);
  const length = 20 + parts.reduce((n, p) => n + p.length, 0);
  head.writeInt32LE(length, 0);
  head.writeInt32LE(7, 4);
  head.writeInt32LE(OP_MSG, 12);
  // Inside a larger chunk, as a socket read delivers it.
  const chunk = Buffer.concat([head, ...parts, Buffer.alloc(4096)]);
  return chunk.subarray(0, length);
}

const bytes = (n: number) => new Binary(Buffer.from(Array.from({ length: n }, (_, i) => i % 251)));

function expectOwned(value: unknown, length: number) {
  expect(value).toBeInstanceOf(Binary);
  const buffer = (value as Binary).buffer;
  expect(buffer.byteLength).toBe(length);
  expect(buffer.buffer.byteLength).toBe(length);
  expect([...buffer.subarray(0, 3)]).toEqual([0, 1, 2]);
}

describe('Binary values the engine will store own their bytes', () => {
  test('an insert sent as a document sequence', () => {
    const message = opMsg(
      { insert: 'drafts', $db: 'app' },
      {
        name: 'documents',
        docs: [
          { _id: 1, state: bytes(300) },
          { _id: 2, state: bytes(10) },
        ],
      },
    );
    const { command } = decodeMessage(message);
    const [first, second] = command.documents as Document[];
    expectOwned(first.state, 300);
    expectOwned(second.state, 10);
  });

  test('an insert and an update sent in the body, nested in arrays and sub-documents', () => {
    const insert = decodeMessage(
      opMsg({ insert: 'drafts', documents: [{ _id: 1, parts: [{ z: bytes(64) }] }], $db: 'app' }),
    ).command;
    expectOwned(((insert.documents as Document[])[0].parts as Document[])[0].z, 64);
    const update = decodeMessage(
      opMsg({ update: 'drafts', updates: [{ q: { _id: 1 }, u: { $set: { state: bytes(99) } } }] }),
    ).command;
    expectOwned(((update.updates as Document[])[0].u as Document).$set.state, 99);
    const findAndModify = decodeMessage(
      opMsg({ findAndModify: 'drafts', query: { _id: 1 }, update: { $set: { state: bytes(5) } } }),
    ).command;
    expectOwned((findAndModify.update as Document).$set.state, 5);
  });

  test('documents read back from a journal or snapshot record', () => {
    const record = Buffer.concat([
      Buffer.from(BSON.serialize({ _id: 1, state: bytes(200) })),
      Buffer.from(BSON.serialize({ _id: 2, list: [bytes(7)] })),
    ]);
    const [a, b] = decodeDocumentRun(record, 0, decodeOptions(true));
    expectOwned(a.state, 200);
    expectOwned((b.list as unknown[])[0], 7);
  });
});
