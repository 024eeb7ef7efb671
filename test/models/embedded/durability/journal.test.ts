/**
 * The journal against real files: value fidelity, group-commit ordering, and recovery cutting at
 * torn or corrupt records without ever replaying part of a batch.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import {
  Binary,
  BSON,
  BSONRegExp,
  Code,
  Decimal128,
  EJSON,
  Long,
  MaxKey,
  MinKey,
  ObjectId,
  Timestamp,
  UUID,
} from 'bson';
import { openPersistence, type Persistence } from '../../../../models/embedded/persistence';
import { journalPutBytes } from '../../../../models/embedded/persistence/codec';
import type { Document, Mutation } from '../../../../models/embedded/types';
import { makeTempDir, removeDir } from './helpers';

let dataDir: string;
beforeEach(() => {
  dataDir = makeTempDir('journal');
});
afterEach(() => removeDir(dataDir));

const put = (seq: number, extra: Document = {}): Mutation => ({
  op: 'put',
  db: 'app',
  coll: 'things',
  doc: { _id: seq, seq, ...extra },
});
/** Two documents per batch, so a half-replayed batch would show. */
const pair = (seq: number): Mutation[] => [
  put(seq),
  { op: 'put', db: 'app', coll: 'twins', doc: { _id: seq } },
];
const canonical = (value: unknown): string => EJSON.stringify(value, { relaxed: false });
const journalPath = (gen: number): string =>
  path.join(dataDir, `journal-${String(gen).padStart(12, '0')}.log`);

/** Start offsets of the records in a journal file (16-byte header, then [len][crc][payload]). */
function recordOffsets(file: string): number[] {
  const bytes = fs.readFileSync(file);
  const offsets: number[] = [];
  for (let at = 16; at < bytes.length; at += 8 + bytes.readUInt32LE(at)) offsets.push(at);
  return offsets;
}

async function reopen(options: { bsonRegExp?: boolean } = {}) {
  return openPersistence({ dataDir, ...options });
}

async function appendAll(persistence: Persistence, batches: Mutation[][]): Promise<void> {
  for (const batch of batches) await persistence.append(batch);
}

describe('journal round trip', () => {
  const everyType: Document = {
    _id: new ObjectId(),
    str: 'héllo ✓ 𝄞',
    int: 42,
    negative: -7,
    double: 1.5,
    beyondInt32: 2 ** 40,
    longBeyond53: Long.fromString('9007199254740993'),
    decimal: Decimal128.fromString('1234.5678901234567890123456789'),
    date: new Date('2024-02-29T12:34:56.789Z'),
    bool: true,
    nothing: null,
    binary: new Binary(Buffer.from([0, 1, 2, 250, 255]), 0),
    uuid: new UUID('0f8fad5b-d9cb-469f-a165-70867728950e'),
    regex: new BSONRegExp('ab+c', 'imx'),
    timestamp: new Timestamp({ t: 1700000000, i: 3 }),
    minKey: new MinKey(),
    maxKey: new MaxKey(),
    code: new Code('function () { return 1; }'),
    nested: { deep: { deeper: [1, 'two', { three: 3 }, [4]] } },
    emptyArray: [],
    emptyObject: {},
    'dotted.key': 'kept',
    $dollar: 'kept too',
  };

  it('gives back every BSON type as the same JS value the engine stored', async () => {
    const { persistence } = await reopen();
    const batch: Mutation[] = [
      { op: 'put', db: 'app', coll: 'types', doc: everyType },
      { op: 'del', db: 'app', coll: 'types', id: new ObjectId('65a1b2c3d4e5f60718293a4b') },
      { op: 'del', db: 'app', coll: 'types', id: { compound: 1, key: 'x' } },
      { op: 'del', db: 'app', coll: 'types', id: 'plain string id' },
      { op: 'createColl', db: 'app', coll: 'other', options: { capped: false } },
      {
        op: 'createIndex',
        db: 'app',
        coll: 'other',
        spec: { v: 2, key: { a: 1, b: -1 }, name: 'a_1_b_-1', unique: true },
      },
      { op: 'dropIndex', db: 'app', coll: 'other', name: 'a_1_b_-1' },
      { op: 'renameColl', db: 'app', coll: 'other', toDb: 'app2', toColl: 'moved' },
      { op: 'dropColl', db: 'app2', coll: 'moved' },
      { op: 'dropDb', db: 'app2' },
    ];
    await persistence.append(batch);
    await persistence.close();

    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(recovered.batches).toHaveLength(1);
    const [replayed] = recovered.batches;
    expect(canonical(replayed)).toBe(canonical(batch));
    const doc = (replayed[0] as { doc: Document }).doc;
    expect(Object.keys(doc)).toEqual(Object.keys(everyType)); // field order kept
    expect(doc._id).toBeInstanceOf(ObjectId);
    expect(typeof doc.int).toBe('number');
    expect(typeof doc.beyondInt32).toBe('number');
    expect(doc.longBeyond53).toBeInstanceOf(Long);
    expect(doc.decimal).toBeInstanceOf(Decimal128);
    expect(doc.date).toBeInstanceOf(Date);
    expect(doc.binary).toBeInstanceOf(Binary);
    expect(doc.uuid).toBeInstanceOf(UUID);
    expect(doc.regex).toBeInstanceOf(BSONRegExp);
    expect((doc.regex as BSONRegExp).options).toBe('imx');
    expect(doc.timestamp).toBeInstanceOf(Timestamp);
    expect((replayed[2] as { id: unknown }).id).toEqual({ compound: 1, key: 'x' });
  });

  it('journals an insert from the bytes it arrived in: the same values, `_id` moved first', async () => {
    const { _id, ...rest } = everyType;
    const arrived = BSON.serialize({ ...rest, _id }); // drivers append a generated _id last
    const stored = { _id, ...rest };
    const put: Mutation & { op: 'put' } = { op: 'put', db: 'app', coll: 'types', doc: stored };
    journalPutBytes(put, arrived);
    const { persistence } = await reopen();
    await persistence.append([put, { op: 'put', db: 'app', coll: 'types', doc: { _id: 2 } }]);
    await persistence.close();
    const { persistence: again, recovered } = await reopen();
    await again.close();
    const [replayed] = recovered.batches;
    expect(canonical(replayed[0])).toBe(
      canonical({ op: 'put', db: 'app', coll: 'types', doc: stored }),
    );
    expect(Object.keys((replayed[0] as { doc: Document }).doc)).toEqual(Object.keys(stored));
    expect(canonical(replayed[1])).toBe(
      canonical({ op: 'put', db: 'app', coll: 'types', doc: { _id: 2 } }),
    );
  });

  it('gives regexes back as JS RegExp when opened with bsonRegExp: false', async () => {
    const { persistence } = await reopen({ bsonRegExp: false });
    await persistence.append([put(1, { re: /^a.b$/gim })]);
    await persistence.close();
    const { persistence: again, recovered } = await reopen({ bsonRegExp: false });
    await again.close();
    const re = (recovered.batches[0][0] as { doc: Document }).doc.re as RegExp;
    expect(re).toBeInstanceOf(RegExp);
    expect([re.source, re.flags]).toEqual(['^a.b$', 'gim']);
  });

  it('keeps a batch whose documents together exceed the 16 MB BSON document limit', async () => {
    const { persistence } = await reopen();
    const big = 'x'.repeat(9 * 1024 * 1024);
    await persistence.append([put(1, { big }), put(2, { big })]);
    await persistence.close();
    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(
      recovered.batches[0].map((m) => ((m as { doc: Document }).doc.big as string).length),
    ).toEqual([big.length, big.length]);
  });
});

describe('group commit', () => {
  it('acknowledges concurrent appends in call order and journals them in that order', async () => {
    const { persistence } = await reopen();
    const acknowledged: number[] = [];
    const pending = Array.from({ length: 300 }, (_, i) =>
      persistence.append(pair(i + 1)).then(() => acknowledged.push(i + 1)),
    );
    await Promise.all(pending);
    // A second wave while nothing is in flight, then a third racing it.
    const wave2 = Array.from({ length: 50 }, (_, i) =>
      persistence.append(pair(301 + i)).then(() => acknowledged.push(301 + i)),
    );
    await Promise.resolve();
    const wave3 = Array.from({ length: 50 }, (_, i) =>
      persistence.append(pair(351 + i)).then(() => acknowledged.push(351 + i)),
    );
    await Promise.all([...wave2, ...wave3]);
    await persistence.close();

    const expected = Array.from({ length: 400 }, (_, i) => i + 1);
    expect(acknowledged).toEqual(expected);
    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(recovered.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual(expected);
    // Grouped writes still keep each batch its own record.
    expect(recovered.batches.every((b) => b.length === 2)).toBe(true);
  });

  it('journals with fsync off too, in order', async () => {
    const { persistence } = await openPersistence({ dataDir, fsync: false });
    await Promise.all(Array.from({ length: 100 }, (_, i) => persistence.append(pair(i + 1))));
    await persistence.close();
    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(recovered.batches).toHaveLength(100);
  });

  it('rejects appends after close', async () => {
    const { persistence } = await reopen();
    await persistence.close();
    await expect(persistence.append(pair(1))).rejects.toThrow(/closed/);
  });
});

describe('recovery from a damaged journal', () => {
  it('drops a torn last record (and only it), truncates the file, and appends after the valid data', async () => {
    const { persistence } = await reopen();
    await appendAll(
      persistence,
      Array.from({ length: 10 }, (_, i) => pair(i + 1)),
    );
    await persistence.close();
    const file = journalPath(1);
    const offsets = recordOffsets(file);
    fs.truncateSync(file, offsets[9] + 20); // mid-record: the crash hit the tenth write

    const first = await reopen();
    expect(first.recovered.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(first.recovered.repairs.join('\n')).toMatch(/torn record/);
    expect(fs.statSync(file).size).toBe(offsets[9]);
    await first.persistence.append(pair(100));
    await first.persistence.close();

    const second = await reopen();
    await second.persistence.close();
    expect(second.recovered.repairs).toEqual([]);
    expect(second.recovered.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8, 9, 100,
    ]);
  });

  it('drops a record torn inside its 8-byte header', async () => {
    const { persistence } = await reopen();
    await appendAll(persistence, [pair(1), pair(2)]);
    await persistence.close();
    const file = journalPath(1);
    fs.truncateSync(file, recordOffsets(file)[1] + 5);
    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(recovered.batches).toHaveLength(1);
    expect(recovered.repairs.join('\n')).toMatch(/torn record header/);
  });

  it('cuts at a record with a bad CRC in the middle: what follows it is not replayed', async () => {
    const { persistence } = await reopen();
    await appendAll(
      persistence,
      Array.from({ length: 10 }, (_, i) => pair(i + 1)),
    );
    await persistence.close();
    const file = journalPath(1);
    const offsets = recordOffsets(file);
    const bytes = fs.readFileSync(file);
    bytes[offsets[4] + 30] ^= 0x40; // one flipped bit inside the fifth batch's payload
    fs.writeFileSync(file, bytes);

    const { persistence: again, recovered } = await reopen();
    expect(recovered.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([1, 2, 3, 4]);
    expect(recovered.repairs.join('\n')).toMatch(/checksum mismatch at offset/);
    expect(fs.statSync(file).size).toBe(offsets[4]);
    await again.append(pair(50));
    await again.close();
    const { persistence: third, recovered: afterAppend } = await reopen();
    await third.close();
    expect(afterAppend.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([
      1, 2, 3, 4, 50,
    ]);
  });

  it('detects a corrupted length field through the CRC', async () => {
    const { persistence } = await reopen();
    await appendAll(persistence, [pair(1), pair(2), pair(3)]);
    await persistence.close();
    const file = journalPath(1);
    const offsets = recordOffsets(file);
    const bytes = fs.readFileSync(file);
    bytes.writeUInt32LE(bytes.readUInt32LE(offsets[1]) - 4, offsets[1]);
    fs.writeFileSync(file, bytes);
    const { persistence: again, recovered } = await reopen();
    await again.close();
    expect(recovered.batches).toHaveLength(1);
  });

  it('sets later journals aside when an earlier one is corrupt, keeping the replayed history a prefix', async () => {
    const { persistence } = await reopen();
    await appendAll(persistence, [pair(1), pair(2), pair(3)]);
    // A snapshot that fails after rotating (a key with a NUL byte cannot be encoded) leaves two journals.
    await expect(
      persistence.snapshot(() => [
        { db: 'app', coll: 'x', options: {}, indexes: [], docs: [{ 'bad\u0000key': 1 }] },
      ]),
    ).rejects.toThrow();
    await appendAll(persistence, [pair(4), pair(5)]);
    await persistence.close();
    expect(fs.existsSync(journalPath(2))).toBe(true);

    const intact = await reopen();
    await intact.persistence.close();
    expect(intact.recovered.batches).toHaveLength(5); // the failed snapshot lost nothing

    const file = journalPath(1);
    const bytes = fs.readFileSync(file);
    bytes[recordOffsets(file)[1] + 20] ^= 0xff;
    fs.writeFileSync(file, bytes);
    const { persistence: again, recovered } = await reopen();
    expect(recovered.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([1]);
    expect(recovered.repairs.join('\n')).toMatch(/journal 2 follows a damaged record; moved aside/);
    expect(fs.existsSync(journalPath(2))).toBe(false);
    expect(
      fs
        .readdirSync(dataDir)
        .some((name) => name.startsWith('journal-000000000002.log.discarded-')),
    ).toBe(true);
    await again.append(pair(9));
    await again.close();
    const { persistence: third, recovered: later } = await reopen();
    await third.close();
    expect(later.batches.map((b) => (b[0] as { doc: Document }).doc.seq)).toEqual([1, 9]);
  });

  it('treats a journal torn while being created as empty', async () => {
    const { persistence } = await reopen();
    await appendAll(persistence, [pair(1)]);
    await persistence.close();
    fs.writeFileSync(journalPath(2), Buffer.from('QUIRE-J')); // crash mid-header during a rotation
    const { persistence: again, recovered } = await reopen();
    expect(recovered.batches).toHaveLength(1);
    await again.append(pair(2));
    await again.close();
    expect(fs.statSync(journalPath(2)).size).toBeGreaterThan(16);
    const { persistence: third, recovered: later } = await reopen();
    await third.close();
    expect(later.batches).toHaveLength(2);
  });

  it('refuses to open when a journal in the middle of the history is missing', async () => {
    const { persistence } = await reopen();
    await appendAll(persistence, [pair(1)]);
    await expect(
      persistence.snapshot(() => [
        { db: 'a', coll: 'b', options: {}, indexes: [], docs: [{ 'x\u0000': 1 }] },
      ]),
    ).rejects.toThrow();
    await expect(
      persistence.snapshot(() => [
        { db: 'a', coll: 'b', options: {}, indexes: [], docs: [{ 'x\u0000': 1 }] },
      ]),
    ).rejects.toThrow();
    await persistence.close();
    fs.unlinkSync(journalPath(2));
    await expect(reopen()).rejects.toThrow(/journal 2 is missing/);
  });
});
